import { readFile } from 'node:fs/promises';
import { fileURLToPath } from 'node:url';
import { type SubmissionBody, SubmissionBody as SubmissionSchema, type TaskBody, type UserTaskBody, maskMobile } from '@kamai/contracts';
import * as v from 'valibot';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTaskAs, submitProof, upload } from '../tasks/testing.ts';
import { type TestClient, type TestServer, startTestServer } from '../testing/index.ts';

const fixture = (name: string) => readFile(fileURLToPath(new URL(`../../../../scripts/fixtures/proofs/${name}`, import.meta.url)));

describe('the review queue flags a proof: near-duplicate pictures, fast work, the worker', () => {
  let server: TestServer;
  let admin: TestClient;
  let reviewer: TestClient;
  let task: TaskBody;
  let otherTask: TaskBody;

  beforeAll(async () => {
    server = await startTestServer();
    admin = await server.signUp({ roles: ['admin'] });
    reviewer = await server.signUp({ roles: ['reviewer'] });
    task = await createTaskAs(admin, { title: 'Rate FreshCart', estimatedTime: '3 min' });
    otherTask = await createTaskAs(admin, { title: 'Read the news', estimatedTime: 'a short while', taskType: 'website' });
  });
  afterAll(() => server.close());

  /** A new user who sends this fixture picture as proof for `forTask` (tapping Start first when asked). */
  async function proofOf(name: string, forTask: TaskBody, options: { start?: boolean } = {}) {
    const user = await server.signUp();
    if (options.start) expect((await user.post(`/api/tasks/${forTask.id}/start`)).status).toBe(200);
    const answer = await upload(server, user, await fixture(name), name.endsWith('.jpg') ? 'image/jpeg' : 'image/png');
    expect(answer.putStatus).toBe(201);
    const res = await submitProof(user, forTask.id, answer.objectURL);
    expect(res.status, JSON.stringify(res.body)).toBe(201);
    return { user, submissionId: (res.body as UserTaskBody).submissionId };
  }

  async function queueItem(id: string): Promise<SubmissionBody> {
    const res = await reviewer.get<SubmissionBody[]>('/api/admin/submissions?status=submitted');
    expect(res.status).toBe(200);
    const item = res.body.find((s) => s.id === id);
    expect(item).toBeDefined();
    // The answer keeps its contract.
    v.parse(SubmissionSchema, item);
    return item!;
  }

  it('lists a resized and re-encoded copy sent by another user for another task, and not a different screen', async () => {
    const original = await proofOf('rating-1.png', task);
    const copy = await proofOf('rating-1.resized-jpeg.jpg', otherTask);
    const cropped = await proofOf('rating-1.cropped.png', task);
    const different = await proofOf('game-1.png', task);

    const first = await queueItem(original.submissionId);
    expect(first.similarProofs.map((p) => p.submissionId).sort()).toEqual([copy.submissionId, cropped.submissionId].sort());
    const toCopy = first.similarProofs.find((p) => p.submissionId === copy.submissionId);
    expect(toCopy?.mobileMasked).toBe(maskMobile(copy.user.mobile));
    expect(toCopy?.distance).toBeLessThanOrEqual(7);
    // Both ways: the copy names the original.
    expect((await queueItem(copy.submissionId)).similarProofs.map((p) => p.submissionId)).toContain(original.submissionId);
    expect((await queueItem(different.submissionId)).similarProofs).toEqual([]);
    // The full mobile never leaves in the flag.
    expect(JSON.stringify(first.similarProofs)).not.toContain(copy.user.mobile);

    // A decision's answer carries the same flags as the queue showed.
    const approved = await reviewer.post<SubmissionBody>(`/api/admin/submissions/${original.submissionId}/approve`);
    expect(approved.status).toBe(200);
    expect(approved.body.similarProofs).toEqual(first.similarProofs);
    const rejected = await reviewer.post<SubmissionBody>(`/api/admin/submissions/${copy.submissionId}/reject`, { reason: 'Copied screenshot' });
    expect(rejected.status).toBe(200);
    expect(rejected.body.similarProofs.map((p) => p.submissionId)).toEqual(expect.arrayContaining([original.submissionId, cropped.submissionId]));
    const other = await reviewer.post<SubmissionBody>(`/api/admin/submissions/${different.submissionId}/approve`);
    expect(other.status).toBe(200);
    expect(other.body.similarProofs).toEqual([]);
  });

  it('measures the time from Start to proof, fast under a quarter of the estimate, null without Start', async () => {
    const started = await proofOf('article-1.png', task, { start: true });
    const item = await queueItem(started.submissionId);
    expect(item.secondsToProof).not.toBeNull();
    // The estimate is 3 minutes: a proof sent right after Start is well under 45 s.
    expect(item.secondsToProof!).toBeLessThan(45);
    expect(item.fast).toBe(true);

    const unstarted = await queueItem((await proofOf('article-2.png', task)).submissionId);
    expect(unstarted).toMatchObject({ secondsToProof: null, fast: false });
    // A task whose estimate names no time is never flagged fast.
    const vague = await queueItem((await proofOf('shop-1.png', otherTask, { start: true })).submissionId);
    expect(vague.secondsToProof).not.toBeNull();
    expect(vague.fast).toBe(false);
  });

  it('shows the worker: approval rate and counts, account age, KYC status, suspended', async () => {
    const { user, submissionId } = await proofOf('shop-2.png', task);
    expect((await queueItem(submissionId)).worker).toEqual({ approvalRate: null, approvedCount: 0, rejectedCount: 0, accountAgeDays: 0, kycStatus: 'pending', suspended: false });

    // One approved, one rejected, on two other tasks.
    const more = [await createTaskAs(admin, { title: 'Task A' }), await createTaskAs(admin, { title: 'Task B' })];
    const ids: string[] = [];
    for (const t of more) {
      const answer = await upload(server, user, await fixture('game-2.png'));
      const res = await submitProof(user, t.id, answer.objectURL);
      expect(res.status).toBe(201);
      ids.push((res.body as UserTaskBody).submissionId);
    }
    expect((await reviewer.post(`/api/admin/submissions/${ids[0]}/approve`)).status).toBe(200);
    expect((await reviewer.post(`/api/admin/submissions/${ids[1]}/reject`, { reason: 'Wrong app' })).status).toBe(200);
    expect((await admin.post(`/api/admin/users/${user.userId}/suspend`, { reason: 'Copied screenshots' })).status).toBe(200);

    expect((await queueItem(submissionId)).worker).toEqual({ approvalRate: 0.5, approvedCount: 1, rejectedCount: 1, accountAgeDays: 0, kycStatus: 'pending', suspended: true });
    expect((await admin.post(`/api/admin/users/${user.userId}/unsuspend`)).status).toBe(200);
    expect((await queueItem(submissionId)).worker.suspended).toBe(false);
  });
});
