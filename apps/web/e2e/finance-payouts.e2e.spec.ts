import { readFileSync } from 'node:fs';
import { afterEach, beforeAll, describe, expect, it } from 'vitest';
import type { Locator, Page } from 'playwright-core';
import { istDayOf } from '@kamai/contracts';
import type { TestAccount } from './harness.ts';
import { applySettings, balanceOf, doubleClickWhileSlow, expectAccessible, openFinanceScreen, registeredAccount, setUpBrowserSuite, staffAccount } from './helpers.ts';

/**
 * The finance screen's payouts at volume: a batch made from filters, approved by a second finance
 * member, its bank file downloaded and the bank's results imported with the outcome of each row; the
 * late-payouts filter; a bank statement reconciled; the History CSV following the screen's filters.
 * Every money action is double-clicked under a slowed network and has one effect.
 */

const suite = setUpBrowserSuite();
const { api } = suite;

let staff: TestAccount;
let colleague: TestAccount;
/** Credits the users: whoever credited a user sends none of their withdrawals. */
let funder: TestAccount;

beforeAll(async () => {
  staff = await staffAccount(suite.server, 'Farah', 'Khan', 'finance');
  colleague = await staffAccount(suite.server, 'Dev', 'Malik', 'finance');
  funder = await staffAccount(suite.server, 'Kiran', 'Bose', 'finance');
  const admin = await staffAccount(suite.server, 'Anil', 'Mehta', 'admin');
  const admin2 = await staffAccount(suite.server, 'Sunil', 'Mehta', 'admin');
  // A low approval threshold, so a small batch needs the second finance member (two admins set it).
  await applySettings(suite.server, admin, admin2, { payoutBatchApprovalThreshold: '100.00' });
});

// A failed test shows what the server said meanwhile.
afterEach(({ task }) => {
  if (task.result?.state === 'fail') console.error(suite.server.output().slice(-6000));
});

async function json<T>(response: Promise<Response>): Promise<T> {
  const answer = await response;
  const text = await answer.text();
  if (!answer.ok) throw new Error(`answered ${answer.status}: ${text}`);
  return JSON.parse(text) as T;
}

async function credit(user: TestAccount, amount: string): Promise<void> {
  expect((await api(funder, 'POST', '/api/admin/adjustments', { mobile: user.mobile, amount, direction: 'credit', reason: 'Test funding' })).status).toBe(201);
}

async function withdraw(user: TestAccount, body: Record<string, unknown>): Promise<string> {
  return (await json<{ id: string }>(api(user, 'POST', '/api/withdrawals', body))).id;
}

const statusesOf = async (user: TestAccount) =>
  Object.fromEntries((await json<{ id: string; status: string }[]>(api(user, 'GET', '/api/withdrawals'))).map((w) => [w.id, w.status]));

/** A double click under a slow network (see the helper), then the dialog closes on the answer. */
async function sendOnce(page: Page, dialog: Locator, button: Locator, pattern: RegExp): Promise<string[]> {
  const keys = await doubleClickWhileSlow(page, dialog, button, pattern);
  await dialog.waitFor({ state: 'detached' });
  await page.unrouteAll({ behavior: 'wait' });
  return keys;
}

