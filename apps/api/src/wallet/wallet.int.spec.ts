import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { BANK, UPI, adjust, balanceOf } from '../finance/testing.ts';
import { type TestClient, type TestServer, startTestServer } from '../testing/server.ts';

let server: TestServer;
let finance: TestClient;

beforeAll(async () => {
  server = await startTestServer();
  finance = await server.signUp({ roles: ['finance'], firstName: 'Rohan', lastName: 'Gupta' });
});
afterAll(async () => server?.close());

/** A new user with `rupees` in the wallet. */
async function userWith(rupees: number) {
  const user = await server.signUp({ firstName: 'Ravi', lastName: 'Kumar' });
  if (rupees > 0) await adjust(finance, user.mobile, rupees);
  return user;
}

describe('wallet and withdrawals over real HTTP', () => {
  it('asks for sign-in on every route', async () => {
    const anonymous = server.client();
    for (const [method, path] of [
      ['GET', '/api/transactions'],
      ['GET', '/api/withdrawals'],
      ['GET', '/api/withdrawals/destination'],
      ['POST', '/api/withdrawals'],
    ] as const) {
      const res = await anonymous.request(method, path, method === 'POST' ? { amount: 100, upiId: UPI } : undefined);
      expect(res.status, path).toBe(401);
      expect(res.body.error.code).toBe('unauthenticated');
    }
  });

  it('refuses bad amounts with the spec messages, on the amount field', async () => {
    const user = await userWith(500);
    const cases: [unknown, string][] = [
      [99.99, 'Minimum withdrawal amount is ₹100'],
      ['50', 'Minimum withdrawal amount is ₹100'],
      [0, 'Minimum withdrawal amount is ₹100'],
      [-100, 'Minimum withdrawal amount is ₹100'],
      [100.001, 'Enter an amount in rupees with at most two decimals'],
      ['100.5.0', 'Enter an amount in rupees with at most two decimals'],
      ['1e3', 'Enter an amount in rupees with at most two decimals'],
      [null, 'Enter an amount in rupees with at most two decimals'],
      [undefined, 'Enter an amount in rupees with at most two decimals'],
    ];
    for (const [amount, message] of cases) {
      const res = await user.post('/api/withdrawals', { amount, upiId: UPI });
      expect(res.status, String(amount)).toBe(400);
      expect(res.body.error).toMatchObject({ code: 'validation_failed', message, fields: { amount: message } });
    }
    expect(await balanceOf(user)).toBe('500.00');
  });

  it('refuses malformed destinations, both at once, and bodies that are not JSON objects', async () => {
    const user = await userWith(500);
    const bad = await user.post('/api/withdrawals', { amount: 100, bankAccount: { accountNumber: '1234', ifsc: 'HDFC1234567', holderName: ' ' } });
    expect(bad.status).toBe(400);
    expect(bad.body.error.fields).toEqual({
      'bankAccount.accountNumber': 'Account number must be 9 to 18 digits',
      'bankAccount.ifsc': 'Enter a valid IFSC code, e.g. HDFC0001234',
      'bankAccount.holderName': "Enter the account holder's name",
    });
    expect((await user.post('/api/withdrawals', { amount: 100, upiId: 'not-a-upi' })).body.error.fields).toEqual({ upiId: 'Enter a valid UPI ID, e.g. name@okhdfc' });
    const both = await user.post('/api/withdrawals', { amount: 100, upiId: UPI, bankAccount: BANK });
    expect(both.status).toBe(400);
    expect(both.body.error.fields).toEqual({ upiId: 'Choose a bank account or a UPI ID, not both' });
    expect((await user.request('POST', '/api/withdrawals', '{"amount":', { 'content-type': 'application/json' })).status).toBe(400);
    expect((await user.post('/api/withdrawals', [100])).status).toBe(400);
    expect(await balanceOf(user)).toBe('500.00');
  });

  it('refuses more than the balance with insufficient_balance (409) and moves nothing', async () => {
    const user = await userWith(250);
    const res = await user.post('/api/withdrawals', { amount: '250.01', upiId: UPI });
    expect(res.status).toBe(409);
    expect(res.body.error).toMatchObject({
      code: 'insufficient_balance',
      message: "You don't have enough rupees for this withdrawal",
      fields: { amount: "You don't have enough rupees for this withdrawal" },
    });
    const empty = await userWith(0);
    expect((await empty.post('/api/withdrawals', { amount: 100, upiId: UPI })).body.error.code).toBe('insufficient_balance');
    expect(await balanceOf(user)).toBe('250.00');
    expect((await user.get('/api/withdrawals')).body).toEqual([]);
  });

  it('asks for a destination when the request names none and none is saved', async () => {
    const user = await userWith(500);
    expect((await user.get('/api/withdrawals/destination')).body).toEqual({ destination: null });
    const res = await user.post('/api/withdrawals', { amount: 100 });
    expect(res.status).toBe(400);
    expect(res.body.error).toMatchObject({
      code: 'destination_required',
      message: 'Tell us where to send the money: add a bank account or a UPI ID',
      fields: { destination: 'Tell us where to send the money: add a bank account or a UPI ID' },
    });
  });

  it('holds an accepted request at once: balance, ledger entry, history, saved destination, notification', async () => {
    const user = await userWith(500);
    const res = await user.post('/api/withdrawals', { amount: '150.50', bankAccount: BANK });
    expect(res.status).toBe(201);
    expect(res.body).toEqual({
      id: expect.stringMatching(/^[0-9a-f-]{36}$/),
      userId: user.userId,
      amount: '150.50',
      status: 'pending',
      destination: 'A/c XXXXXX4321 · HDFC0001234',
      destinationKind: 'bank',
      requestedAt: expect.any(String),
      processedAt: null,
      reference: null,
      reason: null,
      // No rule charges it: no tax withheld (docs/tax.md), the bank is paid it all.
      tax: null,
      net: '150.50',
    });
    // Read-your-writes: the very next reads see it.
    expect(await balanceOf(user)).toBe('349.50');
    const transactions = (await user.get('/api/transactions')).body;
    expect(transactions[0]).toEqual({
      id: expect.any(String),
      userId: user.userId,
      type: 'withdrawn',
      direction: 'debit',
      kind: 'withdrawal',
      amount: '150.50',
      description: 'Withdrawal to A/c XXXXXX4321 · HDFC0001234',
      params: { destination: 'A/c XXXXXX4321 · HDFC0001234' },
      taskId: null,
      // The entry names its request: the web opens it from the ledger by this id.
      withdrawalId: res.body.id,
      withdrawalStatus: 'pending',
      createdAt: res.body.requestedAt,
    });
    expect(transactions[1]).toMatchObject({ type: 'other', direction: 'credit', kind: 'adjustment', amount: '500.00', description: 'Adjustment: Test funding' });
    expect((await user.get('/api/withdrawals')).body).toEqual([res.body]);
    expect((await user.get('/api/withdrawals/destination')).body).toEqual({
      destination: { kind: 'bank', label: 'A/c XXXXXX4321 · HDFC0001234', holderName: 'Ravi Kumar', ifsc: 'HDFC0001234', accountLast4: '4321' },
    });
    const notifications = (await user.get('/api/notifications')).body;
    expect(notifications[0]).toMatchObject({
      title: 'Withdrawal Requested',
      message: 'Your request to withdraw ₹150.50 to A/c XXXXXX4321 · HDFC0001234 has been submitted for review. It is processed in 24-48 hours.',
      type: 'info',
      isRead: false,
    });

    // No destination: the saved one is used. Then the exact remaining balance leaves zero.
    const again = await user.post('/api/withdrawals', { amount: 349.5 });
    expect(again.status).toBe(201);
    expect(again.body).toMatchObject({ amount: '349.50', destination: 'A/c XXXXXX4321 · HDFC0001234' });
    expect(await balanceOf(user)).toBe('0.00');
    expect((await user.get('/api/withdrawals')).body.map((w: { amount: string }) => w.amount)).toEqual(['349.50', '150.50']);
    expect((await user.post('/api/withdrawals', { amount: 100 })).body.error.code).toBe('insufficient_balance');
  });

  it('shows each user only their own ledger and requests', async () => {
    const asha = await userWith(300);
    const ravi = await userWith(300);
    await asha.post('/api/withdrawals', { amount: 100, upiId: 'asha@okicici' });
    expect((await ravi.get('/api/withdrawals')).body).toEqual([]);
    expect((await ravi.get('/api/withdrawals/destination')).body).toEqual({ destination: null });
    const raviTx = (await ravi.get('/api/transactions')).body as { userId: string }[];
    expect(raviTx.every((tx) => tx.userId === ravi.userId)).toBe(true);
    expect((await asha.get('/api/withdrawals/destination')).body).toEqual({ destination: { kind: 'upi', label: 'UPI as***@okicici' } });
  });

  it('accepts only what the balance covers when requests race on one process', async () => {
    const user = await userWith(1000);
    const results = await Promise.all(Array.from({ length: 25 }, () => user.post('/api/withdrawals', { amount: 100, upiId: UPI })));
    expect(results.filter((r) => r.status === 201)).toHaveLength(10);
    expect(results.filter((r) => r.status === 409 && r.body.error.code === 'insufficient_balance')).toHaveLength(15);
    expect(await balanceOf(user)).toBe('0.00');
  });
});
