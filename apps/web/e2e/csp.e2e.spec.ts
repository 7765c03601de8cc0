import { describe, expect, it } from 'vitest';
import type { Page } from 'playwright-core';
import { grantRole } from './harness.ts';
import { registeredAccount, setUpBrowserSuite, submitLogin, openSignIn } from './helpers.ts';

const suite = setUpBrowserSuite();

/** Records every CSP violation the page reports, from its first script on, and every CSP console error. */
async function watchViolations(page: Page): Promise<string[]> {
  const seen: string[] = [];
  await page.addInitScript(() => {
    document.addEventListener('securitypolicyviolation', (e) => {
      console.error(`CSP violation: ${e.violatedDirective} ${e.blockedURI}`);
    });
  });
  page.on('console', (message) => {
    if (message.type() === 'error' && /Content Security Policy|CSP violation/i.test(message.text())) seen.push(message.text());
  });
  return seen;
}

describe('Content-Security-Policy', () => {
  it('is sent with the app, allows no inline script or style, and the app runs under it with no violations', async () => {
    const response = await fetch(`${suite.server.baseUrl}/`);
    const policy = response.headers.get('content-security-policy') ?? '';
    expect(policy).toContain("script-src 'self'");
    expect(policy).toContain("style-src 'self'");
    expect(policy).not.toContain('unsafe-inline');
    expect(policy).toContain("img-src 'self'");
    // Plain HTTP here: no HSTS (it is sent only behind TLS).
    expect(response.headers.get('strict-transport-security')).toBeNull();
    const html = await response.text();
    expect(html).not.toMatch(/<script(?![^>]*\bsrc=)[^>]*>/i);
    expect(html).not.toMatch(/<style|\sstyle=/i);

    const account = await registeredAccount(suite.server, 'Kiran');
    grantRole(suite.server, account.mobile, 'admin');
    const page = await suite.phone();
    const violations = await watchViolations(page);
    await openSignIn(page);
    await submitLogin(page, account);
    await page.getByRole('heading', { name: `Hello, ${account.firstName}` }).waitFor();
    for (const [path, heading] of [
      ['/tasks', null],
      ['/wallet', null],
      ['/profile', 'Profile'],
      ['/security/devices', 'Signed-in devices'],
      ['/security/password', 'Change password'],
      ['/admin', null],
      ['/privacy-policy', 'Privacy Policy'],
    ] as const) {
      await page.goto(path);
      await page.getByRole('heading', { level: 1, ...(heading && { name: heading }) }).first().waitFor();
    }
    // A dialog (Radix portals, scroll lock) under the policy too.
    await page.goto('/profile');
    await page.getByRole('button', { name: 'Edit Profile' }).click();
    await page.getByRole('dialog').waitFor();
    await page.keyboard.press('Escape');
    await page.waitForTimeout(300);
    expect(violations).toEqual([]);
  });
});
