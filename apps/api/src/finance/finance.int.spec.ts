import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type TestClient, type TestServer, startTestServer } from '../testing/server.ts';
import { BANK, UPI, adjust, balanceOf } from './testing.ts';

let server: TestServer;
let finance: TestClient & { userId: string; mobile: string };
/** A second finance member. */
let colleague: TestClient & { userId: string; mobile: string };
/** The member who funds users: whoever adjusted a wallet does not settle its withdrawals. */
let funder: TestClient & { userId: string; mobile: string };

beforeAll(async () => {
  server = await startTestServer();
  finance = await server.signUp({ roles: ['finance'], firstName: 'Rohan', lastName: 'Gupta' });
  colleague = await server.signUp({ roles: ['finance'], firstName: 'Arjun', lastName: 'Mehta' });
  funder = await server.signUp({ roles: ['finance'], firstName: 'Neha', lastName: 'Joshi' });
});
afterAll(async () => server?.close());

/** A user with `rupees` and one pending withdrawal of `amount` to a bank account. */
async function pendingWithdrawal(rupees = 500, amount = 200) {
  const user = await server.signUp({ firstName: 'Asha', lastName: 'Rao' });
  await adjust(funder, user.mobile, rupees);
  const res = await user.post('/api/withdrawals', { amount, bankAccount: BANK });
  expect(res.status).toBe(201);
  return { user, id: res.body.id as string };
}

const UNKNOWN_ID = '00000000-0000-4000-8000-000000000000';

describe('finance over real HTTP: permissions', () => {
  it('keeps every finance route from signed-out callers (401) and from plain users and reviewers (403)', async () => {
    const { id } = await pendingWithdrawal();
    const user = await server.signUp();
    const reviewer = await server.signUp({ roles: ['reviewer'] });
    const routes: [string, string, unknown][] = [
      ['GET', '/api/admin/withdrawals?status=pending', undefined],
      ['GET', `/api/admin/withdrawals/${id}`, undefined],
      ['POST', `/api/admin/withdrawals/${id}/paid`, { reference: 'UTR12345678' }],
      ['POST', `/api/admin/withdrawals/${id}/reject`, { reason: 'No reason' }],
      ['POST', '/api/admin/adjustments', { mobile: user.mobile, amount: 100, direction: 'credit', reason: 'Gift' }],
    ];
    for (const [method, path, body] of routes) {
      expect((await server.client().request(method, path, body)).status, path).toBe(401);
      expect((await user.request(method, path, body)).status, path).toBe(403);
      expect((await reviewer.request(method, path, body)).status, path).toBe(403);
    }
    // Paying and adjusting are finance's alone: an admin (who sets rewards) may do neither.
    const admin = await server.signUp({ roles: ['admin'] });
    for (const [method, path, body] of routes) expect((await admin.request(method, path, body)).status, path).toBe(403);
    // Nothing moved.
    expect(await balanceOf(user)).toBe('0.00');
  });
});

