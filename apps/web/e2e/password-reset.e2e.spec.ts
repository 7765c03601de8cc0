import { describe, expect, it } from 'vitest';
import type { Page } from 'playwright-core';
import { expectAccessible, path, registeredAccount, setUpBrowserSuite, submitLogin, openSignIn } from './helpers.ts';

/**
 * Forgot password, end to end with the console SMS adapter (the server's default): the code is read
 * from the server log, where the number shows masked. A wrong or used code is refused.
 */

const suite = setUpBrowserSuite();

/** The last code the server logged for `mobile` (masked in the log to its last four digits). */
function loggedCode(mobile: string): string | undefined {
  const pattern = new RegExp(`password reset code for \\+91 X{6}${mobile.slice(-4)}: (\\d{6})`, 'g');
  return [...suite.server.output().matchAll(pattern)].at(-1)?.[1];
}

async function askForCode(page: Page, mobile: string, labels: { mobile: string; send: string }): Promise<string> {
  const before = loggedCode(mobile);
  await page.getByLabel(labels.mobile).fill(mobile);
  await page.getByRole('button', { name: labels.send }).click();
  await expect.poll(() => loggedCode(mobile) !== before && loggedCode(mobile) !== undefined).toBe(true);
  expect(suite.server.output()).not.toContain(mobile);
  return loggedCode(mobile)!;
}

describe('forgot password', () => {
  it('sets a new password with the SMS code; a wrong or used code is refused; axe-clean', async () => {
    const user = await registeredAccount(suite.server, 'Geeta', 'Nair');
    const page = await suite.phone();
    await openSignIn(page);
    await page.getByRole('link', { name: 'Forgot password?' }).click();
    await page.getByRole('heading', { name: 'Reset your password' }).waitFor();
    expect(path(page)).toBe('/forgot-password');
    await expectAccessible(page, 'forgot password (en)');

    const code = await askForCode(page, user.mobile, { mobile: 'Mobile number', send: 'Send code' });
    await page.getByText(`If +91 ${user.mobile} has an account`).waitFor();
    await expectAccessible(page, 'forgot password, code step (en)');

    const wrong = code === '000000' ? '000001' : '000000';
    await page.getByLabel('6-digit code').fill(wrong);
    await page.getByLabel('New password', { exact: true }).fill('fresh-secret-1');
    await page.getByRole('button', { name: 'Set new password' }).click();
    await page.getByText('This code is wrong or has expired. Ask for a new one.').first().waitFor();

    await page.getByLabel('6-digit code').fill(code);
    await page.getByRole('button', { name: 'Set new password' }).click();
    await page.getByText('Password changed', { exact: true }).waitFor();
    await expect.poll(() => path(page)).toBe('/login');

    await submitLogin(page, { mobile: user.mobile, password: 'fresh-secret-1' });
    await page.getByRole('heading', { name: 'Hello, Geeta' }).waitFor();

    // The used code sets nothing again.
    const again = await page.request.post('/api/auth/password-reset/confirm', {
      data: { mobile: user.mobile, code, newPassword: 'another-secret' },
      headers: { origin: suite.server.baseUrl },
    });
    expect(again.status()).toBe(400);
  });

  it('reads in Hindi, axe-clean', async () => {
    const user = await registeredAccount(suite.server, 'Sunita', 'Yadav');
    const page = await suite.phone();
    await openSignIn(page);
    await page.getByRole('button', { name: 'हिन्दी' }).click();
    await page.getByRole('link', { name: 'पासवर्ड भूल गए?' }).click();
    await page.getByRole('heading', { name: 'अपना पासवर्ड फिर से सेट करें' }).waitFor();
    await expectAccessible(page, 'forgot password (hi)');
    await askForCode(page, user.mobile, { mobile: 'मोबाइल नंबर', send: 'कोड भेजें' });
    await page.getByLabel('6 अंकों का कोड').waitFor();
    await expectAccessible(page, 'forgot password, code step (hi)');
  });
});
