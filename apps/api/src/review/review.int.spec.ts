import { randomUUID } from 'node:crypto';
import type { SubmissionBody, TaskBody, UserBody, UserTaskBody } from '@kamai/contracts';
import { listNotifications, listTransactions } from '@kamai/projections';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTaskAs, deleteTaskAs, submitProof, taskInput, updateTaskAs, uploadedImage } from '../tasks/testing.ts';
import { type TestClient, type TestServer, startTestServer } from '../testing/index.ts';

describe('proof review over HTTP', () => {
  let server: TestServer;
  let admin: TestClient;
  let reviewer: TestClient;
  let reviewer2: TestClient;
  let task: TaskBody;

  beforeAll(async () => {
    server = await startTestServer();
    admin = await server.signUp({ roles: ['admin'] });
    reviewer = await server.signUp({ roles: ['reviewer'] });
    reviewer2 = await server.signUp({ roles: ['reviewer'] });
    task = await createTaskAs(admin, { title: 'Rate PhonePe', rupeeReward: '25' });
  });
  afterAll(() => server.close());

  /** A new user with one proof submitted for `forTask`; returns the user and the submission id. */
  async function userWithSubmission(forTask: TaskBody = task, name = { firstName: 'Asha', lastName: 'Rao' }) {
    const user = await server.signUp(name);
    const res = await submitProof(user, forTask.id, await uploadedImage(server, user));
    expect(res.status).toBe(201);
    return { user, submissionId: (res.body as UserTaskBody).submissionId };
  }

  const approve = (client: TestClient, id: string) => client.post<SubmissionBody>(`/api/admin/submissions/${id}/approve`);
  const reject = (client: TestClient, id: string, reason: unknown = 'Screenshot is blurry') =>
    client.post<SubmissionBody>(`/api/admin/submissions/${id}/reject`, { reason });
  const balance = async (user: TestClient) => (await user.get<UserBody>('/api/auth/user')).body.totalRupees;
  const credits = async (userId: string) => (await listTransactions(server.db, userId)).filter((t) => t.kind === 'task_reward');

  it('answers 401 when signed out and 403 to users without the reviewer role, admins included', async () => {
    const { submissionId } = await userWithSubmission();
    const finance = await server.signUp({ roles: ['finance'] });
    const plain = await server.signUp();
    const calls = (client: TestClient) => [
      client.get('/api/admin/submissions?status=submitted'),
      approve(client, submissionId),
      reject(client, submissionId, 42),
    ];
    for (const res of await Promise.all(calls(server.client()))) expect(res.status).toBe(401);
    for (const client of [finance, plain, admin]) for (const res of await Promise.all(calls(client))) expect(res.status).toBe(403);
    // Still waiting: none of that touched it.
    expect((await server.db.selectFrom('proof_submissions').select('status').where('id', '=', submissionId).executeTakeFirst())?.status).toBe('submitted');
  });

  it('the queue shows the task, the user name and mobile, the image, the description and the time', async () => {
    const { user, submissionId } = await userWithSubmission(task, { firstName: 'Ravi', lastName: 'Kumar' });
    for (const client of [reviewer, reviewer2]) {
      const res = await client.get<SubmissionBody[]>('/api/admin/submissions?status=submitted');
      expect(res.status).toBe(200);
      expect(res.body.find((s) => s.id === submissionId)).toEqual({
        id: submissionId,
        status: 'submitted',
        taskId: task.id,
        taskTitle: 'Rate PhonePe',
        taskTitleHi: null,
        taskType: 'rating',
        rupeeReward: '25.00',
        userId: user.userId,
        userName: 'Ravi Kumar',
        userMobile: user.mobile,
        proofImageUrl: expect.stringMatching(new RegExp(`^/objects/proofs/${user.userId}/`)),
        proofDescription: 'Rated 5 stars and wrote a review',
        submittedAt: expect.any(String),
        reviewedAt: null,
        reviewedBy: null,
        rejectionReason: null,
        // Every proof of this spec is the same tiny picture: the flags have their own spec.
        similarProofs: expect.any(Array),
        secondsToProof: null,
        fast: false,
        worker: { approvalRate: null, approvedCount: 0, rejectedCount: 0, accountAgeDays: 0, kycStatus: 'pending', suspended: false },
      });
    }
    // The default filter is submitted; other filters work; a bad one is a 400.
    expect((await reviewer.get<SubmissionBody[]>('/api/admin/submissions')).body.map((s) => s.id)).toContain(submissionId);
    expect((await reviewer.get<SubmissionBody[]>('/api/admin/submissions?status=approved')).body.map((s) => s.id)).not.toContain(submissionId);
    expect((await reviewer.get('/api/admin/submissions?status=everything')).status).toBe(400);
    // Reviewers may open the proof image.
    const proof = (await reviewer.get<SubmissionBody[]>('/api/admin/submissions')).body.find((s) => s.id === submissionId)!;
    expect((await reviewer.get(proof.proofImageUrl)).status).toBe(200);
  });

  it('approval credits the reward once: approved status, earned row, balance and a success notification', async () => {
    const { user, submissionId } = await userWithSubmission();
    expect(await balance(user)).toBe('0.00');

    const res = await approve(reviewer, submissionId);
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({ id: submissionId, status: 'approved', reviewedBy: expect.any(String), reviewedAt: expect.any(String) });

    // Read-your-writes: everything is visible right after the answer.
    expect(await balance(user)).toBe('25.00');
    expect((await user.get<UserBody>('/api/auth/user')).body.totalEarned).toBe('25.00');
    expect((await user.get<UserTaskBody[]>('/api/user-tasks')).body).toEqual([
      expect.objectContaining({ taskId: task.id, status: 'approved', rupeesEarned: '25.00', completedAt: expect.any(String), rejectionReason: null }),
    ]);
    expect(await listTransactions(server.db, user.userId)).toEqual([
      expect.objectContaining({ type: 'earned', direction: 'credit', kind: 'task_reward', amount: '25.00', taskId: task.id }),
    ]);
    expect(await listNotifications(server.db, user.userId)).toEqual([
      expect.objectContaining({ type: 'success', title: 'Task Approved', message: '₹25.00 has been added to your wallet for "Rate PhonePe"', isRead: false }),
    ]);
    // It left the queue.
    expect((await reviewer.get<SubmissionBody[]>('/api/admin/submissions')).body.map((s) => s.id)).not.toContain(submissionId);

    // Reviewing it again, either way, is a 409 and credits nothing more.
    for (const again of [await approve(reviewer, submissionId), await approve(reviewer2, submissionId), await reject(reviewer2, submissionId)]) {
      expect(again.status).toBe(409);
      expect((again.body as unknown as { error: { message: string } }).error.message).toBe('This submission has already been reviewed');
    }
    expect(await credits(user.userId)).toHaveLength(1);
    expect(await balance(user)).toBe('25.00');
    // And the user cannot submit for a completed task.
    expect((await submitProof(user, task.id, await uploadedImage(server, user))).status).toBe(409);
  });

  it('three reviewers approving one submission at once: one 200, two 409, one credit', async () => {
    const reviewer3 = await server.signUp({ roles: ['reviewer'] });
    for (let round = 0; round < 5; round++) {
      const { user, submissionId } = await userWithSubmission();
      const results = await Promise.all([approve(reviewer, submissionId), approve(reviewer2, submissionId), approve(reviewer3, submissionId)]);
      expect(results.map((r) => r.status).sort()).toEqual([200, 409, 409]);
      for (const r of results.filter((x) => x.status === 409)) {
        expect((r.body as unknown as { error: { message: string } }).error.message).toBe('This submission has already been reviewed');
      }
      expect(await credits(user.userId)).toHaveLength(1);
      expect(await balance(user)).toBe('25.00');
    }
  });

  it('an approval racing a rejection: exactly one wins', async () => {
    const { user, submissionId } = await userWithSubmission();
    const [a, r] = await Promise.all([approve(reviewer, submissionId), reject(reviewer2, submissionId)]);
    expect([a.status, r.status].sort()).toEqual([200, 409]);
    const status = (await user.get<UserTaskBody[]>('/api/user-tasks')).body[0]?.status;
    expect(status).toBe(a.status === 200 ? 'approved' : 'rejected');
    expect(await credits(user.userId)).toHaveLength(a.status === 200 ? 1 : 0);
  });

  it('rejection needs a reason, records it for the card and dialog, and notifies; the user resubmits and is approved', async () => {
    const { user, submissionId } = await userWithSubmission();
    const url = `/api/admin/submissions/${submissionId}/reject`;
    for (const body of [{}, { reason: '' }, { reason: '   ' }, { reason: 42 }, { reason: null }]) {
      expect((await user.post(url, body)).status).toBe(403);
      const bad = await reviewer.post(url, body);
      expect(bad.status, JSON.stringify(body)).toBe(400);
      expect(bad.body.error.fields.reason).toBe('Please give a reason for the rejection');
    }
    expect((await reviewer.post(url, { reason: 'x'.repeat(501) })).status).toBe(400);
    const rejected = await reject(reviewer, submissionId, '  Screenshot is blurry ');
    expect(rejected.status).toBe(200);
    expect(rejected.body).toMatchObject({ status: 'rejected', rejectionReason: 'Screenshot is blurry' });
    expect((await user.get<UserTaskBody[]>('/api/user-tasks')).body[0]).toMatchObject({ status: 'rejected', rejectionReason: 'Screenshot is blurry', rupeesEarned: null });
    expect((await listNotifications(server.db, user.userId))[0]).toMatchObject({ type: 'warning', title: 'Proof Rejected' });
    expect((await listNotifications(server.db, user.userId))[0]?.message).toContain('Screenshot is blurry');
    expect(await balance(user)).toBe('0.00');

    // Resubmission: rejected -> submitted, with a new submission; the old one stays reviewed.
    const again = await submitProof(user, task.id, await uploadedImage(server, user), 'A sharper screenshot');
    expect(again.status).toBe(201);
    const second = again.body as UserTaskBody;
    expect(second).toMatchObject({ status: 'submitted', proofDescription: 'A sharper screenshot', rejectionReason: null });
    expect(second.submissionId).not.toBe(submissionId);
    expect((await approve(reviewer, submissionId)).status).toBe(409);
    expect((await approve(reviewer, second.submissionId)).status).toBe(200);
    expect(await credits(user.userId)).toHaveLength(1);
    expect(await balance(user)).toBe('25.00');
    expect((await user.get<UserTaskBody[]>('/api/user-tasks')).body).toEqual([
      expect.objectContaining({ id: second.id, status: 'approved', rupeesEarned: '25.00', rejectionReason: null }),
    ]);
  });

  it('answers 404 for an unknown or malformed submission id', async () => {
    for (const id of [randomUUID(), 'nope', '1%20OR%201']) {
      expect((await approve(reviewer, id)).status).toBe(404);
      expect((await reject(reviewer, id)).status).toBe(404);
    }
  });

  it('a reviewer cannot review their own submission', async () => {
    const self = await server.signUp({ roles: ['reviewer'] });
    const res = await submitProof(self, task.id, await uploadedImage(server, self));
    const own = (res.body as UserTaskBody).submissionId;
    expect((await approve(self, own)).status).toBe(403);
    expect((await approve(reviewer, own)).status).toBe(200);
  });

  it('credits the reward the task had when the proof was submitted', async () => {
    const changing = await createTaskAs(admin, { rupeeReward: '20' });
    const { user, submissionId } = await userWithSubmission(changing);
    expect((await updateTaskAs(admin, changing.id, taskInput({ rupeeReward: '50' }))).status).toBe(200);
    expect((await approve(reviewer, submissionId)).body.rupeeReward).toBe('20.00');
    expect(await balance(user)).toBe('20.00');
  });

  it('deleting a task keeps every user history and credit, and a pending proof can still be reviewed', async () => {
    const doomed = await createTaskAs(admin, { title: 'Short-lived task', rupeeReward: '15' });
    const done = await userWithSubmission(doomed);
    expect((await approve(reviewer, done.submissionId)).status).toBe(200);
    const waiting = await userWithSubmission(doomed);

    expect((await deleteTaskAs(admin, doomed.id)).status).toBe(200);

    expect((await done.user.get<UserTaskBody[]>('/api/user-tasks')).body).toEqual([
      expect.objectContaining({ taskId: doomed.id, taskTitle: 'Short-lived task', status: 'approved', rupeesEarned: '15.00' }),
    ]);
    expect(await credits(done.user.userId)).toEqual([expect.objectContaining({ amount: '15.00', taskId: doomed.id })]);
    expect(await balance(done.user)).toBe('15.00');

    const queued = (await reviewer.get<SubmissionBody[]>('/api/admin/submissions')).body.find((s) => s.id === waiting.submissionId);
    expect(queued).toMatchObject({ taskTitle: 'Short-lived task', taskType: null });
    expect((await approve(reviewer, waiting.submissionId)).status).toBe(200);
    expect(await balance(waiting.user)).toBe('15.00');
  });
});
