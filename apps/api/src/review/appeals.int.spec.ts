import type { AppealBody, SubmissionBody, TaskBody, UserTaskBody } from '@kamai/contracts';
import { listNotifications, listTransactions } from '@kamai/projections';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTaskAs, submitProof, uploadedImage } from '../tasks/testing.ts';
import { type TestClient, type TestServer, startTestServer } from '../testing/index.ts';
import { runAutoApprovals } from './auto-approve.ts';

const HOUR = 60 * 60 * 1000;

describe('needs changes: a proof sent back, resubmitted or lapsing into a rejection', () => {
  let server: TestServer;
  let admin: TestClient;
  let reviewer: Awaited<ReturnType<TestServer['signUp']>>;

  beforeAll(async () => {
    server = await startTestServer();
    admin = await server.signUp({ roles: ['admin'] });
    reviewer = await server.signUp({ roles: ['reviewer'] });
  });
  afterAll(() => server.close());

  /** A one-slot task and a person whose proof for it is under review. */
  async function submitted() {
    const task: TaskBody = await createTaskAs(admin, { title: 'Rate Paytm', rupeeReward: '30', maxCompletions: 1 });
    const user = await server.signUp();
    const res = await submitProof(user, task.id, await uploadedImage(server, user));
    expect(res.status).toBe(201);
    return { task, user, submissionId: (res.body as UserTaskBody).submissionId };
  }
  const requestChanges = (id: string, reason: unknown = 'The screenshot does not show your review') =>
    reviewer.post<SubmissionBody>(`/api/admin/submissions/${id}/request-changes`, { reason });
  const myTask = async (user: TestClient, taskId: string) => (await user.get<UserTaskBody[]>('/api/user-tasks')).body.find((t) => t.taskId === taskId);
  const slotsUsed = async (taskId: string) => (await server.db.selectFrom('tasks').select('slots_used').where('id', '=', taskId).executeTakeFirstOrThrow()).slots_used;

  it('sends a proof back with a reason; the person resubmits it (the slot stays held) and it is approved', async () => {
    const { task, user, submissionId } = await submitted();
    expect((await requestChanges(submissionId, '')).status).toBe(400);

    const sent = await requestChanges(submissionId);
    expect(sent.status).toBe(200);
    expect(sent.body).toMatchObject({ id: submissionId, status: 'needs_changes', rejectionReason: 'The screenshot does not show your review' });
    const mine = await myTask(user, task.id);
    expect(mine).toMatchObject({ status: 'needs_changes', changesReason: 'The screenshot does not show your review', rejectionReason: null });
    expect(Date.parse(mine!.resubmitBy!) - Date.parse(mine!.reviewedAt!)).toBe(48 * HOUR);
    expect((await listNotifications(server.db, user.userId))[0]).toMatchObject({ type: 'warning', title: 'Changes Needed' });
    // Not under review any more: neither approved nor sent back twice.
    expect((await reviewer.post(`/api/admin/submissions/${submissionId}/approve`)).status).toBe(409);
    expect((await requestChanges(submissionId)).status).toBe(409);

    // The task's only slot is still this person's: the resubmission is the same submission.
    const again = await submitProof(user, task.id, await uploadedImage(server, user), 'Now with my review visible');
    expect(again.status).toBe(201);
    expect(again.body).toMatchObject({ status: 'submitted', submissionId, proofDescription: 'Now with my review visible', rejectionReason: null });
    expect(await slotsUsed(task.id)).toBe(1);
    // Under review once: a second send is refused.
    expect((await submitProof(user, task.id, await uploadedImage(server, user))).status).toBe(409);

    const approved = await reviewer.post<SubmissionBody>(`/api/admin/submissions/${submissionId}/approve`);
    expect(approved.status).toBe(200);
    expect(approved.body).toMatchObject({ status: 'approved', proofDescription: 'Now with my review visible' });
    expect((await listTransactions(server.db, user.userId)).filter((t) => t.kind === 'task_reward')).toHaveLength(1);
  });

  it('lapses into a rejection by the reviewer who asked, 48 hours later by the command clock, and gives the slot back', async () => {
    const { task, user, submissionId } = await submitted();
    expect((await requestChanges(submissionId, 'Please show the rating')).status).toBe(200);

    // A minute early: nothing.
    const early = await runAutoApprovals({ store: server.store, db: server.db, now: new Date(Date.now() + 48 * HOUR - 60_000) });
    expect(early.lapsed).not.toContain(submissionId);
    expect((await myTask(user, task.id))?.status).toBe('needs_changes');

    const sweep = await runAutoApprovals({ store: server.store, db: server.db, now: new Date(Date.now() + 48 * HOUR + 60_000) });
    expect(sweep.lapsed).toContain(submissionId);
    await server.runner.waitFor(await server.store.headPosition());
    expect(await myTask(user, task.id)).toMatchObject({ status: 'rejected', rejectionReason: 'Please show the rating' });
    const row = await server.db.selectFrom('proof_submissions').select(['status', 'reviewed_by']).where('id', '=', submissionId).executeTakeFirstOrThrow();
    expect(row).toEqual({ status: 'rejected', reviewed_by: reviewer.userId });
    expect(await slotsUsed(task.id)).toBe(0);
    expect((await listNotifications(server.db, user.userId))[0]).toMatchObject({ title: 'Proof Rejected' });
    // A second sweep finds nothing more to lapse.
    const again = await runAutoApprovals({ store: server.store, db: server.db, now: new Date(Date.now() + 49 * HOUR) });
    expect(again.lapsed).not.toContain(submissionId);
  });
});

