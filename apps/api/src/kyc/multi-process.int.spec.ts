import { type KycDocumentBody, streams } from '@kamai/contracts';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type ApiPair, startApiPair } from '../testing/process.ts';
import { submitDocument } from './testing.ts';

// Two API processes on one DATA_DIR (one event store, one read database): the user's stream
// revision is what makes the bonus claim and a document's review happen exactly once.
const CLAIMS = 50;

let pair: ApiPair;
beforeAll(async () => {
  pair = await startApiPair('kyc-race');
});
afterAll(async () => {
  await pair?.close();
});

describe('KYC exactly once across two API processes', () => {
  it(`two reviewers approving one document at once: one 200, one 409; then ${CLAIMS} concurrent claims: one 200, one ₹200 credit`, async () => {
    const { a, b, store } = pair;
    const user = await pair.signUp(a.url, 'Ravi');
    const pan: KycDocumentBody = await submitDocument(a.url, user, 'pan', 11);
    const voter: KycDocumentBody = await submitDocument(b.url, user.clone(b.url), 'voter_id', 13);

    const reviewers = [await pair.signUp(a.url, 'Kavya', ['reviewer']), await pair.signUp(b.url, 'Meena', ['reviewer'])];
    for (const doc of [pan, voter]) {
      const results = await Promise.all([
        reviewers[0]!.clone(a.url).post(`/api/admin/kyc/${doc.id}/approve`),
        reviewers[1]!.clone(b.url).post(`/api/admin/kyc/${doc.id}/approve`),
      ]);
      expect(results.map((r) => r.status).sort()).toEqual([200, 409]);
      expect(results.find((r) => r.status === 409)?.body.error.message).toBe('This document has already been reviewed');
    }
    const userEvents = await store.readStream(streams.user(user.userId));
    expect(userEvents.filter((e) => e.type === 'KycDocumentApproved')).toHaveLength(2);

    const claims = await Promise.all(Array.from({ length: CLAIMS }, (_, i) => user.clone(i % 2 ? a.url : b.url).post('/api/kyc/complete')));
    const statuses = claims.map((r) => r.status).sort();
    expect(statuses).toEqual([200, ...Array<number>(CLAIMS - 1).fill(409)]);
    expect(claims.find((r) => r.status === 200)?.body).toEqual({ rupees: '200.00', balance: '200.00' });
    for (const refused of claims.filter((r) => r.status === 409)) {
      // A loser either saw the claim already made, or (rarely) kept losing the race: never a second credit.
      expect(['kyc_bonus_already_claimed', 'busy']).toContain(refused.body.error.code);
    }

    const events = await store.readStream(streams.user(user.userId));
    const credits = events.filter((e) => e.type === 'WalletCredited');
    expect(credits).toHaveLength(1);
    expect(credits[0]?.data).toMatchObject({ amountPaise: 20000, kind: 'kyc_bonus' });
    expect(events.filter((e) => e.type === 'KycBonusClaimed')).toHaveLength(1);
    for (const url of [a.url, b.url]) {
      expect((await user.clone(url).get('/api/auth/user')).body).toMatchObject({ totalRupees: '200.00', kycStatus: 'bonus_claimed' });
    }
  });
});
