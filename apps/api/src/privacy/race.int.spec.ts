import { streams } from '@kamai/contracts';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { adjust } from '../finance/testing.ts';
import { type TestServer, startTestServer } from '../testing/index.ts';

// Concurrent requests on one stream: the user's stream revision decides an erasure racing a money
// command for the same user. One wins, the other is re-decided on the new state and refused.
let server: TestServer;
beforeAll(async () => {
  server = await startTestServer();
});
afterAll(() => server?.close());

describe('erasure racing money on the same user', () => {
  it('erase vs a withdrawal, then erase vs a credit: exactly one of each pair wins, nothing is lost, the books balance', async () => {
    const { store } = server;
    const admin = await server.signUp({ roles: ['admin'] });
    const finance = await server.signUp({ roles: ['finance'] });
    expect((await admin.put('/api/admin/settings', { deletionCoolingOffHours: 0 })).status).toBe(200);

    // A user with ₹100 asks to be deleted and withdraws it at the moment an admin erases them.
    const user = await server.signUp();
    await adjust(finance, user.mobile, 100);
    const requested = await user.post('/api/profile/deletion-request', { password: 'secret123' });
    expect(requested.status).toBe(202);
    const [withdrawal, early] = await Promise.all([
      user.clone().post('/api/withdrawals', { amount: 100, upiId: 'ravi.test@okhdfc' }),
      admin.clone().post(`/api/admin/deletions/${requested.body.id}/erase`),
    ]);
    // Money is owed either way (available before the withdrawal, pending payout after): the withdrawal wins.
    expect(withdrawal.status).toBe(201);
    expect(early.status).toBe(409);
    expect(early.body.error.code).toBe('balance_not_settled');
    const paid = await finance.clone().post(`/api/admin/withdrawals/${withdrawal.body.id}/paid`, { reference: 'UTR55667788' });
    expect(paid.status).toBe(200);

    // Settled at ₹0: a credit races the erasure; whichever is appended first wins, the other is refused.
    const [credit, erase] = await Promise.all([
      finance.clone().post('/api/admin/adjustments', { mobile: user.mobile, amount: 50, direction: 'credit', reason: 'Late bonus' }),
      admin.clone().post(`/api/admin/deletions/${requested.body.id}/erase`),
    ]);
    expect([credit.status, erase.status].filter((s) => s < 300)).toHaveLength(1);
    if (erase.status === 200) {
      // Refused by the erased stream, or, once the number is released, not found by it at all.
      expect([409, 404]).toContain(credit.status);
      if (credit.status === 409) expect(credit.body.error.code).toBe('user_erased');
    } else {
      expect(credit.status).toBe(201);
      expect(erase.body.error.code).toBe('balance_not_settled');
    }

    const events = await store.readStream(streams.user(user.userId));
    expect(events.filter((e) => e.type === 'UserErased')).toHaveLength(erase.status === 200 ? 1 : 0);
    expect(events.filter((e) => e.type === 'WalletCredited')).toHaveLength(credit.status === 201 ? 2 : 1);
    const trial = await finance.get('/api/admin/ledger/trial-balance');
    expect(trial.body.difference).toBe('0.00');
    const recon = await finance.get('/api/admin/ledger/reconciliation');
    expect(recon.body.difference).toBe('0.00');
    expect((await finance.get('/api/admin/ledger/verify')).body).toMatchObject({ ok: true });
  });
});