describe('finance over real HTTP: the withdrawal queue', () => {
  it('lists pending requests oldest first, with the user and the full destination to pay', async () => {
    const first = await pendingWithdrawal();
    const second = await pendingWithdrawal();
    const res = await finance.get('/api/admin/withdrawals?status=pending');
    expect(res.status).toBe(200);
    const ids = (res.body as { id: string }[]).map((w) => w.id);
    expect(ids.indexOf(first.id)).toBeLessThan(ids.indexOf(second.id));
    expect(res.body.find((w: { id: string }) => w.id === first.id)).toEqual({
      id: first.id,
      userId: first.user.userId,
      amount: '200.00',
      status: 'pending',
      destination: 'A/c XXXXXX4321 · HDFC0001234',
      destinationKind: 'bank',
      requestedAt: expect.any(String),
      processedAt: null,
      reference: null,
      reason: null,
      // What to pay: no rule charges it, so all of it.
      tax: null,
      net: '200.00',
      user: { id: first.user.userId, name: 'Asha Rao', mobile: first.user.mobile },
      payTo: { kind: 'bank', accountNumber: '001234567894321', ifsc: 'HDFC0001234', holderName: 'Ravi Kumar' },
      processedBy: null,
      processedByName: null,
    });
    expect((await finance.get('/api/admin/withdrawals')).body.map((w: { id: string }) => w.id)).toEqual(ids); // pending by default
    const bad = await finance.get('/api/admin/withdrawals?status=lost');
    expect(bad.status).toBe(400);
    expect(bad.body.error.fields).toEqual({ status: 'status must be pending, processing, paid, failed, rejected, reversed, settled or all' });
  });

  it('pays once: the hold is settled, the user is told, a second decision is a 409', async () => {
    const { user, id } = await pendingWithdrawal(500, 200);
    const paid = await finance.post(`/api/admin/withdrawals/${id}/paid`, { reference: ' UTR 4455 6677 ' });
    expect(paid.status).toBe(200);
    expect(paid.body).toMatchObject({ id, status: 'paid', reference: 'UTR 4455 6677', processedBy: finance.userId, processedAt: expect.any(String) });
    // Paying moves no rupees: they left the balance when requested.
    expect(await balanceOf(user)).toBe('300.00');
    expect((await user.get('/api/transactions')).body).toHaveLength(2);
    expect((await user.get('/api/withdrawals')).body[0]).toMatchObject({ id, status: 'paid', reference: 'UTR 4455 6677', processedAt: paid.body.processedAt });
    expect((await user.get('/api/notifications')).body[0]).toMatchObject({
      title: 'Withdrawal Paid',
      message: '₹200.00 has been sent to A/c XXXXXX4321 · HDFC0001234. Transfer reference: UTR 4455 6677.',
      type: 'success',
    });
    const twice = await finance.post(`/api/admin/withdrawals/${id}/paid`, { reference: 'UTR99999999' });
    expect(twice.status).toBe(409);
    expect(twice.body.error).toMatchObject({ code: 'conflict', message: 'This withdrawal request has already been paid' });
    expect((await colleague.post(`/api/admin/withdrawals/${id}/reject`, { reason: 'Changed my mind' })).status).toBe(409);
    expect(await balanceOf(user)).toBe('300.00');
    expect((await finance.get('/api/admin/withdrawals?status=pending')).body.map((w: { id: string }) => w.id)).not.toContain(id);
    expect((await finance.get('/api/admin/withdrawals?status=paid')).body.map((w: { id: string }) => w.id)).toContain(id);
  });

  it('rejects once: the held rupees come back as a ledger entry, the user is told why', async () => {
    const { user, id } = await pendingWithdrawal(500, 200);
    const rejected = await colleague.post(`/api/admin/withdrawals/${id}/reject`, { reason: 'Account holder name does not match' });
    expect(rejected.status).toBe(200);
    expect(rejected.body).toMatchObject({ id, status: 'rejected', reason: 'Account holder name does not match', reference: null });
    expect(await balanceOf(user)).toBe('500.00');
    expect((await user.get('/api/transactions')).body[0]).toMatchObject({
      type: 'other',
      direction: 'credit',
      kind: 'withdrawal_refund',
      amount: '200.00',
      description: 'Refund of rejected withdrawal: Account holder name does not match',
    });
    expect((await user.get('/api/notifications')).body[0]).toMatchObject({ title: 'Withdrawal Rejected', type: 'error' });
    expect((await finance.post(`/api/admin/withdrawals/${id}/reject`, { reason: 'Again' })).status).toBe(409);
    expect((await finance.post(`/api/admin/withdrawals/${id}/paid`, { reference: 'UTR12345678' })).status).toBe(409);
    expect(await balanceOf(user)).toBe('500.00');
  });

  it('settles once when staff click at the same time: one 200, the rest 409, one refund at most', async () => {
    const { user, id } = await pendingWithdrawal(500, 300);
    const results = await Promise.all(
      Array.from({ length: 12 }, (_, i) =>
        i % 2 ? finance.post(`/api/admin/withdrawals/${id}/paid`, { reference: `UTR0000${i}` }) : colleague.post(`/api/admin/withdrawals/${id}/reject`, { reason: `Race ${i}` }),
      ),
    );
    expect(results.filter((r) => r.status === 200)).toHaveLength(1);
    expect(results.filter((r) => r.status === 409)).toHaveLength(11);
    const outcome = results.find((r) => r.status === 200)!.body.status;
    expect(await balanceOf(user)).toBe(outcome === 'rejected' ? '500.00' : '200.00');
  });

  it('answers 404 for unknown and malformed ids, 400 for bad bodies, 403 for staff settling their own', async () => {
    const { id } = await pendingWithdrawal();
    // A refused pay appends nothing: no reference is reserved for a withdrawal that does not exist.
    const head = await server.store.headPosition();
    for (const path of [`/api/admin/withdrawals/${UNKNOWN_ID}/paid`, '/api/admin/withdrawals/not-an-id/paid', '/api/admin/withdrawals/%2e%2e/paid']) {
      const res = await finance.post(path, { reference: 'UTR12345678' });
      expect(res.status, path).toBe(404);
      expect(res.body.error.code).toBe('not_found');
    }
    expect(await server.store.headPosition()).toBe(head);
    // Keyed or not: the key of a refused request is not even reserved, and its retry is refused again.
    const keyed = { 'content-type': 'application/json', 'idempotency-key': `refused-${UNKNOWN_ID}` };
    for (let attempt = 0; attempt < 2; attempt++) {
      const res = await finance.request('POST', `/api/admin/withdrawals/${UNKNOWN_ID}/paid`, JSON.stringify({ reference: 'UTR12345678' }), keyed);
      expect(res.status).toBe(404);
    }
    expect(await server.store.headPosition()).toBe(head);
    expect((await finance.post(`/api/admin/withdrawals/${UNKNOWN_ID}/reject`, { reason: 'Nope' })).status).toBe(404);
    expect((await finance.get(`/api/admin/withdrawals/${UNKNOWN_ID}`)).status).toBe(404);
    expect((await finance.get('/api/admin/withdrawals/1%27%20OR%201=1')).status).toBe(404);

    const noReference = await finance.post(`/api/admin/withdrawals/${id}/paid`, {});
    expect(noReference.status).toBe(400);
    expect(noReference.body.error.fields).toHaveProperty('reference');
    expect((await finance.post(`/api/admin/withdrawals/${id}/paid`, { reference: '<script>' })).status).toBe(400);
    const noReason = await finance.post(`/api/admin/withdrawals/${id}/reject`, { reason: ' x ' });
    expect(noReason.status).toBe(400);
    expect(noReason.body.error.fields).toEqual({ reason: 'Give a reason of at least 3 characters' });

    // A finance user's own request is someone else's to settle.
    await adjust(funder, colleague.mobile, 200);
    const own = await colleague.post('/api/withdrawals', { amount: 100, upiId: UPI });
    expect((await colleague.post(`/api/admin/withdrawals/${own.body.id}/paid`, { reference: 'UTR12345678' })).status).toBe(403);
    expect((await finance.post(`/api/admin/withdrawals/${own.body.id}/paid`, { reference: 'UTR12345678' })).status).toBe(200);
    // Still pending after all the refusals.
    expect((await finance.get(`/api/admin/withdrawals/${id}`)).body.status).toBe('pending');
  });
});

