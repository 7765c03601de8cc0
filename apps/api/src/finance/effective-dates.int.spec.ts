import type { PeriodTrialBalanceBody, StatementBody, TrialBalanceBody } from '@kamai/contracts';
import { listPostings } from '@kamai/projections';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type TestClient, type TestServer, startTestServer } from '../testing/server.ts';
import { BANK, adjust, parseCsv } from './testing.ts';

let server: TestServer;
let funder: TestClient;
let finance: TestClient;
// The server's clock: 3 May 2026, 11:30 IST. Entries dated back into April are recorded in May.
const at = new Date('2026-05-03T06:00:00Z');

beforeAll(async () => {
  server = await startTestServer({}, { now: () => at });
  funder = await server.signUp({ roles: ['finance'], firstName: 'Neha', lastName: 'Joshi' });
  finance = await server.signUp({ roles: ['finance'], firstName: 'Rohan', lastName: 'Gupta' });
});
afterAll(async () => server?.close());

const APRIL = 'from=2026-04-01&to=2026-04-30';

describe('effective dates beside recorded times', () => {
  it('reads statements, trial balances and the journal by the day entries take effect or by when they were recorded', async () => {
    const user = await server.signUp({ firstName: 'Asha', lastName: 'Rao' });
    await adjust(funder, user.mobile, 500);
    // A correction of April made in May: dated back, naming what it corrects.
    const backdated = await funder.post('/api/admin/adjustments', {
      mobile: user.mobile, amount: '20.00', direction: 'credit', reason: 'April reward missed', effectiveDate: '2026-04-28', corrects: 'entry-42',
    });
    expect(backdated.status, JSON.stringify(backdated.body)).toBe(201);
    // The bank's value date of a funding is its effective day.
    expect((await finance.post('/api/admin/ledger/funding', { amount: '100.00', reference: 'NEFT-EFF-1', date: '2026-04-29' })).status).toBe(201);

    // By effective day, April holds the correction and the funding; by recorded time, nothing.
    const byEffective = (await finance.get<PeriodTrialBalanceBody>(`/api/admin/ledger/trial-balance/period?${APRIL}&by=effective`)).body;
    const account = (body: PeriodTrialBalanceBody, name: string) => body.accounts.find((a) => a.account === name || a.account.endsWith(name));
    expect(account(byEffective, ':available')?.movement).toEqual({ debit: '0.00', credit: '20.00' });
    expect(account(byEffective, 'platform:bank')?.movement).toEqual({ debit: '100.00', credit: '0.00' });
    expect(byEffective.totals.movement).toEqual({ debit: '120.00', credit: '120.00' });
    expect((await finance.get<PeriodTrialBalanceBody>(`/api/admin/ledger/trial-balance/period?${APRIL}`)).body.accounts).toEqual([]);
    // May, by effective day: the April entries are its opening, only the ₹500 its movement.
    const may = (await finance.get<PeriodTrialBalanceBody>('/api/admin/ledger/trial-balance/period?from=2026-05-01&to=2026-05-31&by=effective')).body;
    expect(account(may, ':available')).toMatchObject({ opening: { credit: '20.00' }, movement: { credit: '500.00' }, closing: { credit: '520.00' } });
    // As of the end of April (the as-of trial balance).
    const asOf = (await finance.get<TrialBalanceBody>('/api/admin/ledger/trial-balance?at=2026-04-30&by=effective')).body;
    expect(asOf.totalDebit).toBe('120.00');
    expect((await finance.get<TrialBalanceBody>('/api/admin/ledger/trial-balance?at=2026-04-30')).body.accounts).toEqual([]);

    const statement = (await finance.get<StatementBody>(`/api/admin/ledger/users/${user.userId}/statement?${APRIL}&by=effective`)).body;
    expect(statement.entries).toHaveLength(1);
    expect(statement.entries[0]).toMatchObject({ amount: '20.00', effectiveDate: '2026-04-28', corrects: 'entry-42', time: '2026-05-03T06:00:00.000Z' });
    expect(statement.closing.available).toBe('20.00');
    expect((await finance.get<StatementBody>(`/api/admin/ledger/users/${user.userId}/statement?${APRIL}`)).body.entries).toEqual([]);
    // The whole statement by effective day lists the April correction first; by recorded time, in log order.
    const all = (await finance.get<StatementBody>(`/api/admin/ledger/users/${user.userId}/statement?by=effective`)).body;
    expect(all.entries.map((e) => e.amount)).toEqual(['20.00', '500.00']);
    expect(all.entries[1]).toMatchObject({ effectiveDate: '2026-05-03', corrects: null });
    const csv = parseCsv((await finance.get<string>(`/api/admin/ledger/users/${user.userId}/statement?${APRIL}&by=effective&format=csv`)).body);
    expect(csv.find((r) => r['kind'] === 'adjustment')).toMatchObject({ effective_date: '2026-04-28', corrects: 'entry-42' });

    // The journal export's rows: the funding's value date, the correction's reference.
    const postings = await listPostings(server.db, { from: '2026-04-01T00:00:00+05:30', to: '2026-04-30T23:59:59.999+05:30', by: 'effective' });
    expect(postings.filter((p) => p.kind === 'bank_funding').map((p) => [p.effectiveDate, p.valueDate])).toEqual([['2026-04-29', '2026-04-29'], ['2026-04-29', '2026-04-29']]);
    expect(postings.filter((p) => p.kind === 'adjustment').map((p) => [p.effectiveDate, p.corrects, p.effectiveAt])).toEqual([
      ['2026-04-28', 'entry-42', '2026-05-03T06:00:00.000Z'],
      ['2026-04-28', 'entry-42', '2026-05-03T06:00:00.000Z'],
    ]);

    // Above the approval threshold, dated in April: once April is closed, its approval is refused.
    const asked = await funder.post<{ adjustment: { id: string } }>('/api/admin/adjustments', {
      mobile: user.mobile, amount: '9000.00', direction: 'credit', reason: 'April backlog', effectiveDate: '2026-04-30', corrects: 'entry-43',
    });
    expect(asked.status, JSON.stringify(asked.body)).toBe(202);
    expect((await funder.post('/api/admin/ledger/periods/2026-04/close')).status).toBe(202);
    expect((await finance.post('/api/admin/ledger/periods/2026-04/close/approve')).status).toBe(200);
    const approval = await finance.post(`/api/admin/adjustments/${asked.body.adjustment.id}/approve`);
    expect(approval.status).toBe(409);
    expect(approval.body.error).toMatchObject({ code: 'period_closed', params: { month: '2026-04' } });

    // Neither effective nor recorded, or words where an id belongs: 400 with the catalogue's text.
    const badBy = await finance.get(`/api/admin/ledger/trial-balance/period?${APRIL}&by=value`);
    expect(badBy.status).toBe(400);
    expect(badBy.body.error.fields).toEqual({ by: 'Read by effective (the day an entry takes effect) or recorded (when it was recorded)' });
    const badCorrects = await funder.post('/api/admin/adjustments', { mobile: user.mobile, amount: '1.00', direction: 'credit', reason: 'Fix it', corrects: 'the one from last week' });
    expect(badCorrects.status).toBe(400);
    expect(Object.keys(badCorrects.body.error.fields ?? {})).toEqual(['corrects']);
  });

  it('dates a payout by the bank value date the hand-pay route or the results file gives; a closed month or a bad date is refused', async () => {
    // April was closed by the test above.
    const withdraw = async (amount: number) => {
      const user = await server.signUp({ firstName: 'Ravi', lastName: `Value${amount}` });
      await adjust(funder, user.mobile, 1000);
      const res = await user.post<{ id: string }>('/api/withdrawals', { amount, bankAccount: BANK });
      expect(res.status, JSON.stringify(res.body)).toBe(201);
      return res.body.id;
    };
    const paidOn = async (withdrawalId: string) =>
      (await listPostings(server.db)).filter((p) => p.kind === 'withdrawal_paid' && p.withdrawalId === withdrawalId && p.account === 'platform:bank').map((p) => [p.effectiveDate, p.valueDate]);

    // By hand.
    const byHand = await withdraw(300);
    const badDate = await finance.post(`/api/admin/withdrawals/${byHand}/paid`, { reference: 'HANDVAL0001', valueDate: '02-05-2026' });
    expect(badDate.status).toBe(400);
    expect(Object.keys(badDate.body.error.fields ?? {})).toEqual(['valueDate']);
    const future = await finance.post(`/api/admin/withdrawals/${byHand}/paid`, { reference: 'HANDVAL0001', valueDate: '2026-05-04' });
    expect(future.status).toBe(400);
    expect(future.body.error.fields).toEqual({ valueDate: "Enter the bank's value date as YYYY-MM-DD, not in the future" });
    const closed = await finance.post(`/api/admin/withdrawals/${byHand}/paid`, { reference: 'HANDVAL0001', valueDate: '2026-04-30' });
    expect(closed.status).toBe(409);
    expect(closed.body.error).toMatchObject({ code: 'period_closed', params: { month: '2026-04' } });
    const paid = await finance.post(`/api/admin/withdrawals/${byHand}/paid`, { reference: 'HANDVAL0001', valueDate: '2026-05-02' });
    expect(paid.status, JSON.stringify(paid.body)).toBe(200);
    expect(await paidOn(byHand)).toEqual([['2026-05-02', '2026-05-02']]);

    // By the bank's results file, its optional value_date column.
    const inBatch = await withdraw(400);
    const batch = await finance.post<{ id: string }>('/api/admin/payout-batches', { withdrawalIds: [inBatch] });
    expect(batch.status, JSON.stringify(batch.body)).toBe(201);
    const results = (valueDate: string) => `reference,amount,status,utr,value_date\r\n${inBatch},400.00,SUCCESS,BATCHVAL0001,${valueDate}\r\n`;
    const post = (body: string) => finance.request(`POST`, `/api/admin/payout-batches/${batch.body.id}/results`, body, { 'content-type': 'text/csv' });
    const badLine = await post(results('1 May'));
    expect(badLine.status).toBe(400);
    expect(badLine.body.error).toMatchObject({ code: 'validation_failed', message: 'Line 2: give the value date as YYYY-MM-DD' });
    const intoClosed = await post(results('2026-04-29'));
    expect(intoClosed.status).toBe(409);
    expect(intoClosed.body.error).toMatchObject({ code: 'period_closed' });
    expect(await paidOn(inBatch)).toEqual([]);
    const imported = await post(results('2026-05-01'));
    expect(imported.body).toEqual({ applied: 1, skipped: 0, refused: [] });
    expect(await paidOn(inBatch)).toEqual([['2026-05-01', '2026-05-01']]);
  });
});
