import { beforeAll, describe, expect, it } from 'vitest';
import type { Locator, Page } from 'playwright-core';
import { grantRole } from './harness.ts';
import type { TestAccount } from './harness.ts';
import { balanceOf, openAdjustmentConfirmation, openFinanceScreen, path, registeredAccount, sessionCookie, setUpBrowserSuite, slowNetwork, submitLogin, waitForRole, toasts } from './helpers.ts';

/**
 * Every money action sends once: its confirm button double-clicked while the network is slow (the
 * request held until the clicks are done) makes one request and one effect, and the dialog stays
 * open, busy, until the answer. Dialogs ask before a backdrop tap loses typed input, and Back closes
 * them without leaving the page. A deep link opened signed out returns to its page after sign-in.
 */

const suite = setUpBrowserSuite();
const { signedIn } = suite;

let staff: TestAccount;
let colleague: TestAccount;

beforeAll(async () => {
  staff = await registeredAccount(suite.server, 'Farah', 'Khan');
  colleague = await registeredAccount(suite.server, 'Dev', 'Malik');
  grantRole(suite.server, staff.mobile, 'finance');
  grantRole(suite.server, colleague.mobile, 'finance');
  await waitForRole(suite.server, staff, 'finance');
  await waitForRole(suite.server, colleague, 'finance');
});


