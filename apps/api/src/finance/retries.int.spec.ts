import { type TaskBody, type UserTaskBody, streams } from '@kamai/contracts';
import { TINY_PNG } from '../object-storage/testing.ts';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type ApiPair, startApiPair } from '../testing/process.ts';
import { BANK } from './testing.ts';

// Commands safe to retry, across two API processes on one DATA_DIR: an Idempotency-Key answers the
// first response again and appends nothing; a transfer reference (UTR) pays one withdrawal.
let pair: ApiPair;
beforeAll(async () => {
  pair = await startApiPair('retries');
});
afterAll(async () => {
  await pair?.close();
});

const key = (name: string) => ({ 'idempotency-key': `${name}-${Math.random().toString(36).slice(2)}` });
const json = { 'content-type': 'application/json' };

async function walletEvents(userId: string, type: string) {
  return (await pair.store.readStream(streams.user(userId))).filter((e) => e.type === type);
}

describe('Idempotency-Key across two processes', () => {
  it('answers a retried adjustment with the first response, once, on either process and after a restart', async () => {
    const finance = await pair.signUp(pair.a.url, 'Rohan', ['finance']);
    const user = await pair.signUp(pair.b.url, 'Asha');
    const body = JSON.stringify({ mobile: user.mobile, amount: 250, direction: 'credit', reason: 'Missed reward' });
    const headers = { ...json, ...key('adjust') };
    const results = await Promise.all([
      finance.request('POST', '/api/admin/adjustments', body, headers),
      finance.clone(pair.b.url).request('POST', '/api/admin/adjustments', body, headers),
      finance.clone(pair.a.url).request('POST', '/api/admin/adjustments', body, headers),
    ]);
    // Concurrent copies all run as the one keyed command: each answers the credit, made once.
    const ran = results.filter((r) => r.status === 201);
    expect(ran).toHaveLength(3);
    const first = ran[0]!;
    const replay = await finance.clone(pair.b.url).request('POST', '/api/admin/adjustments', body, headers);
    expect(replay.status).toBe(201);
    expect(replay.body).toEqual(first.body);
    expect(replay.headers.get('idempotent-replayed')).toBe('true');
    for (const r of ran) expect(r.body).toEqual(first.body);
    expect(await walletEvents(user.userId, 'WalletCredited')).toHaveLength(1);

    // Keys order-insensitive on JSON keys, remembered by the store, not by a process.
    await pair.restartA();
    const reordered = JSON.stringify({ reason: 'Missed reward', direction: 'credit', amount: 250, mobile: user.mobile });
    const again = await finance.clone(pair.a.url).request('POST', '/api/admin/adjustments', reordered, headers);
    expect(again.status).toBe(201);
    expect(again.body).toEqual(first.body);
    expect(await walletEvents(user.userId, 'WalletCredited')).toHaveLength(1);

    // Another body under the same key is refused, and nothing moves.
    const other = await finance.clone(pair.a.url).request('POST', '/api/admin/adjustments', JSON.stringify({ mobile: user.mobile, amount: 999, direction: 'credit', reason: 'Missed reward' }), headers);
    expect(other.status).toBe(422);
    expect(other.body.error.code).toBe('idempotency_key_reused');
    expect(await walletEvents(user.userId, 'WalletCredited')).toHaveLength(1);

    // Without a key, or with a fresh one, it is a new command.
    expect((await finance.clone(pair.b.url).request('POST', '/api/admin/adjustments', body, { ...json, ...key('adjust') })).status).toBe(201);
    expect(await walletEvents(user.userId, 'WalletCredited')).toHaveLength(2);
  });

  it('keeps one caller’s key apart from another’s, refuses malformed keys, and replays withdrawal requests and pays', async () => {
    const finance = await pair.signUp(pair.a.url, 'Rohan', ['finance']);
    const a = await pair.signUp(pair.a.url, 'Asha');
    const b = await pair.signUp(pair.b.url, 'Ravi');
    // Whoever adjusted a wallet does not settle its withdrawals: a second member funds them.
    const funder = await pair.signUp(pair.b.url, 'Neha', ['finance']);
    for (const u of [a, b]) expect((await funder.post('/api/admin/adjustments', { mobile: u.mobile, amount: 500, direction: 'credit', reason: 'Funding' })).status).toBe(201);

    const shared = { ...json, 'idempotency-key': 'same-key-for-both' };
    const body = JSON.stringify({ amount: 200, bankAccount: BANK });
    const fromA = await a.request('POST', '/api/withdrawals', body, shared);
    const fromB = await b.clone(pair.a.url).request('POST', '/api/withdrawals', body, shared);
    expect([fromA.status, fromB.status]).toEqual([201, 201]);
    expect(fromA.body.id).not.toBe(fromB.body.id);
    const retried = await a.clone(pair.b.url).request('POST', '/api/withdrawals', body, shared);
    expect(retried.body).toEqual(fromA.body);
    expect(await walletEvents(a.userId, 'WithdrawalRequested')).toHaveLength(1);

    for (const bad of ['', 'has space', 'x'.repeat(101), 'tab\there']) {
      const res = await a.request('POST', '/api/withdrawals', body, { ...json, 'idempotency-key': bad });
      expect(res.status, bad).toBe(400);
    }
    expect(await walletEvents(a.userId, 'WithdrawalRequested')).toHaveLength(1);

    const payKey = { ...json, ...key('pay') };
    const pay = JSON.stringify({ reference: 'UTR90000001' });
    const paid = await finance.request('POST', `/api/admin/withdrawals/${fromA.body.id}/paid`, pay, payKey);
    expect(paid.status).toBe(200);
    const repaid = await finance.clone(pair.b.url).request('POST', `/api/admin/withdrawals/${fromA.body.id}/paid`, pay, payKey);
    expect(repaid.status).toBe(200);
    expect(repaid.body).toEqual(paid.body);
    expect(await walletEvents(a.userId, 'WithdrawalPaid')).toHaveLength(1);
    // Without the key the same pay is refused by the domain, as before.
    expect((await finance.request('POST', `/api/admin/withdrawals/${fromA.body.id}/paid`, pay, json)).status).toBe(409);
  });
});

