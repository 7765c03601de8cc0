import { type TaskBody, type TaskFiguresBody, type UserTaskBody, streams } from '@kamai/contracts';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { TINY_PNG } from '../object-storage/testing.ts';
import { type ApiPair, startApiPair } from '../testing/process.ts';

// Fifty users on two API processes (one event store) submitting proof for a ten-slot task at the
// same moment: the task stream's revision lets exactly ten take a slot.
const USERS = 50;
const SLOTS = 10;

let pair: ApiPair;
beforeAll(async () => {
  pair = await startApiPair('slots-race');
}, 180_000);
afterAll(async () => {
  await pair?.close();
});

describe(`${USERS} users racing for a ${SLOTS}-slot task across two API processes`, () => {
  it('accepts exactly ten, answers task_full to the rest, and a rejection gives a slot back', { timeout: 180_000 }, async () => {
    const { a, b, store } = pair;
    const admin = await pair.signUp(a.url, 'Arjun', ['admin']);
    const created = await admin.post<TaskBody>('/api/admin/tasks', {
      title: 'Rate PhonePe', description: 'Rate it', rupeeReward: '25', maxCompletions: SLOTS,
    });
    expect(created.status).toBe(201);
    expect(created.body).toMatchObject({ maxCompletions: SLOTS, slotsUsed: 0, expiresAt: null });
    const taskId = created.body.id;

    const users = [];
    for (let i = 0; i < USERS; i++) users.push(await pair.signUp(i % 2 ? b.url : a.url, `Worker${i}`));
    const images = await Promise.all(
      users.map(async (user) => {
        const slot = await user.post('/api/objects/upload');
        const put = await fetch(new URL(slot.body.uploadURL, user.baseUrl), { method: 'PUT', body: TINY_PNG, headers: { 'content-type': 'image/png' } });
        expect(put.status).toBe(201);
        return slot.body.objectURL as string;
      }),
    );

    const results = await Promise.all(
      users.map((user, i) => user.post<UserTaskBody>(`/api/tasks/${taskId}/submit-proof`, { proofImageUrl: images[i], proofDescription: 'Rated 5 stars' })),
    );
    const accepted = results.filter((r) => r.status === 201);
    expect(accepted).toHaveLength(SLOTS);
    for (const refused of results.filter((r) => r.status !== 201)) {
      expect(refused.status).toBe(409);
      expect((refused.body as unknown as { error: { code: string } }).error.code).toBe('task_full');
    }
    const taskEvents = await store.readStream(streams.task(taskId));
    expect(taskEvents.filter((e) => e.type === 'TaskSlotTaken')).toHaveLength(SLOTS);
    expect(taskEvents.filter((e) => e.type === 'TaskSlotReleased')).toHaveLength(0);
    const proofs = await Promise.all(users.map(async (user) => (await store.readStream(streams.user(user.userId))).filter((e) => e.type === 'ProofSubmitted')));
    expect(proofs.flat()).toHaveLength(SLOTS);

    // A full task leaves the users' lists, on both processes.
    const refusedUser = users[results.findIndex((r) => r.status === 409)]!;
    const waitForList = async (url: string, present: boolean) => {
      const deadline = Date.now() + 10_000;
      for (;;) {
        const listed = (await refusedUser.clone(url).get<TaskBody[]>('/api/tasks')).body.some((t) => t.id === taskId);
        if (listed === present) return;
        if (Date.now() > deadline) throw new Error(`task ${present ? 'not' : 'still'} listed on ${url}`);
        await new Promise((r) => setTimeout(r, 25));
      }
    };
    await waitForList(a.url, false);
    await waitForList(b.url, false);

    // A rejection gives the slot back: the task is listed again and the next user gets in.
    const reviewer = await pair.signUp(b.url, 'Kavya', ['reviewer']);
    const rejected = await reviewer.post(`/api/admin/submissions/${accepted[0]!.body.submissionId}/reject`, { reason: 'Blurry screenshot' });
    expect(rejected.status).toBe(200);
    await waitForList(a.url, true);
    const again = await refusedUser.clone(a.url).post(`/api/tasks/${taskId}/submit-proof`, {
      proofImageUrl: images[users.indexOf(refusedUser)], proofDescription: 'Rated 5 stars',
    });
    expect(again.status).toBe(201);

    // The admin's figures: ten slots used (nine under review and the new one), one rejected.
    const figures = await admin.get<TaskFiguresBody[]>('/api/admin/task-figures');
    expect(figures.status).toBe(200);
    expect(figures.body.find((f) => f.taskId === taskId)).toMatchObject({
      slotsUsed: SLOTS, slotsLeft: 0, underReviewCount: SLOTS, rejectedCount: 1, approvedCount: 0,
      underReviewRupees: '250.00', approvedRupees: '0.00', approvalRate: 0, expired: false,
    });
  });
});
