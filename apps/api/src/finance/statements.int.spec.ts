import { join } from 'node:path';
import Database from 'better-sqlite3';
import type { BankStatementImportBody, FundingBody, PayoutBatchBody, StatementExceptionBody, TrialBalanceBody } from '@kamai/contracts';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type TestClient, type TestServer, startTestServer } from '../testing/server.ts';
import { BANK, UPI, adjust } from './testing.ts';

type Member = TestClient & { userId: string; mobile: string };
let server: TestServer;
let finance: Member;
let colleague: Member;
let funder: Member;

beforeAll(async () => {
  server = await startTestServer();
  finance = await server.signUp({ roles: ['finance'], firstName: 'Rohan', lastName: 'Gupta' });
  colleague = await server.signUp({ roles: ['finance'], firstName: 'Arjun', lastName: 'Mehta' });
  funder = await server.signUp({ roles: ['finance'], firstName: 'Neha', lastName: 'Joshi' });
  // The funder credits several users alone, and a funding above ₹5,000 is booked: the daily limit is lifted.
  await server.applySettings({ memberDailyAdjustmentLimit: '1000000.00' });
});
afterAll(async () => server?.close());

const csv = (rows: (string | number)[][]) => `${rows.map((r) => r.join(',')).join('\r\n')}\r\n`;
const importStatement = async (rows: (string | number)[][]) => {
  const res = await finance.request<BankStatementImportBody>('POST', '/api/admin/ledger/bank-statements', csv(rows), { 'content-type': 'text/csv' });
  expect(res.status, JSON.stringify(res.body)).toBe(201);
  return res.body;
};
const istToday = () => new Date(Date.now() + 330 * 60_000).toISOString().slice(0, 10);
const daysAgo = (n: number) => new Date(Date.now() + 330 * 60_000 - n * 86_400_000).toISOString().slice(0, 10);

/** Withdrawals of ₹(base + i), batched and paid with UTRs `<prefix>0..`; answers the batch and the payouts. */
async function paidBatch(count: number, base: number, prefix: string) {
  const made: { id: string; amount: string; utr: string }[] = [];
  for (let i = 0; i < count; i++) {
    const user = await server.signUp({ firstName: 'Asha', lastName: `${prefix}${i}` });
    await adjust(funder, user.mobile, 1000);
    const res = await user.post('/api/withdrawals', i % 2 === 0 ? { amount: base + i, bankAccount: BANK } : { amount: base + i, upiId: UPI });
    expect(res.status, JSON.stringify(res.body)).toBe(201);
    made.push({ id: res.body.id as string, amount: (base + i).toFixed(2), utr: `${prefix}${String(i).padStart(4, '0')}` });
  }
  const batch = await finance.post<PayoutBatchBody>('/api/admin/payout-batches', { withdrawalIds: made.map((w) => w.id) });
  expect(batch.status, JSON.stringify(batch.body)).toBe(201);
  const results = csv([['reference', 'amount', 'status', 'utr'], ...made.map((w) => [w.id, w.amount, 'SUCCESS', w.utr])]);
  const imported = await finance.request('POST', `/api/admin/payout-batches/${batch.body.id}/results`, results, { 'content-type': 'text/csv' });
  expect(imported.body).toEqual({ applied: count, skipped: 0, refused: [] });
  return { batch: batch.body, made };
}

