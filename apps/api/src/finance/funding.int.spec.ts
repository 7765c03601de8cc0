import { type AuditEntryBody, type FundingBody, type ReconciliationBody, type TrialBalanceBody, istDayOf } from '@kamai/contracts';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type TestClient, type TestServer, startTestServer } from '../testing/server.ts';
import { BANK, adjust } from './testing.ts';

type Staff = TestClient & { userId: string; mobile: string };
let server: TestServer;
let finance: Staff;
let finance2: Staff;
let admin: Staff;

beforeAll(async () => {
  server = await startTestServer();
  finance = await server.signUp({ roles: ['finance'], firstName: 'Rohan', lastName: 'Gupta' });
  finance2 = await server.signUp({ roles: ['finance'], firstName: 'Meera', lastName: 'Iyer' });
  admin = await server.signUp({ roles: ['admin'] });
});
afterAll(async () => server?.close());

const today = () => istDayOf(new Date());
const bank = async () => {
  const trial = await finance.get<TrialBalanceBody>('/api/admin/ledger/trial-balance');
  return trial.body.accounts.find((a) => a.account === 'platform:bank');
};
const reconciliation = async () => (await finance.get<ReconciliationBody>('/api/admin/ledger/reconciliation')).body;

describe('funding the payout account', () => {
  it('books fundings up to the threshold at once, so platform:bank holds funded minus paid', async () => {
    const funded = await finance.post<FundingBody>('/api/admin/ledger/funding', { amount: '800.00', reference: 'NEFT CO 0001', date: today() });
    expect(funded.status).toBe(201);
    expect(funded.body).toMatchObject({ amount: '800.00', reference: 'NEFT CO 0001', date: today(), status: 'booked', recordedBy: finance.userId, decidedBy: finance.userId });
    expect(await bank()).toMatchObject({ debit: '800.00', credit: '0.00' });
    expect(await reconciliation()).toMatchObject({ bankFunded: '800.00', paid: '0.00', bankBalance: '800.00', difference: '0.00' });

    // A payout leaves the account: its balance falls, "paid" counts it, the books still agree.
    const user = await server.signUp();
    await adjust(finance, user.mobile, 300);
    const w = await user.post('/api/withdrawals', { amount: 250, bankAccount: BANK });
    // Paid by another member: whoever credited this user sends none of their withdrawals.
    expect((await finance2.post(`/api/admin/withdrawals/${w.body.id}/paid`, { reference: 'UTR77770001' })).status).toBe(200);
    expect(await reconciliation()).toMatchObject({ bankFunded: '800.00', paid: '250.00', bankBalance: '550.00', difference: '0.00' });
    const trial = await finance.get<TrialBalanceBody>('/api/admin/ledger/trial-balance');
    expect(trial.body.difference).toBe('0.00');
    expect(trial.body.accounts.find((a) => a.account === 'platform:company_funding')).toMatchObject({ credit: '800.00', balance: '800.00' });

    // The same bank reference, however spaced or cased, is not booked twice.
    const again = await finance2.post('/api/admin/ledger/funding', { amount: '10', reference: 'neftco0001', date: today() });
    expect(again.status).toBe(409);
    expect(again.body.error.code).toBe('duplicate_reference');
  });

  it('holds a funding above the threshold until another finance member approves it; its recorder cannot', async () => {
    const before = await reconciliation();
    const big = await finance.post<FundingBody>('/api/admin/ledger/funding', { amount: 250000, reference: 'RTGS-CO-0002', date: today() });
    expect(big.status).toBe(202);
    expect(big.body).toMatchObject({ status: 'pending', amount: '250000.00', decidedBy: null });
    expect((await reconciliation()).bankFunded).toBe(before.bankFunded);
    const pending = await finance.get<FundingBody[]>('/api/admin/ledger/funding?status=pending');
    expect(pending.body.map((f) => f.id)).toContain(big.body.id);

    const own = await finance.post(`/api/admin/ledger/funding/${big.body.id}/approve`);
    expect(own.status).toBe(403);
    expect((await reconciliation()).bankFunded).toBe(before.bankFunded);

    const approved = await finance2.post<FundingBody>(`/api/admin/ledger/funding/${big.body.id}/approve`);
    expect(approved.status).toBe(200);
    expect(approved.body).toMatchObject({ status: 'booked', decidedBy: finance2.userId });
    const after = await reconciliation();
    expect(Number(after.bankFunded) - Number(before.bankFunded)).toBe(250000);
    expect(after.difference).toBe('0.00');
    expect((await finance2.post(`/api/admin/ledger/funding/${big.body.id}/approve`)).status).toBe(409);
    expect((await finance2.post(`/api/admin/ledger/funding/${big.body.id}/reject`)).status).toBe(409);

    const audit = await admin.get<Array<{ action: string; reference: string; amount: string | null }>>('/api/admin/audit');
    const mine = audit.body.filter((e) => e.reference === big.body.id).map((e) => [e.action, e.amount]);
    expect(mine).toEqual([
      ['funding_approved', '250000.00'],
      ['funding_requested', '250000.00'],
    ]);
  });

  it('a rejected funding books nothing and frees its reference', async () => {
    const before = await reconciliation();
    const big = await finance.post<FundingBody>('/api/admin/ledger/funding', { amount: 5000, reference: 'NEFT-CO-0003', date: today() });
    expect(big.status).toBe(202);
    const rejected = await finance.post<FundingBody>(`/api/admin/ledger/funding/${big.body.id}/reject`);
    expect(rejected.status).toBe(200);
    expect(rejected.body).toMatchObject({ status: 'rejected', decidedBy: finance.userId });
    expect((await finance2.post(`/api/admin/ledger/funding/${big.body.id}/approve`)).status).toBe(409);
    expect((await reconciliation()).bankFunded).toBe(before.bankFunded);
    // By another member: the first has booked ₹800 alone today, and ₹500 more would pass ₹1,000.
    const retyped = await finance2.post<FundingBody>('/api/admin/ledger/funding', { amount: 500, reference: 'NEFT-CO-0003', date: today() });
    expect(retyped.status).toBe(201);
    const all = await finance.get<FundingBody[]>('/api/admin/ledger/funding');
    expect(all.body.slice(0, 2).map((f) => [f.id, f.status])).toEqual([
      [retyped.body.id, 'booked'],
      [big.body.id, 'rejected'],
    ]);
  });

  it('refuses bad input with 400 and records nothing; unknown fundings are 404', async () => {
    const count = (await finance.get<FundingBody[]>('/api/admin/ledger/funding')).body.length;
    const tomorrow = istDayOf(new Date(Date.now() + 86_400_000));
    for (const body of [
      { amount: 0, reference: 'X1', date: today() },
      { amount: '-5', reference: 'X2', date: today() },
      { amount: '1.234', reference: 'X3', date: today() },
      { amount: 10, reference: '', date: today() },
      { amount: 10, reference: 'x'.repeat(65), date: today() },
      { amount: 10, reference: 'X4', date: '2026-02-30' },
      { amount: 10, reference: 'X5', date: '20-11-2026' },
      { amount: 10, reference: 'X6', date: tomorrow },
      { amount: 10, reference: 'X7' },
    ]) {
      const res = await finance.post('/api/admin/ledger/funding', body);
      expect(res.status, JSON.stringify(body)).toBe(400);
      expect(res.body.error.message).toBeTruthy();
    }
    expect((await finance.get<FundingBody[]>('/api/admin/ledger/funding')).body.length).toBe(count);
    expect((await finance.get('/api/admin/ledger/funding?status=nope')).status).toBe(400);
    expect((await finance2.post('/api/admin/ledger/funding/00000000-0000-4000-8000-000000000000/approve')).status).toBe(404);
    expect((await finance2.post('/api/admin/ledger/funding/nope/approve')).status).toBe(404);
    expect((await admin.post('/api/admin/ledger/funding', { amount: 10, reference: 'X8', date: today() })).status).toBe(403);
  });
});