describe('appeals: a rejection appealed once, decided by another reviewer, an overturn credited once', () => {
  let server: TestServer;
  let admin: TestClient;
  let rejecter: Awaited<ReturnType<TestServer['signUp']>>;
  let second: Awaited<ReturnType<TestServer['signUp']>>;
  // The server's clock: moved forward to pass the appeal window.
  let at = new Date();

  beforeAll(async () => {
    server = await startTestServer({}, { now: () => at });
    admin = await server.signUp({ roles: ['admin'] });
    rejecter = await server.signUp({ roles: ['reviewer'] });
    second = await server.signUp({ roles: ['reviewer'] });
  });
  afterAll(() => server.close());

  /** A person whose proof for a new task was rejected by `rejecter`. */
  async function rejected() {
    const task: TaskBody = await createTaskAs(admin, { title: 'Rate Zomato', rupeeReward: '40' });
    const user = await server.signUp();
    const res = await submitProof(user, task.id, await uploadedImage(server, user));
    const submissionId = (res.body as UserTaskBody).submissionId;
    expect((await rejecter.post(`/api/admin/submissions/${submissionId}/reject`, { reason: 'Wrong app in the screenshot' })).status).toBe(200);
    return { task, user, submissionId };
  }
  const appeal = (user: TestClient, submissionId: string, body: unknown = { note: 'It is the right app, see the title bar' }) =>
    user.post<{ id: string; status: string }>(`/api/submissions/${submissionId}/appeal`, body);
  const decide = (reviewer: TestClient, id: string, body: unknown, key?: string) =>
    reviewer.request<AppealBody>('POST', `/api/admin/appeals/${id}/decide`, body, { 'content-type': 'application/json', ...(key && { 'idempotency-key': key }) });
  const rewards = async (userId: string) => (await listTransactions(server.db, userId)).filter((t) => t.kind === 'task_reward');

  it('walks reject, appeal, the rejecting reviewer refused, a second reviewer overturning (credited once), a second appeal refused', async () => {
    const { user, submissionId } = await rejected();
    // The person's task says until when it may be appealed: 7 days after the rejection.
    const mine = async () => (await user.get<UserTaskBody[]>('/api/user-tasks')).body.find((t) => t.submissionId === submissionId)!;
    const before = await mine();
    expect(before).toMatchObject({ status: 'rejected', appeal: null });
    expect(Date.parse(before.appealBy!) - Date.parse(before.reviewedAt!)).toBe(7 * 24 * HOUR);
    // Only the person's own submission, with a note.
    expect((await appeal(second, submissionId)).status).toBe(404);
    expect((await appeal(user, submissionId, { note: '  ' })).status).toBe(400);

    const opened = await appeal(user, submissionId);
    expect(opened.status).toBe(201);
    expect(opened.body).toEqual({ id: expect.any(String), status: 'open' });
    const appealId = opened.body.id;
    const open = await mine();
    expect(open).toMatchObject({ status: 'rejected', appeal: { id: appealId, status: 'open', decisionReason: null, decidedAt: null } });
    expect(open.appealBy).toBeUndefined();
    const again = await appeal(user, submissionId);
    expect(again.status).toBe(409);
    expect((again.body as unknown as { error: { code: string } }).error.code).toBe('appeal_exists');

    const queue = await second.get<AppealBody[]>('/api/admin/appeals?status=open');
    expect(queue.body.find((a) => a.id === appealId)).toMatchObject({
      status: 'open',
      submissionId,
      userId: user.userId,
      note: 'It is the right app, see the title bar',
      proofImageUrl: null,
      rejectedBy: rejecter.userId,
      rejectionReason: 'Wrong app in the screenshot',
      rupeeReward: '40.00',
    });

    const own = await decide(rejecter, appealId, { decision: 'overturn', reason: 'I was wrong' });
    expect(own.status).toBe(403);
    expect((own.body as unknown as { error: { code: string } }).error.code).toBe('own_rejection');
    expect(await rewards(user.userId)).toHaveLength(0);

    const key = `decide-${appealId}`;
    const overturned = await decide(second, appealId, { decision: 'overturn', reason: 'The title bar shows Zomato' }, key);
    expect(overturned.status).toBe(200);
    expect(overturned.body).toMatchObject({ id: appealId, status: 'overturned', decidedBy: second.userId, decisionReason: 'The title bar shows Zomato' });
    // The keyed retry answers the same and credits nothing more; an unkeyed one finds it decided.
    const retry = await decide(second, appealId, { decision: 'overturn', reason: 'The title bar shows Zomato' }, key);
    expect(retry.status).toBe(200);
    expect(retry.body).toEqual(overturned.body);
    expect((await decide(second, appealId, { decision: 'uphold', reason: 'Changed my mind' })).status).toBe(409);
    expect(await rewards(user.userId)).toHaveLength(1);
    expect((await rewards(user.userId))[0]).toMatchObject({ amount: '40.00', direction: 'credit' });

    expect(await mine()).toMatchObject({
      status: 'approved',
      rupeesEarned: '40.00',
      appeal: { id: appealId, status: 'overturned', decisionReason: 'The title bar shows Zomato', decidedAt: expect.any(String) },
    });
    expect((await listNotifications(server.db, user.userId))[0]).toMatchObject({ type: 'success', title: 'Appeal Accepted' });
    expect((await second.get<AppealBody[]>('/api/admin/appeals?status=open')).body.find((a) => a.id === appealId)).toBeUndefined();
    expect((await appeal(user, submissionId)).status).toBe(409);
  });

  it('upholds with a reason the person is told, and refuses an appeal more than 7 days after the rejection', async () => {
    const first = await rejected();
    const opened = await appeal(first.user, first.submissionId);
    const upheld = await decide(second, opened.body.id, { decision: 'uphold', reason: 'The screenshot shows another app' });
    expect(upheld.body).toMatchObject({ status: 'upheld' });
    expect((await listNotifications(server.db, first.user.userId))[0]).toMatchObject({ title: 'Appeal Decided' });
    expect(await rewards(first.user.userId)).toHaveLength(0);
    const mine = (await first.user.get<UserTaskBody[]>('/api/user-tasks')).body.find((t) => t.submissionId === first.submissionId);
    expect(mine).toMatchObject({ status: 'rejected', appeal: { status: 'upheld', decisionReason: 'The screenshot shows another app' } });

    const late = await rejected();
    at = new Date(at.getTime() + 7 * 24 * HOUR + 60_000);
    // A week on, the person signs in again (their session has ended) and appeals too late.
    const person = server.client();
    expect((await person.post('/api/auth/login', { mobile: late.user.mobile, password: late.user.password })).status).toBe(200);
    // Past the window the task no longer offers an appeal.
    const lateTask = (await person.get<UserTaskBody[]>('/api/user-tasks')).body.find((t) => t.submissionId === late.submissionId);
    expect(lateTask).toMatchObject({ status: 'rejected' });
    expect(lateTask?.appealBy ?? null).toBeNull();
    const refused = await appeal(person, late.submissionId);
    expect(refused.status).toBe(409);
    expect((refused.body as unknown as { error: { code: string } }).error.code).toBe('appeal_window_closed');
  });
});
