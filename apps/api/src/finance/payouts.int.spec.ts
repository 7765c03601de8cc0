import { BANK_FILE_COLUMNS, type PayoutBatchBody, type ResultsImportBody, parseCsv, parseRupees } from '@kamai/contracts';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type StoreKind, startTestServerOn } from '../testing/postgres.ts';
import type { TestClient, TestServer } from '../testing/server.ts';
import { BANK, UPI, adjust, balanceOf } from './testing.ts';

type Member = TestClient & { userId: string; mobile: string };
let server: TestServer;
let finance: Member;
let colleague: Member;
let admin: Member;
/** Funds users: whoever adjusted a wallet does not settle its withdrawals. */
let funder: Member;

/** The file's server on `kind` and its staff, for the describe block it is called in. */
function onStore(kind: StoreKind) {
  beforeAll(async () => {
    server = await startTestServerOn(kind);
    finance = await server.signUp({ roles: ['finance'], firstName: 'Rohan', lastName: 'Gupta' });
    colleague = await server.signUp({ roles: ['finance'], firstName: 'Arjun', lastName: 'Mehta' });
    admin = await server.signUp({ roles: ['admin'] });
    funder = await server.signUp({ roles: ['finance'], firstName: 'Neha', lastName: 'Joshi' });
    // Batches above ₹5,000 need a second finance member (a control setting: two admins set it). The
    // funder credits dozens of users alone: their daily limit across users is lifted here.
    const set = await server.applySettings({ payoutBatchApprovalThreshold: '5000.00', memberDailyAdjustmentLimit: '1000000.00' });
    expect(set).toMatchObject({ payoutBatchApprovalThreshold: '5000.00', latePayoutDays: 2 });
  });
  afterAll(async () => server?.close());
}

const csv = (rows: (string | number)[][]) => `${rows.map((r) => r.join(',')).join('\r\n')}\r\n`;
const postCsv = (client: TestClient, path: string, body: string) => client.request('POST', path, body, { 'content-type': 'text/csv' });

/** `count` users, each credited ₹1,000 and asking to withdraw ₹(base + i), bank and UPI alternately. */
async function withdrawals(count: number, base = 500) {
  const made: { user: Member; id: string; amountPaise: number }[] = [];
  for (let i = 0; i < count; i++) {
    const user = await server.signUp({ firstName: 'Asha', lastName: `Rao${i}` });
    await adjust(funder, user.mobile, 1000);
    const amount = base + i;
    const res = await user.post('/api/withdrawals', i % 2 === 0 ? { amount, bankAccount: BANK } : { amount, upiId: UPI });
    expect(res.status, JSON.stringify(res.body)).toBe(201);
    made.push({ user, id: res.body.id as string, amountPaise: amount * 100 });
  }
  return made;
}

async function batchOf(ids: string[], by: TestClient = finance) {
  const res = await by.post<PayoutBatchBody>('/api/admin/payout-batches', { withdrawalIds: ids });
  expect(res.status, JSON.stringify(res.body)).toBe(201);
  return res.body;
}

async function ledgerIsSound() {
  const trial = await finance.get('/api/admin/ledger/trial-balance');
  expect(trial.body.difference).toBe('0.00');
  const rec = await finance.get('/api/admin/ledger/reconciliation');
  expect(rec.body.difference).toBe('0.00');
  return { trial: trial.body, reconciliation: rec.body };
}

const BATCH_FLOW = '20 withdrawals -> one batch -> second approval -> file -> 18 paid, 2 failed -> money back; a re-import changes nothing; a reversal returns money';

