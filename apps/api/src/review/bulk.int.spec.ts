import type { BulkReviewBody, SubmissionBody, TaskBody, UserBody, UserTaskBody } from '@kamai/contracts';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTaskAs, submitProof, uploadedImage } from '../tasks/testing.ts';
import { type TestClient, type TestServer, startTestServer } from '../testing/index.ts';

const UNKNOWN = '00000000-0000-4000-8000-000000000000';

describe('bulk review over HTTP', () => {
  let server: TestServer;
  let admin: TestClient;
  let reviewer: Awaited<ReturnType<TestServer['signUp']>>;
  let task: TaskBody;

  beforeAll(async () => {
    server = await startTestServer();
    admin = await server.signUp({ roles: ['admin'] });
    reviewer = await server.signUp({ roles: ['reviewer'] });
    task = await createTaskAs(admin, { title: 'Rate PhonePe', rupeeReward: '25' });
  });
  afterAll(() => server.close());

  async function submitted(by?: typeof reviewer) {
    const user = by ?? (await server.signUp());
    const res = await submitProof(user, task.id, await uploadedImage(server, user));
    expect(res.status).toBe(201);
    return { user, submissionId: (res.body as UserTaskBody).submissionId };
  }
  const bulk = (body: unknown, headers?: Record<string, string>) =>
    reviewer.request<BulkReviewBody>('POST', '/api/admin/submissions/bulk', body, { 'content-type': 'application/json', ...headers });
  const status = async (id: string) =>
    (await server.db.selectFrom('proof_submissions').select('status').where('id', '=', id).executeTakeFirst())?.status;
  const balance = async (user: TestClient) => (await user.get<UserBody>('/api/auth/user')).body.totalRupees;

  it('refuses a bad body with 400 and decides nothing', async () => {
    const { submissionId } = await submitted();
    for (const body of [
      {},
      { ids: [], decision: 'approve' },
      { ids: Array.from({ length: 101 }, () => UNKNOWN), decision: 'approve' },
      { ids: ['not-a-uuid'], decision: 'approve' },
      { ids: [submissionId], decision: 'maybe' },
      { ids: [submissionId], decision: 'reject' },
      { ids: [submissionId], decision: 'reject', reason: '   ' },
    ]) {
      const res = await bulk(body);
      expect(res.status, JSON.stringify(body)).toBe(400);
    }
    const noReason = await bulk({ ids: [submissionId], decision: 'reject' });
    expect((noReason.body as unknown as { error: { fields: Record<string, string> } }).error.fields.reason).toBe('Please give a reason for the rejection');
    expect(await status(submissionId)).toBe('submitted');
    // Only reviewers; admins set rewards and so may not approve them.
    expect((await admin.request('POST', '/api/admin/submissions/bulk', { ids: [submissionId], decision: 'approve' })).status).toBe(403);
    expect(await status(submissionId)).toBe('submitted');
  });

  it('decides each id on its own: approved, already decided, unknown and own submission side by side', async () => {
    const a = await submitted();
    const b = await submitted();
    const own = await submitted(reviewer);
    // Decided by someone else first: a conflict for this bulk, nothing changed.
    expect((await reviewer.post<SubmissionBody>(`/api/admin/submissions/${b.submissionId}/reject`, { reason: 'Blurry' })).status).toBe(200);

    const res = await bulk({ ids: [a.submissionId, b.submissionId, UNKNOWN, own.submissionId, a.submissionId.toUpperCase()], decision: 'approve' });
    expect(res.status).toBe(200);
    expect(res.body.results).toEqual([
      { id: a.submissionId, result: 'approved' },
      { id: b.submissionId, result: 'conflict' },
      { id: UNKNOWN, result: 'not_found' },
      { id: own.submissionId, result: 'own_submission' },
    ]);
    expect(await status(a.submissionId)).toBe('approved');
    expect(await status(b.submissionId)).toBe('rejected');
    expect(await status(own.submissionId)).toBe('submitted');
    expect(await balance(a.user)).toBe('25.00');
    expect(await balance(b.user)).toBe('0.00');
  });

  it('rejects with the reason, and a keyed retry answers the same without deciding twice', async () => {
    const c = await submitted();
    const d = await submitted();
    const body = { ids: [c.submissionId, d.submissionId], decision: 'reject', reason: 'Screenshot of another app' };
    const headers = { 'idempotency-key': `bulk-${Math.random().toString(36).slice(2)}` };
    const first = await bulk(body, headers);
    expect(first.status).toBe(200);
    expect(first.body.results.map((r) => r.result)).toEqual(['rejected', 'rejected']);
    const again = await bulk(body, headers);
    expect(again.status).toBe(200);
    expect(again.body.results).toEqual(first.body.results);
    for (const { submissionId } of [c, d]) {
      const row = await server.db.selectFrom('proof_submissions').select(['status', 'rejection_reason']).where('id', '=', submissionId).executeTakeFirst();
      expect(row).toEqual({ status: 'rejected', rejection_reason: 'Screenshot of another app' });
    }
    // Each rejection notified its user once.
    const rejections = await server.db.selectFrom('notifications').select('user_id').where('user_id', 'in', [c.user.userId, d.user.userId]).where('message_key', '=', 'proof_rejected').execute();
    expect(rejections).toHaveLength(2);
  });
});