describe('Idempotency-Key on submit-proof and reviews', () => {
  it('answers a retried proof and a retried approval with their first responses, on the other process, crediting once', async () => {
    const admin = await pair.signUp(pair.a.url, 'Arjun', ['admin']);
    const task = await admin.post<TaskBody>('/api/admin/tasks', { title: 'Rate PhonePe', description: 'Rate it', rupeeReward: '25' });
    expect(task.status).toBe(201);
    const user = await pair.signUp(pair.b.url, 'Ravi');
    const slot = await user.post('/api/objects/upload');
    expect((await fetch(new URL(slot.body.uploadURL, pair.b.url), { method: 'PUT', body: TINY_PNG, headers: { 'content-type': 'image/png' } })).status).toBe(201);
    const proof = JSON.stringify({ proofImageUrl: slot.body.objectURL, proofDescription: 'Rated 5 stars' });
    const proofKey = { ...json, ...key('proof') };
    const submitted = await user.request<UserTaskBody>('POST', `/api/tasks/${task.body.id}/submit-proof`, proof, proofKey);
    expect(submitted.status).toBe(201);
    const again = await user.clone(pair.a.url).request('POST', `/api/tasks/${task.body.id}/submit-proof`, proof, proofKey);
    expect([again.status, again.body]).toEqual([201, submitted.body]);
    expect((await walletEvents(user.userId, 'ProofSubmitted')).length).toBe(1);

    const reviewer = await pair.signUp(pair.a.url, 'Kavya', ['reviewer']);
    const approveKey = key('approve');
    const approved = await reviewer.request('POST', `/api/admin/submissions/${submitted.body.submissionId}/approve`, undefined, approveKey);
    expect(approved.status).toBe(200);
    const reapproved = await reviewer.clone(pair.b.url).request('POST', `/api/admin/submissions/${submitted.body.submissionId}/approve`, undefined, approveKey);
    expect([reapproved.status, reapproved.body]).toEqual([200, approved.body]);
    expect(await walletEvents(user.userId, 'WalletCredited')).toHaveLength(1);
    // A different decision under the same key is another request.
    const rejectWithSameKey = await reviewer.request('POST', `/api/admin/submissions/${submitted.body.submissionId}/reject`, JSON.stringify({ reason: 'Blurry' }), { ...json, ...approveKey });
    expect(rejectWithSameKey.status).toBe(422);
  });
});

describe('one transfer reference pays one withdrawal', () => {
  it('lets exactly one of two processes pay two withdrawals with one UTR at once, and frees a UTR whose pay was refused', async () => {
    const finance = await pair.signUp(pair.a.url, 'Rohan', ['finance']);
    const users = [await pair.signUp(pair.a.url, 'Asha'), await pair.signUp(pair.b.url, 'Ravi')];
    const funder = await pair.signUp(pair.b.url, 'Neha', ['finance']);
    const ids: string[] = [];
    for (const u of users) {
      expect((await funder.post('/api/admin/adjustments', { mobile: u.mobile, amount: 1000, direction: 'credit', reason: 'Funding' })).status).toBe(201);
      ids.push((await u.post('/api/withdrawals', { amount: 200, bankAccount: BANK })).body.id);
      ids.push((await u.post('/api/withdrawals', { amount: 100, bankAccount: BANK })).body.id);
    }
    const [w1, w2, w3, w4] = ids as [string, string, string, string];
    const race = await Promise.all([
      finance.clone(pair.a.url).post(`/api/admin/withdrawals/${w1}/paid`, { reference: 'UTR 4242 4242' }),
      finance.clone(pair.b.url).post(`/api/admin/withdrawals/${w3}/paid`, { reference: 'utr42424242' }),
    ]);
    expect(race.map((r) => r.status).sort()).toEqual([200, 409]);
    const refused = race.find((r) => r.status === 409)!;
    expect(refused.body.error.code).toBe('duplicate_reference');
    const paidCount = (await walletEvents(users[0]!.userId, 'WithdrawalPaid')).length + (await walletEvents(users[1]!.userId, 'WithdrawalPaid')).length;
    expect(paidCount).toBe(1);

    // A refused pay (already rejected) does not keep the reference from the withdrawal it belongs to.
    expect((await finance.post(`/api/admin/withdrawals/${w2}/reject`, { reason: 'Account closed' })).status).toBe(200);
    const refusedPay = await finance.post(`/api/admin/withdrawals/${w2}/paid`, { reference: 'UTR77770000' });
    expect([refusedPay.status, refusedPay.body.error.code]).toEqual([409, 'conflict']);
    // Refused before anything is recorded: no reservation made and released.
    expect(await pair.store.readStream(streams.reference('UTR77770000'))).toEqual([]);
    expect((await finance.clone(pair.b.url).post(`/api/admin/withdrawals/${w4}/paid`, { reference: 'UTR77770000' })).status).toBe(200);
    expect((await finance.post(`/api/admin/withdrawals/${w2}/paid`, { reference: 'UTR77770000' })).body.error.code).toBe('duplicate_reference');
  });
});
