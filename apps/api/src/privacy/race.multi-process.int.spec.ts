import { randomInt } from 'node:crypto';
import { streams } from '@kamai/contracts';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { adjust } from '../finance/testing.ts';
import { type ApiPair, startApiPair } from '../testing/process.ts';
import type { TestClient } from '../testing/server.ts';

// An erasure on one API process racing money for the same user on another (one DATA_DIR: one event
// store file, one read database, one key store). The user's stream revision decides: whichever is
// appended second is decided again on the new state and refused.
let pair: ApiPair;
// Two API processes to start under tsx: minutes on a busy machine.
beforeAll(async () => {
  pair = await startApiPair('erasure-race');
}, 400_000);
afterAll(async () => {
  await pair?.close();
});

const UPI = 'ravi.test@okhdfc';
const utr = () => `UTR${randomInt(10_000_000, 99_999_999)}`;

/** The money events of a user's stream appended after their UserErased (there must be none). */
async function moneyAfterErasure(userId: string): Promise<string[]> {
  const events = await pair.store.readStream(streams.user(userId));
  const erasedAt = events.findIndex((e) => e.type === 'UserErased');
  if (erasedAt < 0) return [];
  return events.slice(erasedAt + 1).filter((e) => /^(Wallet|Withdrawal)/.test(e.type)).map((e) => e.type);
}

describe('erasure racing a withdrawal across two API processes', () => {
  it('one wins, the other is refused, no money moves for an erased user, and the books balance', { timeout: 600_000 }, async () => {
    const { a, b } = pair;
    const admin = await pair.signUp(a.url, 'Aditi', ['admin']);
    const finance = await pair.signUp(b.url, 'Farah', ['finance']);
    // Whoever adjusted a wallet does not settle its withdrawals: a second member funds them.
    const funder = await pair.signUp(a.url, 'Neha', ['finance']);
    expect((await admin.put('/api/admin/settings', { deletionCoolingOffHours: 0 })).status).toBe(200);
    const eraseOnA = (id: string) => admin.clone(a.url).post(`/api/admin/deletions/${id}/erase`);
    const withdrawOnB = (user: TestClient, amount: number) => user.clone(b.url).post('/api/withdrawals', { amount, upiId: UPI });

    // Money on the wallet: the withdrawal lands (before or after the refused erasure, money is owed
    // either way: available before it, a pending payout after it).
    const owed = await pair.signUp(b.url, 'Ravi');
    await adjust(funder, owed.mobile, 100);
    const owedRequest = await owed.post('/api/profile/deletion-request', { password: 'secret123' });
    expect(owedRequest.status).toBe(202);
    const [withdrawal, refused] = await Promise.all([withdrawOnB(owed, 100), eraseOnA(owedRequest.body.id)]);
    expect(withdrawal.status, JSON.stringify(withdrawal.body)).toBe(201);
    expect(refused.status).toBe(409);
    expect(refused.body.error.code).toBe('balance_not_settled');
    // Finance pays it out on B; the erasure on A then goes through, and a later withdrawal is refused.
    expect((await finance.post(`/api/admin/withdrawals/${withdrawal.body.id}/paid`, { reference: utr() })).status).toBe(200);
    expect((await eraseOnA(owedRequest.body.id)).status).toBe(200);
    expect([401, 409]).toContain((await withdrawOnB(owed, 100)).status);

    // A settled wallet: the erasure lands and the withdrawal racing it is refused; repeated, so the
    // two arrive in either order.
    for (let round = 0; round < 3; round++) {
      const user = await pair.signUp(round % 2 ? a.url : b.url, 'Meena');
      await adjust(funder, user.mobile, 100);
      const spent = await withdrawOnB(user, 100);
      expect(spent.status).toBe(201);
      expect((await finance.post(`/api/admin/withdrawals/${spent.body.id}/paid`, { reference: utr() })).status).toBe(200);
      const request = await user.post('/api/profile/deletion-request', { password: 'secret123' });
      expect(request.status).toBe(202);
      const [erase, late] = await Promise.all([eraseOnA(request.body.id), withdrawOnB(user, 100)]);
      expect(erase.status, JSON.stringify(erase.body)).toBe(200);
      // Refused: nothing left to withdraw, the stream erased, or the session already ended.
      expect([400, 401, 409]).toContain(late.status);
      expect(await moneyAfterErasure(user.userId)).toEqual([]);
      const statement = await finance.get(`/api/admin/ledger/users/${user.userId}/statement`);
      expect(statement.body.closing).toEqual({ available: '0.00', pendingPayout: '0.00' });
    }

    // Money arriving at the moment of the erasure: exactly one of the two wins.
    const late = await pair.signUp(a.url, 'Kiran');
    const lateRequest = await late.post('/api/profile/deletion-request', { password: 'secret123' });
    expect(lateRequest.status).toBe(202);
    const [credit, erase] = await Promise.all([
      finance.clone(b.url).post('/api/admin/adjustments', { mobile: late.mobile, amount: 50, direction: 'credit', reason: 'Late bonus' }),
      eraseOnA(lateRequest.body.id),
    ]);
    expect([credit.status, erase.status].filter((status) => status < 300)).toHaveLength(1);
    if (erase.status === 200) expect([404, 409]).toContain(credit.status);
    else expect(erase.body.error.code).toBe('balance_not_settled');

    expect(await moneyAfterErasure(owed.userId)).toEqual([]);
    expect(await moneyAfterErasure(late.userId)).toEqual([]);
    for (const url of [a.url, b.url]) {
      const staff = finance.clone(url);
      expect((await staff.get('/api/admin/ledger/trial-balance')).body.difference).toBe('0.00');
      expect((await staff.get('/api/admin/ledger/reconciliation')).body.difference).toBe('0.00');
    }
    expect((await finance.get('/api/admin/ledger/verify')).body).toMatchObject({ ok: true });
  });
});