async function batchFlow() {
  const made = await withdrawals(20);
  const totalPaise = made.reduce((s, w) => s + w.amountPaise, 0);
  const batch = await batchOf(made.map((w) => w.id));
  expect(batch).toMatchObject({ count: 20, total: (totalPaise / 100).toFixed(2), status: 'awaiting_approval', approvalRequired: true });
  expect(batch.counts).toEqual({ processing: 20, paid: 0, failed: 0, reversed: 0 });
  // None is late yet (processing under the latePayoutDays setting); all are processing.
  expect((await finance.get('/api/admin/withdrawals?status=processing&late=true')).body).toEqual([]);
  const inBatch = (await finance.get('/api/admin/withdrawals?status=processing')).body as { id: string }[];
  expect(made.every((w) => inBatch.some((p) => p.id === w.id))).toBe(true);
  // The users see their withdrawal sent to the bank.
  expect((await made[0]!.user.get('/api/withdrawals')).body[0]).toMatchObject({ status: 'processing', batchId: batch.id });

  // No file before the second approval; nobody approves their own batch.
  const early = await finance.get(`/api/admin/payout-batches/${batch.id}/file`);
  expect(early.status).toBe(409);
  expect(early.body.error.code).toBe('batch_not_approved');
  expect((await finance.post(`/api/admin/payout-batches/${batch.id}/approve`)).status).toBe(403);
  const approved = await colleague.post<PayoutBatchBody>(`/api/admin/payout-batches/${batch.id}/approve`);
  expect(approved.status).toBe(200);
  expect(approved.body).toMatchObject({ status: 'ready', approvedBy: colleague.userId });
  expect((await colleague.post(`/api/admin/payout-batches/${batch.id}/approve`)).status).toBe(409);

  // The bank file: 20 rows, amounts summing to the batch total, parsed back.
  const file = await finance.get<string>(`/api/admin/payout-batches/${batch.id}/file`);
  expect(file.status).toBe(200);
  expect(file.headers.get('content-type')).toContain('text/csv');
  const [header, ...rows] = parseCsv(file.body);
  expect(header?.cells).toEqual([...BANK_FILE_COLUMNS]);
  expect(rows).toHaveLength(20);
  expect(rows.reduce((s, r) => s + (parseRupees(r.cells[1]) ?? NaN), 0)).toBe(totalPaise);
  const byRef = new Map(rows.map((r) => [r.cells[0], r.cells]));
  expect(byRef.get(made[0]!.id)).toEqual([made[0]!.id, '500.00', 'IMPS', 'HDFC0001234', '001234567894321', 'Ravi Kumar', '', expect.any(String)]);
  expect(byRef.get(made[1]!.id)).toEqual([made[1]!.id, '501.00', 'UPI', '', '', '', UPI, expect.any(String)]);
  // The download is audited.
  const audit = await admin.get('/api/admin/audit');
  expect(audit.body.some((e: { action: string; reference: string }) => e.action === 'payout_file_downloaded' && e.reference === batch.id)).toBe(true);

  // Results: 18 successes, 2 failures.
  const failed = new Set([made[3]!.id, made[10]!.id]);
  const results = csv([
    ['reference', 'amount', 'status', 'utr', 'failure_reason'],
    ...made.map((w, i) =>
      failed.has(w.id)
        ? [w.id, (w.amountPaise / 100).toFixed(2), 'FAILED', '', 'Account closed']
        : [w.id, (w.amountPaise / 100).toFixed(2), 'SUCCESS', `AXISN${String(900000 + i)}`, ''],
    ),
  ]);
  const first = await postCsv(finance, `/api/admin/payout-batches/${batch.id}/results`, results);
  expect(first.status, JSON.stringify(first.body)).toBe(200);
  expect(first.body).toEqual({ applied: 20, skipped: 0, refused: [] } satisfies ResultsImportBody);

  for (const w of made) {
    const expected = failed.has(w.id) ? '1000.00' : ((100_000 - w.amountPaise) / 100).toFixed(2);
    expect(await balanceOf(w.user)).toBe(expected);
  }
  const failedUser = made[3]!.user;
  expect((await failedUser.get('/api/withdrawals')).body[0]).toMatchObject({ status: 'failed', reason: 'Account closed' });
  const notes = await failedUser.get('/api/notifications');
  expect(JSON.stringify(notes.body)).toContain('withdrawal_failed');
  const done = await finance.get<PayoutBatchBody>(`/api/admin/payout-batches/${batch.id}`);
  expect(done.body).toMatchObject({ status: 'completed', counts: { processing: 0, paid: 18, failed: 2, reversed: 0 } });
  expect(done.body.items).toHaveLength(20);
  const before = await ledgerIsSound();

  // The same file again changes nothing.
  const again = await postCsv(colleague, `/api/admin/payout-batches/${batch.id}/results`, results);
  expect(again.body).toEqual({ applied: 0, skipped: 20, refused: [] });
  expect((await ledgerIsSound()).trial).toEqual(before.trial);
  expect(await balanceOf(failedUser)).toBe('1000.00');

  // A reversal of one paid payout returns its money (bank -> available).
  const paid = made[5]!;
  const reversed = await finance.post(`/api/admin/withdrawals/${paid.id}/reverse`, { reason: 'Beneficiary account frozen' });
  expect(reversed.status, JSON.stringify(reversed.body)).toBe(200);
  expect(reversed.body).toMatchObject({ status: 'reversed', reason: 'Beneficiary account frozen' });
  expect(await balanceOf(paid.user)).toBe('1000.00');
  expect((await finance.post(`/api/admin/withdrawals/${paid.id}/reverse`, { reason: 'Twice' })).status).toBe(409);
  await ledgerIsSound();
  const statement = await paid.user.get('/api/transactions');
  expect(statement.body[0]).toMatchObject({ kind: 'payout_reversal', direction: 'credit', amount: (paid.amountPaise / 100).toFixed(2) });
}