/** Rows of a CSV the server wrote (quoted cells, CRLF). */
function parseCsv(text: string): Record<string, string>[] {
  const [header = '', ...lines] = text.replace(/^\uFEFF/, '').trim().split('\r\n');
  const split = (line: string) => line.split(/,(?=(?:[^"]*"[^"]*")*[^"]*$)/).map((c) => c.replace(/^"|"$/g, '').replaceAll('""', '"'));
  const names = split(header);
  return lines.map((line) => Object.fromEntries(split(line).map((cell, i) => [names[i] ?? String(i), cell])));
}

async function download(page: Page, link: Locator): Promise<string> {
  const [file] = await Promise.all([page.waitForEvent('download'), link.click()]);
  return readFileSync((await file.path()) ?? '', 'utf8');
}

const csvFile = (name: string, rows: string[]) => ({ name, mimeType: 'text/csv', buffer: Buffer.from(`${rows.join('\r\n')}\r\n`) });

/** The signed-in screens have their language switch on Profile: the same choice, stored, then the page again. */
async function toHindi(page: Page): Promise<void> {
  await page.evaluate(() => localStorage.setItem('kamai.language', 'hi'));
  await page.reload();
}

describe('payout batches on the finance screen', () => {
  it('a batch from filters, approved by a second finance member, its bank file, and the results with each row’s outcome', async () => {
    const asha = await registeredAccount(suite.server, 'Asha', 'Rao');
    const ravi = await registeredAccount(suite.server, 'Ravi', 'Verma');
    await credit(asha, '500');
    await credit(ravi, '500');
    const upi = await withdraw(asha, { amount: '150.00', upiId: 'asha.rao@okaxis' });
    const bank = await withdraw(ravi, { amount: '200.00', bankAccount: { accountNumber: '00123456789', ifsc: 'HDFC0001234', holderName: 'Ravi Verma' } });
    // Above the "up to" filter: stays pending.
    const big = await withdraw(ravi, { amount: '250.00', upiId: 'ravi.verma@okhdfc' });

    // Finance makes a batch of the pending withdrawals up to ₹200.
    const finance = await openFinanceScreen(await suite.signedIn(staff));
    await finance.getByRole('tab', { name: 'Batches' }).click();
    await finance.getByRole('heading', { name: 'New payout batch' }).waitFor();
    await finance.getByText('No batches yet').waitFor();
    await finance.getByLabel('Each up to (₹)').fill('200');
    await finance.getByTestId('batch-selection').getByText('Matching: 2 withdrawals, ₹350.00 in total.').waitFor();
    await expectAccessible(finance, 'finance batches');
    await finance.getByRole('button', { name: 'Create batch' }).click();
    const create = finance.getByRole('dialog', { name: 'Create this payout batch?' });
    await create.getByText('2 withdrawals, ₹350.00 in total, go into one batch.').waitFor();
    await create.getByText(/a second finance member must approve/).waitFor();
    await expectAccessible(finance, 'the batch confirmation');
    const createKeys = await sendOnce(finance, create, create.getByRole('button', { name: 'Create batch: 2, ₹350.00' }), /^\/api\/admin\/payout-batches$/);
    expect(createKeys).toHaveLength(1);
    const batchCard = finance.getByTestId('payout-batch');
    await batchCard.getByText('Awaiting approval').waitFor();
    await batchCard.getByText("Waiting for another finance member's approval.").waitFor();
    expect(await batchCard.getByRole('button', { name: 'Approve batch' }).count()).toBe(0);
    const batches = await json<{ id: string; status: string; count: number; total: string }[]>(api(staff, 'GET', '/api/admin/payout-batches'));
    expect(batches).toHaveLength(1);
    expect(batches[0]).toMatchObject({ status: 'awaiting_approval', count: 2, total: '350.00' });
    expect(await statusesOf(ravi)).toEqual({ [bank]: 'processing', [big]: 'pending' });

    // The user sees it sent to the bank.
    const ashaPhone = await suite.signedIn(asha);
    await ashaPhone.goto('/wallet');
    await ashaPhone.getByTestId('withdrawal-status').getByText('Sent to bank').waitFor();

    // The late-payouts filter: just sent, so none is late yet; unfiltered, both are with the bank.
    await finance.getByTestId('sent-withdrawal').nth(1).waitFor();
    expect(await finance.getByTestId('sent-withdrawal').count()).toBe(2);
    await finance.getByLabel('Only late: with the bank longer than 2 days').check();
    await finance.getByText('No late payouts').waitFor();

    // A second finance member approves it, once.
    const second = await openFinanceScreen(await suite.signedIn(colleague));
    await second.getByRole('tab', { name: 'Batches' }).click();
    await second.getByTestId('payout-batch').getByRole('button', { name: 'Approve batch' }).click();
    const approve = second.getByRole('dialog', { name: 'Approve this payout batch?' });
    await approve.getByText('2 withdrawals, ₹350.00 in total, will be paid from its bank file.').waitFor();
    const approveKeys = await sendOnce(second, approve, approve.getByRole('button', { name: 'Approve: 2, ₹350.00' }), /\/approve$/);
    expect(approveKeys).toHaveLength(1);
    const card = second.getByTestId('payout-batch');
    await card.getByText('Ready', { exact: true }).waitFor();

    // The bank file: one row per withdrawal, summing to the batch's total.
    const file = parseCsv(await download(second, card.getByRole('link', { name: 'Download bank file' })));
    expect(file.map((r) => r['reference']).sort()).toEqual([upi, bank].sort());
    expect(file.reduce((sum, r) => sum + Math.round(Number(r['amount']) * 100), 0)).toBe(35_000);
    expect(file.find((r) => r['reference'] === bank)).toMatchObject({ mode: 'IMPS', ifsc: 'HDFC0001234', account_number: '00123456789', beneficiary_name: 'Ravi Verma' });
    expect(file.find((r) => r['reference'] === upi)).toMatchObject({ mode: 'UPI', upi_id: 'asha.rao@okaxis' });

    // The results: one paid, one failed, one unknown reference refused; imported once.
    const results = csvFile('results.csv', [
      'reference,amount,status,utr,failure_reason',
      `${upi},150.00,SUCCESS,UTRBATCH000001,`,
      `${bank},200.00,FAILED,,Account closed`,
      '00000000-0000-4000-8000-000000000000,10.00,SUCCESS,UTRBATCH000009,',
    ]);
    await card.getByLabel('Import results file (CSV)').setInputFiles(results);
    const importing = second.getByRole('dialog', { name: 'Import these results?' });
    await importing.getByText(/^3 rows, ₹360\.00 in total: 2 paid, 1 failed, 0 returned\./).waitFor();
    await expectAccessible(second, 'the results confirmation');
    const importKeys = await sendOnce(second, importing, importing.getByRole('button', { name: 'Import 3 rows, ₹360.00' }), /\/results$/);
    expect(importKeys).toHaveLength(1);
    const outcome = card.getByTestId('results-outcome');
    await outcome.getByText('Applied 2 · Already done 0 · Refused 1').waitFor();
    await outcome.getByText('Line 4 (00000000…): No withdrawal of this batch has this reference').waitFor();
    await card.getByText('Completed').waitFor();
    expect(await statusesOf(asha)).toEqual({ [upi]: 'paid' });
    expect(await statusesOf(ravi)).toEqual({ [bank]: 'failed', [big]: 'pending' });
    // Ravi's failed ₹200 is back: 500 − 200 − 250 + 200.
    expect(await balanceOf(suite.server, ravi)).toBe('250.00');
    expect(await balanceOf(suite.server, asha)).toBe('350.00');

    // The same file again changes nothing, and says so.
    await card.getByLabel('Import results file (CSV)').setInputFiles(results);
    await importing.getByRole('button', { name: 'Import 3 rows, ₹360.00' }).click();
    await importing.waitFor({ state: 'detached' });
    await outcome.getByText('Applied 0 · Already done 2 · Refused 1').waitFor();
    expect(await balanceOf(suite.server, ravi)).toBe('250.00');
    await expectAccessible(second, 'finance batches with an outcome');

    // The History CSV follows the screen's filter: failed ones only.
    await second.getByRole('tab', { name: 'History' }).click();
    await second.getByLabel('Status').selectOption('failed');
    await second.getByRole('cell', { name: 'Account closed' }).waitFor();
    const history = parseCsv(await download(second, second.getByRole('tabpanel').getByRole('link', { name: 'Download CSV' })));
    expect(history.length).toBeGreaterThan(0);
    expect(new Set(history.map((r) => r['status']))).toEqual(new Set(['failed']));
    expect(history.map((r) => r['id'])).toContain(bank);

    // In Hindi: the tab passes axe, and Ravi sees his failed withdrawal.
    await toHindi(second);
    await second.getByRole('tab', { name: 'बैच' }).click();
    await second.getByTestId('payout-batch').getByText('पूरा').waitFor();
    await expectAccessible(second, 'finance batches in Hindi');
    const raviPhone = await suite.signedIn(ravi);
    await raviPhone.goto('/wallet');
    await toHindi(raviPhone);
    await raviPhone.getByTestId('withdrawal-status').getByText('विफल').waitFor();
    // Four people's screens and a dozen server round trips: longer than one screen's test on a busy machine.
  }, 360_000);
});

describe('bank statement reconciliation on the finance screen', () => {
  it('a statement missing one paid payout and holding one unknown debit shows exactly those two, and the run is kept', async () => {
    const meera = await registeredAccount(suite.server, 'Meera', 'Das');
    await credit(meera, '900');
    const shown = await withdraw(meera, { amount: '300.00', upiId: 'meera.das@okaxis' });
    const missing = await withdraw(meera, { amount: '120.00', upiId: 'meera.das@okaxis' });
    await json(api(staff, 'POST', `/api/admin/withdrawals/${shown}/paid`, { reference: 'UTRSTMT000001' }));
    await json(api(staff, 'POST', `/api/admin/withdrawals/${missing}/paid`, { reference: 'UTRSTMT000002' }));
    // Every payout paid so far is on the statement, except the ₹120 one; plus a debit no payout explains.
    const paid = await json<{ id: string; amount: string; reference: string | null; status: string }[]>(api(staff, 'GET', '/api/admin/withdrawals?status=paid&limit=1000'));
    const today = istDayOf(new Date());
    const lines = paid.filter((w) => w.id !== missing).map((w) => `${today},NEFT ${w.reference},${w.amount},,${w.reference}`);
    const statement = csvFile('statement.csv', ['date,narration,debit,credit,utr', `${today},Funding,,5000.00,`, ...lines, `${today},UNKNOWN PAYEE,75.00,,UTRNOBODY0001`]);
    const unknownLine = lines.length + 3;

    const finance = await openFinanceScreen(await suite.signedIn(staff));
    await finance.getByRole('tab', { name: 'Reconciliation' }).click();
    await finance.getByText('No statements imported yet').waitFor();
    await expectAccessible(finance, 'finance reconciliation with statements');
    await finance.getByLabel('Import bank statement (CSV)').setInputFiles(statement);
    const latest = finance.getByTestId('statement-latest');
    await latest.getByText('Differs').waitFor();
    const missingList = latest.getByTestId('statement-missing');
    await missingList.getByRole('heading', { name: 'Paid in the ledger, not on the statement (1)' }).waitFor();
    await missingList.getByText(/^₹120\.00 · UTR UTRSTMT000002 · /).waitFor();
    const unmatched = latest.getByTestId('statement-unmatched');
    await unmatched.getByRole('heading', { name: 'Debits on the statement matching no payout (1)' }).waitFor();
    await unmatched.getByText(new RegExp(`^Line ${unknownLine}: ₹75\\.00 on .* · UTR UTRNOBODY0001$`)).waitFor();
    await latest.getByText(/difference ₹195\.00/).waitFor();

    // The run is kept: listed among the past runs with its difference.
    const runs = finance.getByTestId('statement-run');
    await runs.first().waitFor();
    expect(await runs.count()).toBe(1);
    await runs.first().getByText(/difference ₹195\.00/).waitFor();
    const kept = await json<{ difference: string; missingFromStatement: { withdrawalId: string }[] }[]>(api(staff, 'GET', '/api/admin/ledger/bank-statements'));
    expect(kept).toHaveLength(1);
    expect(kept[0]?.missingFromStatement.map((p) => p.withdrawalId)).toEqual([missing]);
    await expectAccessible(finance, 'finance reconciliation after a statement');

    await toHindi(finance);
    await finance.getByRole('tab', { name: 'मिलान' }).click();
    await finance.getByTestId('statement-run').first().getByText('अंतर है').waitFor();
    await expectAccessible(finance, 'finance reconciliation in Hindi');
  }, 240_000);
});

describe('funding the payout account on the finance screen', () => {
  it('records a funding above the limit once, and a second finance member approves it once', async () => {
    const today = istDayOf(new Date());
    const finance = await openFinanceScreen(await suite.signedIn(staff));
    await finance.getByRole('tab', { name: 'Reconciliation' }).click();
    await finance.getByRole('heading', { name: 'Fund the payout account' }).waitFor();
    await finance.getByLabel('Amount (₹)').fill('2500');
    await finance.getByLabel('Bank reference').fill('NEFT-CO-0001');
    await finance.getByLabel('Day the money arrived').fill(today);
    await finance.getByRole('button', { name: 'Record funding' }).click();
    const record = finance.getByRole('dialog', { name: 'Record this funding?' });
    await record.getByText(/^₹2,500\.00 arrived on .*, bank reference NEFT-CO-0001\.$/).waitFor();
    await expectAccessible(finance, 'the funding confirmation');
    expect(await sendOnce(finance, record, record.getByRole('button', { name: 'Record ₹2,500.00' }), /^\/api\/admin\/ledger\/funding$/)).toHaveLength(1);
    await finance.getByText('Recorded by you: another finance member approves it.').waitFor();
    const pending = await json<{ id: string; status: string }[]>(api(staff, 'GET', '/api/admin/ledger/funding?status=pending'));
    expect(pending).toHaveLength(1);

    const second = await openFinanceScreen(await suite.signedIn(colleague));
    await second.getByRole('tab', { name: 'Reconciliation' }).click();
    await second.getByTestId('pending-funding').getByRole('button', { name: 'Approve' }).click();
    const approve = second.getByRole('dialog', { name: 'Approve this funding?' });
    expect(await sendOnce(second, approve, approve.getByRole('button', { name: 'Approve ₹2,500.00' }), /\/funding\/[^/]+\/approve$/)).toHaveLength(1);
    await second.getByTestId('pending-funding').waitFor({ state: 'detached' });
    const booked = await json<{ reference: string; status: string }[]>(api(staff, 'GET', '/api/admin/ledger/funding?status=all'));
    expect(booked.map((f) => [f.reference, f.status])).toEqual([['NEFT-CO-0001', 'booked']]);
    await expectAccessible(second, 'finance reconciliation with funding');
    await toHindi(second);
    await second.getByRole('tab', { name: 'मिलान' }).click();
    await second.getByRole('heading', { name: 'भुगतान खाते में पैसे जमा करें' }).waitFor();
    await expectAccessible(second, 'finance funding in Hindi');
  }, 240_000);
});