describe('bank statements matched many ways, and the exceptions queue', () => {
  it('matches a funding credit, a one-line batch debit and its bank fee with zero exceptions', async () => {
    const funded = await finance.post<FundingBody>('/api/admin/ledger/funding', { amount: '10000.00', reference: 'NEFT-CO-7001', date: istToday() });
    expect(funded.status, JSON.stringify(funded.body)).toBe(202);
    expect((await colleague.post(`/api/admin/ledger/funding/${funded.body.id}/approve`)).status).toBe(200);
    const { batch } = await paidBatch(3, 500, 'UTRB');
    expect(batch.total).toBe('1503.00');
    const today = istToday();
    // The bank's closing balance is after its fee: 10,000 − 1,503 − 17.70.
    const statement = [
      ['Date', 'Narration', 'Debit', 'Credit', 'UTR', 'Balance'],
      [today, 'NEFT CR COMPANY NEFT-CO-7001', '', '"10,000.00"', 'SBIN0000123456', ''],
      [today, `BULK UPLOAD KAMAI ${batch.id.slice(0, 8)}`, '"1,503.00"', '', '', ''],
      [today, 'BULK PAYMENT CHARGES INCL GST', '17.70', '', '', '"8,479.30"'],
    ];
    const run = await importStatement(statement);
    const agreed = {
      tolerance: '0.00',
      matched: { payouts: 0, batches: 1, fees: 1, fundings: 1, returnedPayouts: 0 },
      fees: '17.70',
      closingBalance: '8479.30',
      ledgerBalance: '8479.30',
      exceptions: [],
    };
    expect(run.matching).toMatchObject(agreed);
    expect(run.missingFromStatement).toEqual([]);
    expect(run.unmatchedDebits).toEqual([]);
    expect(run.difference).toBe('0.00');
    // The fee is booked: a bank charges account in the trial balance, and the books still agree.
    const bankCharges = async () => (await finance.get<TrialBalanceBody>('/api/admin/ledger/trial-balance')).body.accounts.find((a) => a.account === 'expense:bank_charges');
    expect(await bankCharges()).toMatchObject({ debit: '17.70', credit: '0.00' });
    expect((await finance.get('/api/admin/ledger/reconciliation')).body).toMatchObject({ difference: '0.00', bankBalance: '8479.30' });
    // The same statement again books its fee once: the ledger still agrees with the bank.
    expect((await importStatement(statement)).matching).toMatchObject(agreed);
    expect(await bankCharges()).toMatchObject({ debit: '17.70', credit: '0.00' });
  });

  it('applies the date window to each line, matches within the tolerance, matches returned payouts, and compares the closing balance', async () => {
    const { made } = await paidBatch(2, 600, 'UTRT');
    const [a, b] = made as [(typeof made)[0], (typeof made)[0]];
    const reversed = await colleague.post(`/api/admin/withdrawals/${b.id}/reverse`, { reason: 'Beneficiary account frozen' });
    expect(reversed.status, JSON.stringify(reversed.body)).toBe(200);
    const today = istToday();
    // a's line is 50 paise short: without a tolerance it matches nothing. b's line is dated 20 days
    // back, outside its own window, although the statement's last day is today.
    const statement = [
      ['date', 'narration', 'debit', 'credit', 'utr', 'balance'],
      [daysAgo(20), 'IMPS', b.amount, '', b.utr, ''],
      [today, 'IMPS', '599.50', '', a.utr, ''],
      [today, 'IMPS RETURN', '', b.amount, b.utr, '1.00'],
    ];
    const strict = await importStatement(statement);
    const ofRun = (run: BankStatementImportBody) => run.matching.exceptions.filter((e) => e.reference === a.utr || e.reference === b.utr || e.kind === 'balance_mismatch');
    expect(ofRun(strict).map((e) => [e.kind, e.line, e.amount, e.reference, e.ageDays])).toEqual([
      ['unmatched_debit', 2, b.amount, b.utr, 20],
      ['unmatched_debit', 3, '599.50', a.utr, 0],
      ['balance_mismatch', 4, expect.any(String), null, 0],
      ['missing_payout', null, a.amount, a.utr, 0],
      ['missing_payout', null, b.amount, b.utr, 0],
    ]);
    expect(strict.matching.matched.returnedPayouts).toBe(1);

    await server.applySettings({ statementMatchTolerance: '1.00' });
    const lenient = await importStatement(statement);
    expect(lenient.matching.tolerance).toBe('1.00');
    expect(lenient.matching.matched).toMatchObject({ payouts: 1, returnedPayouts: 1 });
    expect(lenient.unmatchedDebits.map((d) => d.utr)).toEqual([b.utr]);
    // What the first import opened is not opened again: b's line, b's payout and the balance wait once.
    expect(lenient.matching.exceptions).toEqual([]);
    // The ledger's bank cash is shown beside the statement's closing balance; equal, no exception.
    const ledgerBalance = lenient.matching.ledgerBalance;
    expect(lenient.matching.closingBalance).toBe('1.00');
    const agreed = await importStatement([
      ['date', 'narration', 'debit', 'credit', 'utr', 'balance'],
      [today, 'IMPS', a.amount, '', a.utr, ledgerBalance],
    ]);
    expect(agreed.matching.exceptions.some((e) => e.kind === 'balance_mismatch')).toBe(false);
  });

  it('resolves exceptions: matched by hand with a note, or written off by a second finance member', async () => {
    const today = istToday();
    const run = await importStatement([
      ['date', 'narration', 'debit', 'credit', 'utr'],
      [daysAgo(3), 'NEFT to unknown', '777.00', '', 'UNKNOWN0001'],
      [today, 'Interest credit', '', '12.00', 'INT0001'],
    ]);
    const debit = run.matching.exceptions.find((e) => e.reference === 'UNKNOWN0001')!;
    const credit = run.matching.exceptions.find((e) => e.reference === 'INT0001')!;
    expect(debit).toMatchObject({ kind: 'unmatched_debit', ageDays: 3, status: 'open', amount: '777.00' });
    expect(credit).toMatchObject({ kind: 'unmatched_credit', ageDays: 0, status: 'open' });
    const again = await importStatement([
      ['date', 'narration', 'debit', 'credit', 'utr'],
      [daysAgo(3), 'NEFT to unknown', '777.00', '', 'UNKNOWN0001'],
      [today, 'Interest credit', '', '12.00', 'INT0001'],
    ]);
    expect(again.matching.exceptions).toEqual([]);
    const open = (await finance.get<StatementExceptionBody[]>('/api/admin/ledger/statement-exceptions')).body;
    expect(open.map((e) => e.id)).toEqual(expect.arrayContaining([debit.id, credit.id]));

    // By hand, with a note.
    expect((await finance.post(`/api/admin/ledger/statement-exceptions/${credit.id}/match`, { note: '' })).status).toBe(400);
    const matched = await finance.post<StatementExceptionBody>(`/api/admin/ledger/statement-exceptions/${credit.id}/match`, { note: 'Bank interest, booked by the accountant' });
    expect(matched.status, JSON.stringify(matched.body)).toBe(200);
    expect(matched.body).toMatchObject({ status: 'matched', note: 'Bank interest, booked by the accountant', resolvedBy: finance.userId });
    expect((await colleague.post(`/api/admin/ledger/statement-exceptions/${credit.id}/match`, { note: 'Again' })).status).toBe(409);

    // Written off: asked by one, approved by another.
    const asked = await finance.post<StatementExceptionBody>(`/api/admin/ledger/statement-exceptions/${debit.id}/write-off`, { note: 'Bank error, refund asked' });
    expect(asked.status).toBe(202);
    expect(asked.body).toMatchObject({ status: 'write_off_pending', requestedBy: finance.userId, resolvedBy: null });
    const own = await finance.post(`/api/admin/ledger/statement-exceptions/${debit.id}/write-off/approve`);
    expect(own.status).toBe(403);
    const approved = await colleague.post<StatementExceptionBody>(`/api/admin/ledger/statement-exceptions/${debit.id}/write-off/approve`);
    expect(approved.status).toBe(200);
    expect(approved.body).toMatchObject({ status: 'written_off', requestedBy: finance.userId, resolvedBy: colleague.userId });
    expect((await colleague.post(`/api/admin/ledger/statement-exceptions/${debit.id}/write-off/approve`)).status).toBe(409);
    expect((await finance.post(`/api/admin/ledger/statement-exceptions/${crypto.randomUUID()}/match`, { note: 'x' })).status).toBe(404);

    const stillOpen = (await finance.get<StatementExceptionBody[]>('/api/admin/ledger/statement-exceptions')).body.map((e) => e.id);
    expect(stillOpen).not.toContain(debit.id);
    expect(stillOpen).not.toContain(credit.id);
    const resolved = (await finance.get<StatementExceptionBody[]>('/api/admin/ledger/statement-exceptions?status=resolved')).body;
    expect(resolved.map((e) => e.id)).toEqual(expect.arrayContaining([debit.id, credit.id]));
    // Each step is in the audit list, the exception as the reference.
    const admin = await server.signUp({ roles: ['admin'] });
    const audit = (await admin.get<{ action: string; reference: string; actor: { id: string } }[]>('/api/admin/audit')).body;
    expect(audit.filter((e) => e.reference === debit.id || e.reference === credit.id).map((e) => [e.action, e.actor.id])).toEqual([
      ['statement_written_off', colleague.userId],
      ['statement_write_off_requested', finance.userId],
      ['statement_exception_matched', finance.userId],
    ]);
    // The note is not in the log in plain text: it is sealed under its writer's key.
    const db = new Database(join(server.dataDir, 'events.sqlite'), { readonly: true });
    const stored = db.prepare('SELECT data FROM events WHERE stream_id = ?').all(`statement-exception-${credit.id}`);
    db.close();
    expect(stored).toHaveLength(1);
    expect(JSON.stringify(stored)).not.toContain('Bank interest');
  });

  it('books an approved write-off against the bank: on its day, or in the open month when its month is closed; a missing payout books nothing', async () => {
    const old = daysAgo(40);
    const run = await importStatement([
      ['date', 'narration', 'debit', 'credit', 'utr'],
      [old, 'NEFT to unknown', '55.00', '', 'CLOSEDM0001'],
      [istToday(), 'Interest credit', '', '9.00', 'INTIN0001'],
    ]);
    const debit = run.matching.exceptions.find((e) => e.reference === 'CLOSEDM0001')!;
    const credit = run.matching.exceptions.find((e) => e.reference === 'INTIN0001')!;
    const month = old.slice(0, 7);
    expect((await finance.post(`/api/admin/ledger/periods/${month}/close`)).status).toBe(202);
    expect((await colleague.post(`/api/admin/ledger/periods/${month}/close/approve`)).status).toBe(200);
    const writeOff = async (id: string) => {
      expect((await finance.post(`/api/admin/ledger/statement-exceptions/${id}/write-off`, { note: 'Written off' })).status).toBe(202);
      const approved = await colleague.post<StatementExceptionBody>(`/api/admin/ledger/statement-exceptions/${id}/write-off/approve`);
      expect(approved.status, JSON.stringify(approved.body)).toBe(200);
    };
    await writeOff(debit.id);
    await writeOff(credit.id);
    const missing = (await finance.get<StatementExceptionBody[]>('/api/admin/ledger/statement-exceptions')).body.find((e) => e.kind === 'missing_payout')!;
    await writeOff(missing.id);

    const db = new Database(join(server.dataDir, 'events.sqlite'), { readonly: true });
    const booked = (id: string) =>
      db.prepare("SELECT data FROM events WHERE stream_id = ? AND type = 'StatementDifferenceBooked'").all(`statement-exception-${id}`).map((r) => JSON.parse((r as { data: string }).data));
    // Its month is closed: booked today, in the open month, saying what it corrects.
    expect(booked(debit.id)).toEqual([expect.objectContaining({ direction: 'out', amountPaise: 5500, effectiveDate: istToday(), corrects: debit.id })]);
    expect(booked(credit.id)).toEqual([expect.objectContaining({ direction: 'in', amountPaise: 900, effectiveDate: istToday(), corrects: null })]);
    expect(booked(missing.id)).toEqual([]);
    db.close();
    // With the earlier test's ₹777 debit: the differences account, and the books still agree.
    const trial = (await finance.get<TrialBalanceBody>('/api/admin/ledger/trial-balance')).body;
    expect(trial.accounts.find((a) => a.account === 'expense:reconciliation_differences')).toMatchObject({ debit: '832.00', credit: '9.00' });
    expect((await finance.get('/api/admin/ledger/reconciliation')).body).toMatchObject({ difference: '0.00' });
  });
});