describe('funding four-eyes per member', () => {
  it('sends the funding that takes one member past the threshold within 24 hours to a second member: five ₹1,000 in a row are not booked alone', async () => {
    const member = await server.signUp({ roles: ['finance'] });
    const statuses: number[] = [];
    const ids: string[] = [];
    for (let i = 0; i < 5; i++) {
      const res = await member.post<FundingBody>('/api/admin/ledger/funding', { amount: '1000.00', reference: `RTGS CUM ${i}`, date: today() });
      statuses.push(res.status);
      ids.push(res.body.id);
    }
    // The first reaches the threshold (₹1,000); each later one would pass it: pending.
    expect(statuses).toEqual([201, 202, 202, 202, 202]);
    const approved = await finance2.post<FundingBody>(`/api/admin/ledger/funding/${ids[1]}/approve`);
    expect([approved.status, approved.body.status]).toEqual([200, 'booked']);
    // A refusal (a reference booked before) counts nothing and appends nothing.
    const head = await server.store.headPosition();
    expect((await member.post('/api/admin/ledger/funding', { amount: '1', reference: 'RTGS CUM 0', date: today() })).status).toBe(409);
    expect(await server.store.headPosition()).toBe(head);
    expect((await server.store.readStream(`staff-limits-${member.userId}`)).map((e) => e.type)).toEqual(['MemberMoneyCounted']);
  });
});

