import { beforeAll, describe, expect, it } from 'vitest';
import type { Page } from 'playwright-core';
import { registerAccount } from './harness.ts';
import type { TestAccount } from './harness.ts';
import { expectAccessible, path, registeredAccount, setUpBrowserSuite, staffAccount, submitLogin, toasts } from './helpers.ts';

/**
 * Erasure on request, end to end: the user asks on the Delete Account page, the admin finds the
 * request on the Deletions screen and is refused while the cooling-off runs (English) and while
 * money is owed (Hindi), then erases it. The person can no longer sign in, the number registers
 * again, and finance's books still balance, by user id.
 */

const suite = setUpBrowserSuite();
const { signedIn } = suite;

let admin: TestAccount;
let finance: TestAccount;

beforeAll(async () => {
  admin = await staffAccount(suite.server, 'Aditi', 'Menon', 'admin');
  finance = await staffAccount(suite.server, 'Farah', 'Khan', 'finance');
});

interface Answer {
  status: number;
  // The test reads the JSON as it comes.
  body: any;
}

/** An API call as `account`, its answer read as JSON. */
async function as(account: TestAccount) {
  return async (method: string, url: string, body?: unknown): Promise<Answer> => {
    const response = await suite.api(account, method, url, body);
    const text = await response.text();
    return { status: response.status, body: text ? JSON.parse(text) : null };
  };
}

/** The request's card on the Deletions screen, found by the user id it shows. */
const cardOf = (page: Page, userId: string) => page.getByTestId('deletion-request').filter({ hasText: userId });

