import type { TaskSignalBody, UserTaskBody } from '@kamai/contracts';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type TestClient, type TestServer, startTestServer } from '../testing/index.ts';
import { createTaskAs, submitProof, uploadedImage } from './testing.ts';

const MINUTE = 60_000;

describe('GET /api/task-signals: each task\'s median review time and approval share over 30 days', () => {
  let server: TestServer;
  /** The server's clock, moved by the test: the proofs' and decisions' times are its. */
  let at = new Date(Date.now() - 40 * 24 * 60 * MINUTE);
  const later = (ms: number) => (at = new Date(at.getTime() + ms));

  beforeAll(async () => {
    server = await startTestServer({}, { now: () => at });
  });
  afterAll(() => server?.close());

  async function proof(worker: TestClient, taskId: string): Promise<string> {
    const sent = await submitProof(worker, taskId, await uploadedImage(server, worker));
    expect(sent.status, JSON.stringify(sent.body)).toBe(201);
    return (sent.body as UserTaskBody).submissionId;
  }

  it('counts the proofs decided in the window only, from proof to decision', async () => {
    const admin = await server.signUp({ roles: ['admin'] });
    const task = await createTaskAs(admin, { title: 'Rate the tea stall' });
    const quiet = await createTaskAs(admin, { title: 'Nobody has done this' });

    // Forty days ago: a proof rejected after two hours, outside the window by now.
    const old = await server.signUp({ roles: ['reviewer'] });
    const early = await server.signUp();
    const stale = await proof(early, task.id);
    later(120 * MINUTE);
    expect((await old.post(`/api/admin/submissions/${stale}/reject`, { reason: 'Blurry picture' })).status).toBe(200);

    // Today: one approved after 30 minutes, one rejected after 90.
    at = new Date();
    const reviewer = await server.signUp({ roles: ['reviewer'] });
    const [first, second] = [await server.signUp(), await server.signUp()];
    const a = await proof(first, task.id);
    const b = await proof(second, task.id);
    later(30 * MINUTE);
    expect((await reviewer.post(`/api/admin/submissions/${a}/approve`)).status).toBe(200);
    later(60 * MINUTE);
    expect((await reviewer.post(`/api/admin/submissions/${b}/reject`, { reason: 'Wrong app' })).status).toBe(200);

    const res = await first.get<TaskSignalBody[]>('/api/task-signals');
    expect(res.status).toBe(200);
    expect(res.body).toEqual([{ taskId: task.id, decisions: 2, medianReviewMinutes: 60, approvalPercent: 50 }]);
    expect(res.body.some((s) => s.taskId === quiet.id)).toBe(false);
  });
});