async function api(account: TestAccount, method: string, path: string, body?: unknown): Promise<Response> {
  const cookie = await sessionCookie(suite.server, account);
  return fetch(`${suite.server.baseUrl}${path}`, {
    method,
    headers: { cookie, origin: suite.server.baseUrl, 'content-type': 'application/json' },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
}

/** Double-clicks `button` while its request is held; the dialog is still there, busy, after both clicks. */
async function doubleClickWhileSlow(page: Page, dialog: Locator, button: Locator, pattern: RegExp): Promise<string[]> {
  const network = await slowNetwork(page, pattern);
  await button.dblclick();
  await expect.poll(() => network.keys.length).toBe(1);
  // A stray tap on the backdrop meanwhile does not close it either.
  await page.mouse.click(4, page.viewportSize()!.height - 4);
  await expect(dialog.isVisible()).resolves.toBe(true);
  network.release();
  return network.keys;
}

async function pendingWithdrawal(user: TestAccount, amount: string, upiId: string): Promise<string> {
  const answer = await api(user, 'POST', '/api/withdrawals', { amount, upiId });
  expect(answer.status).toBe(201);
  return ((await answer.json()) as { id: string }).id;
}

async function withdrawals(user: TestAccount): Promise<{ id: string; status: string }[]> {
  return (await (await api(user, 'GET', '/api/withdrawals')).json()) as { id: string; status: string }[];
}

/** Funded by the colleague: whoever adjusted a wallet does not settle its withdrawals. */
async function credit(user: TestAccount, amount: string): Promise<void> {
  expect((await api(colleague, 'POST', '/api/admin/adjustments', { mobile: user.mobile, amount, direction: 'credit', reason: 'Test funding' })).status).toBe(201);
}

describe('a double click on a money action', () => {
  it("the user's withdrawal: one request, one withdrawal", async () => {
    const user = await registeredAccount(suite.server, 'Asha', 'Rao');
    await credit(user, '300');
    const page = await signedIn(user);
    await page.goto('/wallet');
    await page.getByRole('button', { name: 'Withdraw Money' }).click();
    const dialog = page.getByRole('dialog', { name: /^Withdraw to (Bank|UPI)$/ });
    await dialog.getByRole('radio', { name: 'UPI ID' }).check();
    await dialog.getByLabel('Amount (₹)').fill('150');
    await dialog.getByRole('textbox', { name: 'UPI ID' }).fill('asha.rao@okaxis');
    await dialog.getByRole('button', { name: 'Submit Request' }).click();
    const keys = await doubleClickWhileSlow(page, dialog, dialog.getByRole('button', { name: 'Confirm and send' }), /^\/api\/withdrawals$/);
    await toasts(page).getByText('Withdrawal Requested', { exact: true }).waitFor();
    await dialog.waitFor({ state: 'detached' });
    expect(keys).toHaveLength(1);
    expect(keys[0]).toMatch(/^[0-9a-f-]{36}$/);
    await expect(withdrawals(user)).resolves.toHaveLength(1);
    expect(await balanceOf(suite.server, user)).toBe('150.00');
  });

  it("finance's adjustment: one request, one credit", async () => {
    const user = await registeredAccount(suite.server, 'Ravi', 'Verma');
    const finance = await openFinanceScreen(await signedIn(staff));
    const dialog = await openAdjustmentConfirmation(finance, { mobile: user.mobile, amount: '40', reason: 'Welcome bonus' });
    await doubleClickWhileSlow(finance, dialog, dialog.getByRole('button', { name: 'Credit ₹40.00' }), /^\/api\/admin\/adjustments$/);
    await toasts(finance).getByText('Adjustment Applied', { exact: true }).waitFor();
    await dialog.waitFor({ state: 'detached' });
    expect(await balanceOf(suite.server, user)).toBe('40.00');
  });

  it("a colleague's approval of an adjustment above the limit: one request, one credit", async () => {
    const user = await registeredAccount(suite.server, 'Meera', 'Das');
    expect((await api(staff, 'POST', '/api/admin/adjustments', { mobile: user.mobile, amount: '1500', direction: 'credit', reason: 'Refund' })).status).toBe(202);
    const finance = await openFinanceScreen(await signedIn(colleague));
    const waiting = finance.getByRole('region', { name: 'Adjustments awaiting approval' });
    await waiting.getByText(`Credit ₹1,500.00 to +91 ${user.mobile}`).waitFor();
    await waiting.getByRole('button', { name: 'Approve' }).click();
    const dialog = finance.getByRole('dialog', { name: 'Approve this adjustment?' });
    await doubleClickWhileSlow(finance, dialog, dialog.getByRole('button', { name: 'Approve ₹1,500.00' }), /^\/api\/admin\/adjustments\/[^/]+\/approve$/);
    await finance.getByText('Adjustment approved', { exact: true }).waitFor();
    await expect.poll(() => balanceOf(suite.server, user)).toBe('1500.00');
  });

  it('marking a withdrawal paid, and rejecting one: one request each', async () => {
    const user = await registeredAccount(suite.server, 'Kiran', 'Joshi');
    await credit(user, '500');
    const paid = await pendingWithdrawal(user, '150.00', 'kiran.joshi@okaxis');
    const rejected = await pendingWithdrawal(user, '200.00', 'kiran.joshi@okaxis');
    const finance = await openFinanceScreen(await signedIn(staff));
    const card = (amount: string) => finance.getByTestId('pending-withdrawal').filter({ hasText: user.mobile }).filter({ hasText: amount });

    await card('₹150.00').getByRole('button', { name: 'Mark Paid' }).click();
    const pay = finance.getByRole('dialog', { name: 'Mark as Paid' });
    await pay.getByLabel('Transfer reference').fill('UTR2026112500001');
    await doubleClickWhileSlow(finance, pay, pay.getByRole('button', { name: 'Confirm Paid' }), /\/paid$/);
    await toasts(finance).getByText('Withdrawal Paid', { exact: true }).waitFor();
    await pay.waitFor({ state: 'detached' });

    await card('₹200.00').getByRole('button', { name: 'Reject' }).click();
    const reject = finance.getByRole('dialog', { name: 'Reject Withdrawal' });
    await reject.getByLabel('Reason').fill('The UPI ID does not match the name');
    await finance.unrouteAll();
    await doubleClickWhileSlow(finance, reject, reject.getByRole('button', { name: 'Reject Request' }), /\/reject$/);
    await reject.waitFor({ state: 'detached' });

    const statuses = Object.fromEntries((await withdrawals(user)).map((w) => [w.id, w.status]));
    expect(statuses).toEqual({ [paid]: 'paid', [rejected]: 'rejected' });
    // 500 − 150 paid; the rejected 200 came back once.
    expect(await balanceOf(suite.server, user)).toBe('350.00');
  });
});

describe('dialogs on a phone', () => {
  it('asks before a backdrop tap loses typed input, and Back closes the dialog, not the page', async () => {
    const user = await registeredAccount(suite.server, 'Sunil', 'Rao');
    await credit(user, '300');
    const page = await signedIn(user);
    await page.goto('/wallet');
    await page.getByRole('heading', { name: 'Wallet', exact: true }).waitFor();
    await page.getByRole('button', { name: 'Withdraw Money' }).click();
    const dialog = page.getByRole('dialog', { name: /^Withdraw to (Bank|UPI)$/ });
    await dialog.getByRole('radio', { name: 'UPI ID' }).check();
    await dialog.getByRole('textbox', { name: 'UPI ID' }).fill('sunil@okaxis');

    // The backdrop asks first; "no" keeps what was typed.
    const asked: string[] = [];
    page.once('dialog', (question) => {
      asked.push(question.message());
      void question.dismiss();
    });
    await page.mouse.click(4, page.viewportSize()!.height - 4);
    await expect.poll(() => asked).toEqual(['Close and lose what you typed?']);
    await expect(dialog.getByRole('textbox', { name: 'UPI ID' }).inputValue()).resolves.toBe('sunil@okaxis');

    // Back closes the dialog and stays on the wallet.
    await page.goBack();
    await dialog.waitFor({ state: 'detached' });
    expect(new URL(page.url()).pathname).toBe('/wallet');
    await page.getByRole('heading', { name: 'Wallet', exact: true }).waitFor();

    // Closed by its button, the dialog takes its history entry with it: Back then leaves the wallet.
    await page.getByRole('button', { name: 'Withdraw Money' }).click();
    await dialog.waitFor();
    await dialog.getByRole('button', { name: 'Cancel' }).click();
    await dialog.waitFor({ state: 'detached' });
    await page.goBack();
    await expect.poll(() => new URL(page.url()).pathname).toBe('/');
  });
});

describe('a deep link opened signed out', () => {
  it('returns to its page after sign-in; a redirect off the app is dropped', async () => {
    const user = await registeredAccount(suite.server, 'Nisha', 'Patel');
    const page = await suite.phone();
    await page.goto('/tasks/rating');
    // Waits for the page's own conditions (the sign-in answer can take seconds on a busy machine).
    await page.waitForURL((url) => url.pathname === '/login');
    expect(new URL(page.url()).searchParams.get('redirect')).toBe('/tasks/rating');
    await submitLogin(page, user);
    await page.waitForURL((url) => url.pathname === '/tasks/rating');
    await page.getByRole('heading', { level: 1 }).waitFor();

    const other = await suite.phone();
    await other.goto('/login?redirect=%2F%2Fevil.example%2Fphish');
    await submitLogin(other, user);
    await other.getByRole('heading', { name: 'Hello, Nisha' }).waitFor();
    expect(new URL(other.url()).origin).toBe(suite.server.baseUrl);
    expect(path(other)).toBe('/');
  });
});
