import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import type { Page } from 'playwright-core';
import type { TestAccount } from './harness.ts';
import { expectAccessible, openFinanceScreen, registeredAccount, sessionCookie, setUpBrowserSuite, staffAccount } from './helpers.ts';

const suite = setUpBrowserSuite();

/** A call to the API as `cookie`'s user, outside the browser. */
async function api(cookie: string, method: string, path: string, body?: unknown) {
  const res = await fetch(`${suite.server.baseUrl}${path}`, {
    method,
    headers: { cookie, origin: suite.server.baseUrl, ...(body === undefined ? {} : { 'content-type': 'application/json' }) },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  const text = await res.text();
  if (!res.ok) throw new Error(`${method} ${path} answered ${res.status}: ${text}`);
  return JSON.parse(text) as { id: string };
}


/** Rows of a CSV the server wrote (quoted cells, CRLF). */
function parseCsv(text: string): Record<string, string>[] {
  const [header = '', ...lines] = text.replace(/^\uFEFF/, '').trim().split('\r\n');
  const split = (line: string) => line.split(/,(?=(?:[^"]*"[^"]*")*[^"]*$)/).map((c) => c.replace(/^"|"$/g, '').replaceAll('""', '"'));
  const names = split(header);
  return lines.map((line) => Object.fromEntries(split(line).map((cell, i) => [names[i] ?? String(i), cell])));
}

const paise = (rupees: string) => Math.round(Number(rupees.replace(/[₹,\s]/g, '')) * 100);

describe('the finance screen’s four tabs', () => {
  it('shows the queue, the history with UTR and staff, a user’s ledger whose CSV sums to the balance shown, and the reconciliation', async () => {
    const staff = await staffAccount(suite.server, 'Farah', 'Khan', 'finance');
    // Whoever adjusted a wallet does not settle its withdrawals: a second member funds it.
    const funder = await staffAccount(suite.server, 'Neha', 'Joshi', 'finance');
    const user = await registeredAccount(suite.server, 'Asha', 'Rao');
    const staffCookie = await sessionCookie(suite.server, staff);
    const funderCookie = await sessionCookie(suite.server, funder);
    const userCookie = await sessionCookie(suite.server, user);
    await api(funderCookie, 'POST', '/api/admin/adjustments', { mobile: user.mobile, amount: 900, direction: 'credit', reason: 'Missed reward' });
    const paid = await api(userCookie, 'POST', '/api/withdrawals', { amount: 300, upiId: 'asha.rao@okhdfc' });
    const rejected = await api(userCookie, 'POST', '/api/withdrawals', { amount: 150, upiId: 'asha.rao@okhdfc' });
    await api(userCookie, 'POST', '/api/withdrawals', { amount: 100, upiId: 'asha.rao@okhdfc' });
    await api(staffCookie, 'POST', `/api/admin/withdrawals/${paid.id}/paid`, { reference: 'UTR88880001' });
    await api(staffCookie, 'POST', `/api/admin/withdrawals/${rejected.id}/reject`, { reason: 'UPI ID closed' });

    const page = await openFinanceScreen(await suite.signedIn(staff));
    const tab = (name: string) => page.getByRole('tab', { name });

    // Queue: today's pending requests, as before.
    expect(await tab('Queue').getAttribute('aria-selected')).toBe('true');
    await page.getByRole('heading', { name: 'Pending withdrawals' }).waitFor();
    await page.getByTestId('pending-withdrawal').first().waitFor();
    await expectAccessible(page, 'finance queue');

    // History: paid and rejected, with UTR, staff and reason; CSV.
    await tab('History').click();
    const history = page.getByRole('tabpanel');
    await history.getByRole('cell', { name: 'UTR88880001' }).waitFor();
    await history.getByRole('cell', { name: 'UPI ID closed' }).waitFor();
    expect(await history.getByRole('cell', { name: 'Farah Khan' }).count()).toBeGreaterThanOrEqual(2);
    const [historyCsv] = await Promise.all([page.waitForEvent('download'), history.getByRole('link', { name: 'Download CSV' }).click()]);
    const historyRows = parseCsv(readFileSync((await historyCsv.path()) ?? '', 'utf8'));
    expect(historyRows.find((r) => r['utr'] === 'UTR88880001')).toMatchObject({ status: 'paid', amount: '300.00', processed_by: 'Farah Khan' });
    await expectAccessible(page, 'finance history');

    // The tab and the filters are in the address: a reload, Back and a shared link keep them.
    await history.getByLabel('Status').selectOption('rejected');
    await expect.poll(() => new URL(page.url()).search).toBe('?tab=history&status=rejected');
    await page.reload();
    await history.getByRole('cell', { name: 'UPI ID closed' }).waitFor();
    expect(await tab('History').getAttribute('aria-selected')).toBe('true');
    expect(await history.getByLabel('Status').inputValue()).toBe('rejected');
    expect(await history.getByRole('cell', { name: 'UTR88880001' }).count()).toBe(0);
    await page.goto('/wallet');
    await page.goBack();
    await history.getByRole('cell', { name: 'UPI ID closed' }).waitFor();
    expect(await history.getByLabel('Status').inputValue()).toBe('rejected');
    const shared = await suite.signedIn(staff);
    await shared.goto('/admin/finance?tab=history&status=paid');
    await shared.getByRole('tabpanel').getByRole('cell', { name: 'UTR88880001' }).waitFor();
    expect(await shared.getByRole('tab', { name: 'History' }).getAttribute('aria-selected')).toBe('true');
    expect(await shared.getByRole('tabpanel').getByRole('cell', { name: 'UPI ID closed' }).count()).toBe(0);
    // Back to the default: it leaves the address.
    await history.getByLabel('Status').selectOption('settled');
    await expect.poll(() => new URL(page.url()).search).toBe('?tab=history');

    // User ledger: statement with running balance, chart, CSV whose rows sum to the balance shown.
    await tab('User ledger').click();
    await page.getByLabel("User's mobile number").fill(user.mobile);
    await page.getByRole('button', { name: 'Show ledger' }).click();
    await page.getByTestId('ledger-closing').waitFor();
    expect(await page.getByTestId('ledger-closing').textContent()).toBe('₹500.00');
    expect(await page.getByTestId('ledger-pending').textContent()).toBe('₹100.00');
    await page.getByTestId('balance-chart').locator('svg').first().waitFor();
    await page.getByRole('cell', { name: 'Withdrawal paid, transfer reference UTR88880001' }).waitFor();
    const [statementCsv] = await Promise.all([page.waitForEvent('download'), page.getByRole('tabpanel').getByRole('link', { name: 'Download CSV' }).click()]);
    // The file carries its opening and closing balance as its first and last rows, the entries between.
    const rows = parseCsv(readFileSync((await statementCsv.path()) ?? '', 'utf8'));
    expect(rows.map((r) => r['kind'])).toEqual(expect.arrayContaining(['opening_balance', 'closing_balance']));
    expect(rows[0]?.['kind']).toBe('opening_balance');
    expect(rows.at(-1)?.['kind']).toBe('closing_balance');
    const entries = rows.slice(1, -1);
    expect(entries.length).toBe(6);
    const shownOpening = paise((await page.getByTestId('ledger-opening').textContent()) ?? '');
    const shownClosing = paise((await page.getByTestId('ledger-closing').textContent()) ?? '');
    expect(paise(rows[0]?.['balance'] ?? 'NaN')).toBe(shownOpening);
    expect(entries.reduce((sum, r) => sum + paise(r['amount'] ?? 'NaN'), 0)).toBe(shownClosing - shownOpening);
    expect(entries.at(-1)?.['balance']).toBe('500.00');
    expect(rows.at(-1)?.['balance']).toBe('500.00');
    await expectAccessible(page, 'finance user ledger');

    // As of a day before anything happened: nothing yet.
    await page.getByLabel('As of (date)').fill('2020-01-01');
    await page.getByRole('button', { name: 'Show ledger' }).click();
    await page.getByText('No ledger entries').waitFor();
    expect(await page.getByTestId('ledger-closing').textContent()).toBe('₹0.00');

    // Reconciliation: the four totals agree, and the log verifies.
    await tab('Reconciliation').click();
    await page.getByTestId('recon-difference').waitFor();
    expect(await page.getByTestId('recon-difference').textContent()).toBe('₹0.00');
    const figure = async (id: string) => paise((await page.getByTestId(id).textContent()) ?? '');
    expect((await figure('recon-available')) + (await figure('recon-pending'))).toBe((await figure('recon-funded')) - (await figure('recon-paid')));
    await page.getByTestId('recon-verification').getByText(/^Verified: \d+ events, head [0-9a-f]{64}$/).waitFor();
    await expectAccessible(page, 'finance reconciliation');

    // The user's wallet shows what is available and, apart, what is waiting to be paid out.
    const phone = await suite.signedIn(user);
    await phone.goto('/wallet');
    await phone.getByTestId('wallet-balance').getByText('₹500.00').waitFor();
    expect(await phone.getByTestId('wallet-pending-payout').textContent()).toBe('Pending payout: ₹100.00');
  });
});