describe('erasing an account on request', () => {
  it('user asks, admin is refused during the cooling-off and while money is owed, then erases; the person is gone and the books balance', { timeout: 600_000 }, async () => {
    const user = await registeredAccount(suite.server, 'Zenobia', 'Quill');
    const asUser = await as(user);
    const asAdmin = await as(admin);
    const asFinance = await as(finance);
    const userId = (await asUser('GET', '/api/auth/user')).body.id as string;
    expect((await asFinance('POST', '/api/admin/adjustments', { mobile: user.mobile, amount: '50', direction: 'credit', reason: 'Survey reward' })).status).toBe(201);

    // The user asks on the Delete Account page, with the password again (the default 48 h cooling-off).
    const mine = await signedIn(user);
    await mine.goto('/delete-account');
    await mine.getByRole('heading', { name: 'Delete Account', exact: true }).waitFor();
    await mine.getByLabel('Your password').fill(user.password);
    await mine.getByRole('button', { name: 'Request deletion', exact: true }).click();
    await mine.getByTestId('deletion-pending').waitFor();
    await expectAccessible(mine, 'delete account, request pending (en)');

    // The admin reaches the Deletions screen from the staff section of Profile.
    const desk = await signedIn(admin);
    await desk.goto('/profile');
    await desk.getByRole('region', { name: 'Staff' }).getByRole('link', { name: 'Deletions' }).click();
    await desk.getByRole('heading', { name: 'Deletions', level: 1 }).waitFor();
    expect(path(desk)).toBe('/admin/deletions');
    const card = cardOf(desk, userId);
    await card.getByText('Cooling off', { exact: true }).waitFor();
    await card.getByText('₹50.00', { exact: true }).waitFor();
    await expectAccessible(desk, '/admin/deletions (en)');

    // Too early: the dialog says so in the spec's words and erases nothing.
    await card.getByRole('button', { name: 'Erase account' }).click();
    let dialog = desk.getByRole('dialog', { name: 'Erase this account?' });
    await dialog.getByText(userId, { exact: false }).waitFor();
    await expectAccessible(desk, 'erase confirmation (en)');
    await dialog.getByRole('button', { name: 'Erase for good' }).click();
    await dialog.getByRole('alert').getByText('The cooling-off period of this request has not ended yet').waitFor();
    await expectAccessible(desk, 'erase refused, cooling-off (en)');
    await dialog.getByRole('button', { name: 'Cancel' }).click();
    await dialog.waitFor({ state: 'detached' });

    // The test shortens the cooling-off to none; the user asks again under it.
    expect((await asAdmin('PUT', '/api/admin/settings', { deletionCoolingOffHours: 0 })).status).toBe(200);
    expect((await asUser('DELETE', '/api/profile/deletion-request')).status).toBe(200);
    const again = await asUser('POST', '/api/profile/deletion-request', { password: user.password });
    expect(again.status).toBe(202);

    // The admin works in Hindi on a small phone: the ₹50 still owed is refused in Hindi.
    await desk.setViewportSize({ width: 360, height: 640 });
    await desk.goto('/profile');
    await desk.getByRole('button', { name: 'हिन्दी' }).click();
    await desk.waitForFunction(() => document.documentElement.lang === 'hi');
    await desk.goto('/admin/deletions');
    await desk.getByRole('heading', { name: 'खाता हटाना', level: 1 }).waitFor();
    await card.getByText('शेष राशि बकाया', { exact: true }).waitFor();
    await expectAccessible(desk, '/admin/deletions (hi)');
    // Usable at 360 px: nothing wider than the screen, every button a 44 px target.
    expect(await desk.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(360);
    for (const button of await desk.locator('main button').all()) {
      const box = await button.boundingBox();
      expect(box?.height ?? 0, await button.innerText()).toBeGreaterThanOrEqual(44);
    }
    await card.getByRole('button', { name: 'खाता हटाएँ' }).click();
    dialog = desk.getByRole('dialog', { name: 'यह खाता हटाएँ?' });
    await dialog.getByRole('button', { name: 'हमेशा के लिए हटाएँ' }).click();
    await dialog.getByRole('alert').getByText('उपयोगकर्ता के पास अभी भी उपलब्ध शेष राशि या लंबित भुगतान है; पहले उसे निपटाएँ').waitFor();
    await expectAccessible(desk, 'erase refused, balance not settled (hi)');
    await dialog.getByRole('button', { name: 'रद्द करें' }).click();
    await dialog.waitFor({ state: 'detached' });

    // Finance settles it; now the request is due and the erasure goes through.
    expect((await asFinance('POST', '/api/admin/adjustments', { mobile: user.mobile, amount: '50', direction: 'debit', reason: 'Closing the account' })).status).toBe(201);
    await desk.reload();
    await card.getByText('हटाने के लिए तैयार', { exact: true }).waitFor();
    await card.getByRole('button', { name: 'खाता हटाएँ' }).click();
    await dialog.getByRole('button', { name: 'हमेशा के लिए हटाएँ' }).click();
    await toasts(desk).getByText('खाता हटाया गया', { exact: true }).waitFor();
    await dialog.waitFor({ state: 'detached' });
    await expect.poll(() => card.count()).toBe(0);
    await desk.getByRole('button', { name: 'हटाए गए' }).click();
    await card.getByText('हटाया गया उपयोगकर्ता', { exact: true }).waitFor();
    await expectAccessible(desk, '/admin/deletions, erased (hi)');
    // The status shown is in the address: a reload keeps it.
    await expect.poll(() => new URL(desk.url()).search).toBe('?status=erased');
    await desk.reload();
    await card.getByText('हटाया गया उपयोगकर्ता', { exact: true }).waitFor();
    expect(await desk.getByRole('button', { name: 'हटाए गए' }).getAttribute('aria-pressed')).toBe('true');

    // The person is signed out everywhere and cannot sign in again.
    await mine.goto('/wallet');
    await mine.waitForURL((url) => url.pathname === '/login');
    await submitLogin(mine, user);
    await mine.getByText('Invalid mobile number or password').first().waitFor();
    expect(path(mine)).toBe('/login');
    await expectAccessible(mine, 'sign-in refused after erasure (en)');

    // The number is free for a new registration.
    await registerAccount(suite.server.baseUrl, { ...user, firstName: 'Naya', lastName: 'Khata' });

    // Finance keeps the books: the statement reads by user id and balances; trial balance and reconciliation are even.
    const statement = await asFinance('GET', `/api/admin/ledger/users/${userId}/statement`);
    expect(statement.status).toBe(200);
    expect(statement.body.user).toMatchObject({ id: userId, name: 'Deleted user', mobile: '' });
    const paise = (rupees: string) => Math.round(Number(rupees) * 100);
    const moved = statement.body.entries.reduce((sum: number, e: { amount: string }) => sum + paise(e.amount), 0);
    expect(statement.body.entries).toHaveLength(2);
    expect(paise(statement.body.opening.available) + moved).toBe(paise(statement.body.closing.available));
    expect(statement.body.closing).toEqual({ available: '0.00', pendingPayout: '0.00' });
    expect((await asFinance('GET', '/api/admin/ledger/trial-balance')).body.difference).toBe('0.00');
    expect((await asFinance('GET', '/api/admin/ledger/reconciliation')).body.difference).toBe('0.00');
    expect((await asFinance('GET', '/api/admin/ledger/verify')).body).toMatchObject({ ok: true });
    const audit = await asAdmin('GET', '/api/admin/audit');
    expect(audit.body).toEqual(expect.arrayContaining([expect.objectContaining({ action: 'user_erased', reference: again.body.id })]));
  });
});
