import { execFile } from 'node:child_process';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { type AuditEntryBody, type TaskBody, type UserTaskBody, streams } from '@kamai/contracts';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type TestServer, startTestServer } from '@kamai/api/testing';

/** A 1×1 PNG. */
const TINY_PNG = Buffer.from('iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAQAAAC1HAwCAAAAC0lEQVR42mNkYAAAAAYAAjCB0C8AAAAASUVORK5CYII=', 'base64');

const run = promisify(execFile);
const root = join(import.meta.dirname, '../..');
const cli = (dataDir: string, ...args: string[]) =>
  run(join(root, 'node_modules/.bin/tsx'), [join(root, 'scripts/src/cli.ts'), ...args], { cwd: root, env: { ...process.env, DATA_DIR: dataDir } });

let server: TestServer;
// The app's clock runs 73 hours behind: its proofs look that old to a sweep run now (a sweep's --now
// may only reach back, never ahead).
const BEHIND_MS = 73 * 3600_000;
beforeAll(async () => {
  server = await startTestServer({}, { now: () => new Date(Date.now() - BEHIND_MS) });
}, 120_000);
afterAll(async () => {
  await server?.close();
});

describe('auto-approval sweep', () => {
  it('two sweeps at once (two CLI processes beside the running app) approve each due proof once, as `system`', { timeout: 240_000 }, async () => {
    const admin = await server.signUp({ roles: ['admin'] });
    const task = (await admin.post<TaskBody>('/api/admin/tasks', { title: 'Rate PhonePe', description: 'Rate it', rupeeReward: '25' })).body;
    const users = await Promise.all([server.signUp(), server.signUp(), server.signUp()]);
    const submissions: UserTaskBody[] = [];
    for (const user of users) {
      const slot = await user.post('/api/objects/upload');
      expect((await fetch(new URL(slot.body.uploadURL, server.url), { method: 'PUT', body: TINY_PNG, headers: { 'content-type': 'image/png' } })).status).toBe(201);
      const res = await user.post<UserTaskBody>(`/api/tasks/${task.id}/submit-proof`, { proofImageUrl: slot.body.objectURL, proofDescription: 'Done' });
      expect(res.status).toBe(201);
      submissions.push(res.body);
    }
    // The worker sees when it will be decided: 72 hours (the default) after it came in.
    const mine = (await users[0]!.get<UserTaskBody[]>('/api/user-tasks')).body[0]!;
    expect(mine.decideBy).toBe(new Date(Date.parse(mine.submittedAt) + 72 * 3600_000).toISOString());

    // Not yet due: nothing happens.
    const early = await cli(server.dataDir, 'run-auto-approvals', '--now', new Date(Date.now() - 2 * 3600_000).toISOString());
    expect(early.stdout).toMatch(/auto-approved 0 submissions/);
    // A sweep dated ahead of the present is refused: credits dated in the future could be spent at
    // once while every balance as of an earlier day went below zero.
    const ahead = await cli(server.dataDir, 'run-auto-approvals', '--now', new Date(Date.now() + 3600_000).toISOString()).catch((err: { code: number; stderr: string }) => err);
    expect('code' in ahead && ahead.code).not.toBe(0);
    expect((ahead as { stderr: string }).stderr).toMatch(/may not be later than the present/);

    const later = new Date(Date.now() - 1000).toISOString();
    const outputs = await Promise.all([cli(server.dataDir, 'run-auto-approvals', '--now', later), cli(server.dataDir, 'run-auto-approvals', '--now', later)]);
    const approvedBy = outputs.map((o) => Number(/auto-approved (\d+)/.exec(o.stdout)?.[1]));
    expect(approvedBy[0]! + approvedBy[1]!).toBe(users.length);

    for (const [i, user] of users.entries()) {
      const events = await server.store.readStream(streams.user(user.userId));
      expect(events.filter((e) => e.type === 'ProofApproved')).toHaveLength(1);
      expect(events.filter((e) => e.type === 'WalletCredited')).toHaveLength(1);
      expect(events.find((e) => e.type === 'ProofApproved')?.data).toMatchObject({ submissionId: submissions[i]!.submissionId, reviewedBy: 'system' });
    }
    await server.runner.waitFor(await server.store.headPosition());
    expect((await users[0]!.get('/api/auth/user')).body.totalRupees).toBe('25.00');
    const audit = (await admin.get<AuditEntryBody[]>('/api/admin/audit')).body.filter((e) => e.action === 'proof_approved');
    expect(audit).toHaveLength(users.length);
    for (const entry of audit) expect(entry.actor.id).toBe('system');

    // Off (0): a sweep approves nothing.
    expect((await server.applySettings({ autoApproveAfterHours: 0 })).autoApproveAfterHours).toBe(0);
    expect((await admin.get('/api/settings')).body.autoApproveAfterHours).toBe(0);
  });
});