describe('finance over real HTTP: manual adjustments', () => {
  it('credits and debits with the reason and the staff member, seen by the user as transactions', async () => {
    const user = await server.signUp();
    const credit = await finance.post('/api/admin/adjustments', { mobile: user.mobile, amount: '250.75', direction: 'credit', reason: 'Missed task reward' });
    expect(credit.status).toBe(201);
    expect(credit.body).toEqual({
      userId: user.userId,
      mobile: user.mobile,
      balance: '250.75',
      transaction: {
        id: expect.any(String),
        userId: user.userId,
        type: 'other',
        direction: 'credit',
        kind: 'adjustment',
        amount: '250.75',
        description: 'Adjustment: Missed task reward',
        params: { reason: 'Missed task reward' },
        taskId: null,
        createdAt: expect.any(String),
      },
    });
    expect((await user.get('/api/transactions')).body).toEqual([credit.body.transaction]);
    const row = await server.db.selectFrom('journal_entries').select(['actor', 'kind']).where('entry_id', '=', credit.body.transaction.id).executeTakeFirst();
    expect(row).toEqual({ actor: finance.userId, kind: 'adjustment' });
    expect((await user.get('/api/notifications')).body[0]).toMatchObject({ title: 'Wallet Credited', message: '₹250.75 was added to your wallet: Missed task reward' });

    const debit = await finance.post('/api/admin/adjustments', { mobile: user.mobile, amount: 50, direction: 'debit', reason: 'Duplicate reward' });
    expect(debit.status).toBe(201);
    expect(debit.body.balance).toBe('200.75');
    expect((await user.get('/api/transactions')).body[0]).toMatchObject({ direction: 'debit', amount: '50.00', description: 'Adjustment: Duplicate reward' });
    expect(await balanceOf(user)).toBe('200.75');
  });

  it('never debits below zero, and refuses unknown mobiles, bad input and self-adjustment', async () => {
    const user = await server.signUp();
    await adjust(finance, user.mobile, 100);
    const over = await finance.post('/api/admin/adjustments', { mobile: user.mobile, amount: '100.01', direction: 'debit', reason: 'Too much' });
    expect(over.status).toBe(409);
    expect(over.body.error).toMatchObject({ code: 'insufficient_balance', message: 'This debit would take the balance below zero: the balance is ₹100.00' });
    expect((await finance.post('/api/admin/adjustments', { mobile: user.mobile, amount: 100, direction: 'debit', reason: 'All of it' })).body.balance).toBe('0.00');

    const unknown = await finance.post('/api/admin/adjustments', { mobile: '6000000000', amount: 10, direction: 'credit', reason: 'Who?' });
    expect(unknown.status).toBe(404);
    expect(unknown.body.error).toMatchObject({ code: 'not_found', message: 'No user with this mobile number', fields: { mobile: 'No user with this mobile number' } });
    for (const body of [
      { mobile: '123', amount: 10, direction: 'credit', reason: 'Bad mobile' },
      { mobile: user.mobile, amount: 0, direction: 'credit', reason: 'Zero' },
      { mobile: user.mobile, amount: '1.234', direction: 'credit', reason: 'Three places' },
      { mobile: user.mobile, amount: '999999999.99', direction: 'credit', reason: 'More than a money column holds' },
      { mobile: user.mobile, amount: 10, direction: 'sideways', reason: 'Bad direction' },
      { mobile: user.mobile, amount: 10, direction: 'credit' },
    ]) {
      const res = await finance.post('/api/admin/adjustments', body);
      expect(res.status, JSON.stringify(body)).toBe(400);
      expect(res.body.error.code).toBe('validation_failed');
    }
    const self = await finance.post('/api/admin/adjustments', { mobile: finance.mobile, amount: 1000, direction: 'credit', reason: 'Bonus for me' });
    expect(self.status).toBe(403);
    expect(await balanceOf(user)).toBe('0.00');
  });
});