describe('reversing a booked funding takes two members', () => {
  it('one asks (202, nothing moves), a different one approves (the journal takes it back); the asker cannot approve', async () => {
    const asker = await server.signUp({ roles: ['finance'] });
    const approver = await server.signUp({ roles: ['finance'] });
    const booked = await asker.post<FundingBody>('/api/admin/ledger/funding', { amount: '700.00', reference: 'IMPS REV 0001', date: today() });
    expect(booked.status).toBe(201);
    const before = await reconciliation();

    // A pending funding is not booked: nothing to reverse.
    const pendingFunding = await asker.post<FundingBody>('/api/admin/ledger/funding', { amount: '5000.00', reference: 'IMPS REV 0002', date: today() });
    expect(pendingFunding.status).toBe(202);
    expect((await asker.post(`/api/admin/ledger/funding/${pendingFunding.body.id}/reverse`, { reason: 'Typed twice' })).status).toBe(409);

    const asked = await asker.post<FundingBody>(`/api/admin/ledger/funding/${booked.body.id}/reverse`, { reason: 'Booked against the wrong account' });
    expect([asked.status, asked.body.status]).toEqual([202, 'reversal_requested']);
    expect((await reconciliation()).bankFunded).toBe(before.bankFunded);
    expect((await asker.post(`/api/admin/ledger/funding/${booked.body.id}/reverse`, { reason: 'again' })).status).toBe(409);
    const own = await asker.post(`/api/admin/ledger/funding/${booked.body.id}/reverse/approve`);
    expect([own.status, own.body.error.code]).toEqual([403, 'forbidden']);

    const reversed = await approver.post<FundingBody>(`/api/admin/ledger/funding/${booked.body.id}/reverse/approve`);
    expect([reversed.status, reversed.body.status]).toEqual([200, 'reversed']);
    const after = await reconciliation();
    expect(Number(after.bankFunded)).toBeCloseTo(Number(before.bankFunded) - 700, 2);
    expect([after.paid, after.difference]).toEqual([before.paid, '0.00']);
    const trial = await finance.get<TrialBalanceBody>('/api/admin/ledger/trial-balance');
    expect(trial.body.difference).toBe('0.00');
    const audit = await admin.get<AuditEntryBody[]>('/api/admin/audit');
    const entries = audit.body.filter((e) => e.reference === booked.body.id).map((e) => [e.action, e.actor.id]);
    expect(entries).toEqual(expect.arrayContaining([['funding_reversal_requested', asker.userId], ['funding_reversed', approver.userId]]));
    // Once reversed, there is nothing more to reverse or approve.
    expect((await approver.post(`/api/admin/ledger/funding/${booked.body.id}/reverse/approve`)).status).toBe(409);
    expect((await asker.post(`/api/admin/ledger/funding/${booked.body.id}/reverse`, { reason: 'again' })).status).toBe(409);
  });
});
