import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { type Role, type TaskBody, type UserTaskBody, streams } from '@kamai/contracts';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { grantRole } from '../auth/accounts.ts';
import { type SqliteEventStore, openSqliteEventStore } from '../event-store/sqlite.ts';
import { TINY_PNG } from '../object-storage/testing.ts';
import { type ApiProcess, startApiProcess } from '../testing/process.ts';
import { TestClient, freshMobile } from '../testing/server.ts';

// Reviewers on two API processes (one DATA_DIR: one event store, one read database) approving the
// same submission at the same moment: the user's stream revision lets exactly one credit through.
const APPROVALS = 10;

let dataDir: string;
let a: ApiProcess;
let b: ApiProcess;
let store: SqliteEventStore;

beforeAll(async () => {
  dataDir = mkdtempSync(join(tmpdir(), 'kamai-review-race-'));
  [a, b] = await Promise.all([startApiProcess(dataDir), startApiProcess(dataDir)]);
  store = openSqliteEventStore(join(dataDir, 'events.sqlite'));
});
afterAll(async () => {
  await store?.close();
  await Promise.all([a?.stop(), b?.stop()]);
  rmSync(dataDir, { recursive: true, force: true });
});

async function register(url: string, firstName: string, role?: Role) {
  const client = new TestClient(url);
  const mobile = freshMobile();
  const res = await client.post('/api/auth/register', { mobile, password: 'secret123', firstName, lastName: 'Test' });
  expect(res.status).toBe(201);
  const userId = (res.body as { id: string }).id;
  if (role) {
    await grantRole(store, userId, role, 'test', new Date());
    // The grant reaches the shared read model through a process's runner.
    for (let i = 0; i < 100 && !(await client.get('/api/auth/user')).body.roles.includes(role); i++) await new Promise((r) => setTimeout(r, 50));
  }
  return Object.assign(client, { mobile, userId });
}

describe(`${APPROVALS} concurrent approvals of one submission across two API processes`, () => {
  it('answers one 200 and 409 to the rest, and credits the reward once', async () => {
    const admin = await register(a.url, 'Arjun', 'admin');
    const created = await admin.post<TaskBody>('/api/admin/tasks', { title: 'Rate PhonePe', description: 'Rate it', rupeeReward: '25' });
    expect(created.status).toBe(201);

    const user = await register(b.url, 'Ravi');
    const slot = await user.post('/api/objects/upload');
    expect((await fetch(new URL(slot.body.uploadURL, b.url), { method: 'PUT', body: TINY_PNG, headers: { 'content-type': 'image/png' } })).status).toBe(201);
    // Submitted on process A, right after the upload went to B.
    const submitted = await user.clone(a.url).post<UserTaskBody>(`/api/tasks/${created.body.id}/submit-proof`, {
      proofImageUrl: slot.body.objectURL,
      proofDescription: 'Rated 5 stars',
    });
    expect(submitted.status).toBe(201);

    const reviewers = [await register(a.url, 'Kavya', 'reviewer'), await register(b.url, 'Meena', 'reviewer')];
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