describe('payouts at volume over real HTTP', () => {
  onStore('sqlite');

  it(BATCH_FLOW, batchFlow);

  it('reports and does not apply rows with an unknown reference, a different amount or a UTR used before', async () => {
    const made = await withdrawals(4, 100);
    const batch = await batchOf(made.map((w) => w.id));
    expect(batch.status).toBe('ready'); // below the threshold: no second approval
    const body = csv([
      ['Reference', 'Amount', 'Status', 'UTR', 'Failure Reason'],
      ['00000000-0000-4000-8000-000000000000', '100.00', 'SUCCESS', 'HDFCX0001', ''],
      [made[0]!.id, '999.00', 'SUCCESS', 'HDFCX0002', ''],
      [made[1]!.id, '101.00', 'SUCCESS', 'HDFCX0003', ''],
      [made[2]!.id, '102.00', 'SUCCESS', 'hdfcx 0003', ''],
      [made[3]!.id, '103.00', 'LOST', '', ''],
    ]);
    const res = await postCsv(finance, `/api/admin/payout-batches/${batch.id}/results`, body);
    expect(res.status).toBe(200);
    expect(res.body.applied).toBe(1);
    expect(res.body.refused.map((r: { line: number; reason: string }) => [r.line, r.reason])).toEqual([
      [2, 'unknown_reference'],
      [3, 'amount_differs'],
      [5, 'utr_reused'],
      [6, 'bad_status'],
    ]);
    expect((await made[2]!.user.get('/api/withdrawals')).body[0].status).toBe('processing');
    await ledgerIsSound();
    // Bad bodies: 415 for JSON, 400 for missing columns; nothing changes.
    expect((await finance.post(`/api/admin/payout-batches/${batch.id}/results`, { rows: [] })).status).toBe(415);
    const noColumns = await postCsv(finance, `/api/admin/payout-batches/${batch.id}/results`, 'ref,amt\r\nx,1\r\n');
    expect(noColumns.status).toBe(400);
    expect(noColumns.body.error.code).toBe('validation_failed');
    // Only pending withdrawals go in a batch.
    const twice = await finance.post('/api/admin/payout-batches', { withdrawalIds: [made[0]!.id] });
    expect(twice.status).toBe(409);
    expect((await finance.post('/api/admin/payout-batches', { withdrawalIds: [] })).status).toBe(400);
  });

  it('applies each row once when two finance members import the same results file at once', async () => {
    const made = await withdrawals(6, 200);
    const batch = await batchOf(made.map((w) => w.id));
    const body = csv([
      ['reference', 'amount', 'status', 'utr', 'failure_reason'],
      ...made.map((w, i) => (i === 0 ? [w.id, (w.amountPaise / 100).toFixed(2), 'FAILED', '', 'Invalid IFSC'] : [w.id, (w.amountPaise / 100).toFixed(2), 'SUCCESS', `RACE${700000 + i}`, ''])),
    ]);
    const bankBefore = (await ledgerIsSound()).reconciliation.paid;
    const [a, b] = await Promise.all([
      postCsv(finance, `/api/admin/payout-batches/${batch.id}/results`, body),
      postCsv(colleague, `/api/admin/payout-batches/${batch.id}/results`, body),
    ]);
    expect(a.status).toBe(200);
    expect(b.status).toBe(200);
    expect(a.body.applied + b.body.applied).toBe(6);
    expect(a.body.skipped + b.body.skipped).toBe(6);
    expect([...a.body.refused, ...b.body.refused]).toEqual([]);
    const paidPaise = made.slice(1).reduce((s, w) => s + w.amountPaise, 0);
    const { reconciliation } = await ledgerIsSound();
    expect(parseRupees(reconciliation.paid)! - parseRupees(bankBefore)!).toBe(paidPaise);
    expect(await balanceOf(made[0]!.user)).toBe('1000.00');
  });

  it('keeps a withdrawal in one open batch, settled only by its batch: a second batch is 409 already_batched, paying or rejecting by hand 409 with_bank', async () => {
    const [w1, w2] = await withdrawals(2, 300);
    const first = await batchOf([w1!.id]);
    // A second batch over it would list it in a second bank file: refused, and nothing is recorded.
    const headBefore = await server.store.headPosition();
    const second = await colleague.post('/api/admin/payout-batches', { withdrawalIds: [w1!.id, w2!.id] });
    expect([second.status, second.body.error.code]).toEqual([409, 'already_batched']);
    expect(await server.store.headPosition()).toBe(headBefore);
    // Paid by hand while the bank has the file: one payout booked, possibly two sent. Refused.
    const file = await finance.get<string>(`/api/admin/payout-batches/${first.id}/file`);
    expect(file.status).toBe(200);
    const byHand = await colleague.post(`/api/admin/withdrawals/${w1!.id}/paid`, { reference: 'HANDUTR0001' });
    expect([byHand.status, byHand.body.error?.code]).toEqual([409, 'with_bank']);
    const rejected = await colleague.post(`/api/admin/withdrawals/${w1!.id}/reject`, { reason: 'Account closed' });
    expect([rejected.status, rejected.body.error?.code]).toEqual([409, 'with_bank']);
    // The bank's result settles it.
    const results = csv([['reference', 'amount', 'status', 'utr'], [w1!.id, (w1!.amountPaise / 100).toFixed(2), 'SUCCESS', 'BANKUTR0001']]);
    const imported = await postCsv(finance, `/api/admin/payout-batches/${first.id}/results`, results);
    expect(imported.body).toEqual({ applied: 1, skipped: 0, refused: [] });
    // The other withdrawal was never batched: it can still go in a batch of its own.
    expect((await batchOf([w2!.id])).count).toBe(1);
    await ledgerIsSound();
  });

  it('refuses, row by row, results imported by a member who adjusted that person lately (conflict_of_duties); another member records them', async () => {
    const [w] = await withdrawals(1, 400);
    const batch = await batchOf([w!.id]);
    // The funder adjusted this wallet: the bank's result for it is not theirs to record.
    const results = csv([['reference', 'amount', 'status', 'utr'], [w!.id, (w!.amountPaise / 100).toFixed(2), 'SUCCESS', 'BANKUTR0002']]);
    const refused = await postCsv(funder, `/api/admin/payout-batches/${batch.id}/results`, results);
    expect(refused.status).toBe(200);
    expect(refused.body).toMatchObject({ applied: 0, skipped: 0, refused: [{ line: 2, reason: 'conflict_of_duties' }] });
    const recorded = await postCsv(finance, `/api/admin/payout-batches/${batch.id}/results`, results);
    expect(recorded.body).toEqual({ applied: 1, skipped: 0, refused: [] });
  });

  it('reconciles a bank statement both ways: a paid payout it misses and a debit nobody paid, and keeps the run', async () => {
    const all = await finance.get('/api/admin/withdrawals?status=all&limit=1000');
    // Everything the ledger paid (a reversed payout left the bank too).
    const paid = (all.body as { id: string; status: string; amount: string; reference: string; processedAt: string }[]).filter(
      (w) => w.status === 'paid' || w.status === 'reversed',
    );
    expect(paid.length).toBeGreaterThan(5);
    const [left, ...shown] = paid;
    const today = new Date(Date.now() + 330 * 60_000).toISOString().slice(0, 10);
    const [y, m, d] = today.split('-');
    const statement = csv([
      ['Date', 'Narration', 'Debit', 'Credit', 'UTR'],
      [today, 'Opening funds', '', '500000.00', ''],
      ...shown.map((w, i) => [i % 2 ? today : `${d}/${m}/${y}`, `IMPS/${w.id.slice(0, 8)}`, w.amount, '', w.reference]),
      [today, 'NEFT to unknown', '777.00', '', 'UNKNOWN0001'],
    ]);
    const res = await postCsv(finance, '/api/admin/ledger/bank-statements', statement);
    expect(res.status, JSON.stringify(res.body)).toBe(201);
    expect(res.body.missingFromStatement).toEqual([{ withdrawalId: left!.id, amount: left!.amount, utr: left!.reference, paidAt: expect.any(String) }]);
    expect(res.body.unmatchedDebits).toEqual([{ line: shown.length + 3, date: today, amount: '777.00', utr: 'UNKNOWN0001' }]);
    expect(res.body.difference).toBe(((parseRupees(left!.amount)! + 77_700) / 100).toFixed(2));
    const runs = await finance.get('/api/admin/ledger/bank-statements');
    const { matching: _matching, ...run } = res.body;
    expect(runs.body[0]).toEqual(run);
  });
});

// The batch flow again with the log, keys and workflow records in PostgreSQL (issue 35): the other
// cases here decide on the same streams and workflows, and run on SQLite only, for CI time.
describe('payouts on PostgreSQL', () => {
  onStore('postgres');

  it(BATCH_FLOW, batchFlow);
});
