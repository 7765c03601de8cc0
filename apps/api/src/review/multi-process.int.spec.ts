import { type TaskBody, type UserTaskBody, streams } from '@kamai/contracts';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { TINY_PNG } from '../object-storage/testing.ts';
import { type ApiPair, startApiPair } from '../testing/process.ts';

// Reviewers on two API processes (one DATA_DIR: one event store, one read database) approving the
// same submission at the same moment: the user's stream revision lets exactly one credit through.
const APPROVALS = 10;

let pair: ApiPair;
beforeAll(async () => {
  pair = await startApiPair('review-race');
});
afterAll(async () => {
  await pair?.close();
});

describe(`${APPROVALS} concurrent approvals of one submission across two API processes`, () => {
  it('answers one 200 and 409 to the rest, and credits the reward once', async () => {
    const { a, b, store } = pair;
    const admin = await pair.signUp(a.url, 'Arjun', ['admin']);
    const created = await admin.post<TaskBody>('/api/admin/tasks', { title: 'Rate PhonePe', description: 'Rate it', rupeeReward: '25' });
    expect(created.status).toBe(201);

    const user = await pair.signUp(b.url, 'Ravi');
    const slot = await user.post('/api/objects/upload');
    expect((await fetch(new URL(slot.body.uploadURL, b.url), { method: 'PUT', body: TINY_PNG, headers: { 'content-type': 'image/png' } })).status).toBe(201);
    // Submitted on process A, right after the upload went to B.
    const submitted = await user.clone(a.url).post<UserTaskBody>(`/api/tasks/${created.body.id}/submit-proof`, {
      proofImageUrl: slot.body.objectURL,
      proofDescription: 'Rated 5 stars',
    });
    expect(submitted.status).toBe(201);

    const reviewers = [await pair.signUp(a.url, 'Kavya', ['reviewer']), await pair.signUp(b.url, 'Meena', ['reviewer'])];
    const results = await Promise.all(
      Array.from({ length: APPROVALS }, (_, i) => {
        const reviewer = reviewers[i % 2]!;
        return reviewer.clone(i % 4 < 2 ? a.url : b.url).post(`/api/admin/submissions/${submitted.body.submissionId}/approve`);
      }),
    );
    expect(results.map((r) => r.status).sort()).toEqual([200, ...Array<number>(APPROVALS - 1).fill(409)]);
    for (const refused of results.filter((r) => r.status === 409)) {
      expect(refused.body.error.message).toBe('This submission has already been reviewed');
    }

    const credits = (await store.readStream(streams.user(user.userId))).filter((e) => e.type === 'WalletCredited');
    expect(credits).toHaveLength(1);
    expect(credits[0]?.data).toMatchObject({ amountPaise: 2500, kind: 'task_reward', reference: submitted.body.submissionId });
    for (const url of [a.url, b.url]) expect((await user.clone(url).get('/api/auth/user')).body.totalRupees).toBe('25.00');
  });
});
