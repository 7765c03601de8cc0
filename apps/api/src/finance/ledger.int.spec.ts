import { randomUUID } from 'node:crypto';
import type { FinanceWithdrawalBody, LedgerBalanceBody, ReconciliationBody, StatementBody, TrialBalanceBody } from '@kamai/contracts';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type TestClient, type TestServer, startTestServer } from '../testing/server.ts';
import { BANK, adjust, parseCsv } from './testing.ts';

let server: TestServer;
let finance: TestClient & { userId: string; mobile: string };
/** Funds users: whoever adjusted a wallet does not settle its withdrawals. */
let funder: TestClient;

beforeAll(async () => {
  server = await startTestServer();
  finance = await server.signUp({ roles: ['finance'], firstName: 'Rohan', lastName: 'Gupta' });
  funder = await server.signUp({ roles: ['finance'], firstName: 'Neha', lastName: 'Joshi' });
});
afterAll(async () => server?.close());

const toPaise = (rupees: string) => Math.round(Number(rupees) * 100);

describe('finance ledger over real HTTP', () => {
  it('answers statements, balances at a time, the trial balance and the reconciliation from the journal', async () => {
    const user = await server.signUp({ firstName: 'Asha', lastName: 'Rao' });
    await adjust(funder, user.mobile, 500);
    const first = await user.post('/api/withdrawals', { amount: 200, bankAccount: BANK });
    expect(first.status).toBe(201);
    const midway = new Date().toISOString();
    // The second withdrawal must be recorded after `midway`: wait for the clock to move on.
    while (new Date().toISOString() === midway) await new Promise((r) => setImmediate(r));
    const second = await user.post('/api/withdrawals', { amount: 100, bankAccount: BANK });
    expect(second.status).toBe(201);

    // Available and pending payout, side by side, on the user's own body.
    expect((await user.get('/api/auth/user')).body).toMatchObject({ totalRupees: '200.00', pendingPayout: '300.00' });

    expect((await finance.post(`/api/admin/withdrawals/${first.body.id}/paid`, { reference: 'UTR55550001' })).status).toBe(200);
    expect((await finance.post(`/api/admin/withdrawals/${second.body.id}/reject`, { reason: 'Account closed' })).status).toBe(200);
    expect((await user.get('/api/auth/user')).body).toMatchObject({ totalRupees: '300.00', pendingPayout: '0.00' });

    const statement = await finance.get<StatementBody>(`/api/admin/ledger/users/${user.userId}/statement`);
    expect(statement.status).toBe(200);
    expect(statement.body.opening).toEqual({ available: '0.00', pendingPayout: '0.00' });
    expect(statement.body.entries.map((e) => [e.kind, e.amount, e.pendingPayoutChange, e.balance, e.pendingPayout])).toEqual([
      ['adjustment', '500.00', '0.00', '500.00', '0.00'],
      ['withdrawal', '-200.00', '200.00', '300.00', '200.00'],
      ['withdrawal', '-100.00', '100.00', '200.00', '300.00'],
      ['withdrawal_paid', '0.00', '-200.00', '200.00', '100.00'],
      ['withdrawal_refund', '100.00', '-100.00', '300.00', '0.00'],
    ]);
    const paid = statement.body.entries[3];
    expect(paid?.actor).toEqual({ id: finance.userId, name: 'Rohan Gupta', mobile: finance.mobile });
    expect(paid?.references).toMatchObject({ withdrawalId: first.body.id, utr: 'UTR55550001' });
    expect(statement.body.entries[4]?.reason).toBe('Account closed');
    expect(statement.body.closing).toEqual({ available: '300.00', pendingPayout: '0.00' });

    const csv = await finance.get<string>(`/api/admin/ledger/users/${user.userId}/statement?format=csv`);
    expect(csv.status).toBe(200);
    expect(csv.headers.get('content-type')).toContain('text/csv');
    // A UTF-8 BOM for spreadsheets, and the balances in the file itself: opening first, closing last.
    const bytes = await finance.bytes(`/api/admin/ledger/users/${user.userId}/statement?format=csv`);
    expect([...bytes.slice(0, 3)]).toEqual([0xef, 0xbb, 0xbf]);
    const rows = parseCsv(csv.body);
    expect(rows).toHaveLength(7);
    // Masked; the leading apostrophe is the formula guard a spreadsheet hides (a cell starting with + is a formula).
    expect(rows[4]?.['actor_mobile']).toBe(`'+91 ${finance.mobile.slice(0, 2)}xxxxxx${finance.mobile.slice(-2)}`);
    expect(rows[0]).toMatchObject({ kind: 'opening_balance', amount: '', balance: '0.00', pending_payout: '0.00' });
    expect(rows[6]).toMatchObject({ kind: 'closing_balance', amount: '', balance: '300.00', pending_payout: '0.00' });
    expect(rows[6]?.['balance']).toBe(csv.headers.get('x-closing-balance'));
    expect(rows.reduce((sum, r) => sum + toPaise(r['amount'] || '0'), 0)).toBe(toPaise(rows[6]?.['balance'] ?? '') - toPaise(rows[0]?.['balance'] ?? ''));
    expect(rows[4]).toMatchObject({ kind: 'withdrawal_paid', actor_name: 'Rohan Gupta', utr: 'UTR55550001' });

    // A window: the opening balance carries everything before it.
    const later = await finance.get<StatementBody>(`/api/admin/ledger/users/${user.userId}/statement?from=${encodeURIComponent(midway)}`);
    expect(later.body.opening).toEqual({ available: '300.00', pendingPayout: '200.00' });
    expect(later.body.entries).toHaveLength(3);

    const before = await finance.get<LedgerBalanceBody>(`/api/admin/ledger/users/${user.userId}/balance?at=${encodeURIComponent(midway)}`);
    expect(before.body).toMatchObject({ available: '300.00', pendingPayout: '200.00', at: midway });
    expect(before.body.position).toBeGreaterThan(0);
    expect((await finance.get<LedgerBalanceBody>(`/api/admin/ledger/users/${user.userId}/balance?at=2020-01-01`)).body).toMatchObject({ available: '0.00', pendingPayout: '0.00', position: 0 });
    expect((await finance.get<LedgerBalanceBody>(`/api/admin/ledger/users/${user.userId}/balance`)).body).toMatchObject({ available: '300.00', pendingPayout: '0.00' });

    const trial = await finance.get<TrialBalanceBody>('/api/admin/ledger/trial-balance');
    expect(trial.status).toBe(200);
    expect(trial.body.difference).toBe('0.00');
    expect(trial.body.totalDebit).toBe(trial.body.totalCredit);
    expect(trial.body.accounts.find((a) => a.account === 'platform:bank')).toMatchObject({ credit: '200.00', holder: null });
    // A user's accounts name their holder, with the mobile masked.
    const masked = `+91 ${user.mobile.slice(0, 2)}xxxxxx${user.mobile.slice(-2)}`;
    expect(trial.body.accounts.find((a) => a.account === `user:${user.userId}:available`)?.holder).toEqual({ id: user.userId, name: 'Asha Rao', mobile: masked });

    const recon = await finance.get<ReconciliationBody>('/api/admin/ledger/reconciliation');
    expect(recon.body).toMatchObject({ available: '300.00', pendingPayout: '0.00', funded: '500.00', paid: '200.00', difference: '0.00', negativeBalances: [] });
    expect(recon.body.position).toBe(recon.body.headPosition);
  });

  it('refuses bad input with 400s and unknown users with 404, and keeps the ledger from non-finance callers', async () => {
    const user = await server.signUp();
    expect((await finance.get('/api/admin/ledger/users/12345/statement')).status).toBe(400);
    // By user id only: a mobile number never goes in a path (paths are logged), it is looked up in a body.
    expect((await finance.get(`/api/admin/ledger/users/${user.mobile}/statement`)).status).toBe(400);
    expect((await finance.get(`/api/admin/ledger/users/${user.mobile}/balance`)).status).toBe(400);
    expect((await finance.get(`/api/admin/ledger/users/${randomUUID()}/statement`)).status).toBe(404);
    const found = await finance.post('/api/admin/ledger/users/lookup', { mobile: user.mobile });
    expect(found.status).toBe(200);
    expect(found.body).toEqual({ id: user.userId, name: 'Test User', mobile: user.mobile });
    const unknown = await finance.post('/api/admin/ledger/users/lookup', { mobile: '9000000000' });
    expect(unknown.status).toBe(404);
    expect(unknown.body.error.fields).toEqual({ mobile: 'No user with this mobile number' });
    expect((await finance.post('/api/admin/ledger/users/lookup', { mobile: '12345' })).status).toBe(400);
    expect((await user.post('/api/admin/ledger/users/lookup', { mobile: user.mobile })).status).toBe(403);
    expect((await finance.get(`/api/admin/ledger/users/${user.userId}/balance?at=yesterday`)).status).toBe(400);
    expect((await finance.get(`/api/admin/ledger/users/${user.userId}/statement?format=pdf`)).status).toBe(400);
    for (const path of [
      `/api/admin/ledger/users/${user.userId}/statement`,
      `/api/admin/ledger/users/${user.userId}/balance`,
      '/api/admin/ledger/trial-balance',
      '/api/admin/ledger/reconciliation',
      '/api/admin/withdrawals?status=all',
    ]) {
      expect((await server.client().get(path)).status, path).toBe(401);
      expect((await user.get(path)).status, path).toBe(403);
    }
  });

  it('pages the withdrawal list by cursor with nothing cut off, filters by time, and exports CSV', async () => {
    const user = await server.signUp({ firstName: 'Ravi', lastName: 'Kumar' });
    await adjust(funder, user.mobile, 1000);
    const ids: string[] = [];
    for (let i = 0; i < 5; i++) ids.push((await user.post('/api/withdrawals', { amount: 100, bankAccount: BANK })).body.id);
    await finance.post(`/api/admin/withdrawals/${ids[0]}/paid`, { reference: 'UTR77770001' });
    await finance.post(`/api/admin/withdrawals/${ids[1]}/reject`, { reason: 'Wrong account' });

    // The default answer keeps its shape: the array of pending requests.
    const queue = await finance.get<FinanceWithdrawalBody[]>('/api/admin/withdrawals');
    expect(Array.isArray(queue.body)).toBe(true);
    expect(queue.body.filter((w) => ids.includes(w.id)).map((w) => w.id)).toEqual(ids.slice(2));

    const seen: string[] = [];
    let cursor: string | null = null;
    let pages = 0;
    do {
      const res: { body: FinanceWithdrawalBody[]; headers: Headers } = await finance.get<FinanceWithdrawalBody[]>(`/api/admin/withdrawals?status=all&limit=2${cursor ? `&cursor=${cursor}` : ''}`);
      seen.push(...res.body.map((w) => w.id));
      cursor = res.headers.get('x-next-cursor');
      pages++;
    } while (cursor && pages < 100);
    const all = await finance.get<FinanceWithdrawalBody[]>('/api/admin/withdrawals?status=all');
    expect(seen).toEqual(all.body.map((w) => w.id));
    expect(new Set(seen).size).toBe(seen.length);
    expect(pages).toBeGreaterThan(2);

    const history = await finance.get<FinanceWithdrawalBody[]>('/api/admin/withdrawals?status=paid&from=2020-01-01');
    expect(history.body.find((w) => w.id === ids[0])).toMatchObject({ reference: 'UTR77770001', processedBy: finance.userId });
    expect((await finance.get<FinanceWithdrawalBody[]>('/api/admin/withdrawals?status=paid&to=2020-01-01')).body).toEqual([]);

    const csv = await finance.get<string>('/api/admin/withdrawals?status=rejected&format=csv');
    expect(csv.headers.get('content-type')).toContain('text/csv');
    expect(parseCsv(csv.body).find((r) => r['id'] === ids[1])).toMatchObject({ status: 'rejected', amount: '100.00', reason: 'Wrong account', user_name: 'Ravi Kumar' });
    // Like every CSV: a UTF-8 BOM, and the person's mobile masked (the file leaves the screen).
    const historyBytes = await finance.bytes('/api/admin/withdrawals?status=rejected&format=csv');
    expect([...historyBytes.slice(0, 3)]).toEqual([0xef, 0xbb, 0xbf]);
    expect(parseCsv(csv.body).find((r) => r['id'] === ids[1])?.['user_mobile']).toMatch(/^'\+91 \d\dx{6}\d\d$/);
    expect((await finance.get('/api/admin/withdrawals?cursor=abc')).status).toBe(400);
  });

  it('lists every settled withdrawal with status=settled, and its CSV is the same selection as the list', async () => {
    const user = await server.signUp({ firstName: 'Sunita', lastName: 'Iyer' });
    await adjust(funder, user.mobile, 1000);
    const ids: string[] = [];
    for (let i = 0; i < 3; i++) ids.push((await user.post('/api/withdrawals', { amount: 100, bankAccount: BANK })).body.id);
    await finance.post(`/api/admin/withdrawals/${ids[0]}/paid`, { reference: 'UTR77780001' });
    await finance.post(`/api/admin/withdrawals/${ids[1]}/reject`, { reason: 'Wrong account' });

    const settled = await finance.get<FinanceWithdrawalBody[]>('/api/admin/withdrawals?status=settled&from=2020-01-01');
    const mine = settled.body.filter((w) => ids.includes(w.id));
    expect(mine.map((w) => [w.id, w.status])).toEqual([[ids[1], 'rejected'], [ids[0], 'paid']]);
    expect(settled.body.every((w) => ['paid', 'failed', 'rejected', 'reversed'].includes(w.status))).toBe(true);

    const csv = await finance.get<string>('/api/admin/withdrawals?status=settled&from=2020-01-01&format=csv');
    expect(parseCsv(csv.body).map((r) => r['id'])).toEqual(settled.body.map((w) => w.id));
    // A day before anything was settled: nothing, in the list and in its CSV.
    expect((await finance.get<FinanceWithdrawalBody[]>('/api/admin/withdrawals?status=settled&to=2020-01-01')).body).toEqual([]);
    expect(parseCsv((await finance.get<string>('/api/admin/withdrawals?status=settled&to=2020-01-01&format=csv')).body)).toEqual([]);
    expect((await finance.get('/api/admin/withdrawals?status=done')).status).toBe(400);
  });
});
