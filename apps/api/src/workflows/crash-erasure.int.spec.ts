import { randomUUID } from 'node:crypto';
import { join } from 'node:path';
import { streams } from '@kamai/contracts';
import Database from 'better-sqlite3';
import { afterAll, describe, expect, it } from 'vitest';
import { grantRole } from '../auth/accounts.ts';
import { submitDocument } from '../kyc/testing.ts';
import { CrashableApi, INLINE_COMMITS, registerAt } from '../testing/crash.ts';
import { TestClient } from '../testing/server.ts';
import { erasurePlan } from './erasure.ts';
import { WORKFLOW_SWEEP_AGE_MS, startWorkflow } from './run.ts';

// The erasure workflow killed after each of its appends in turn (the 1st, the 2nd, ... until a run
// goes through): the API process dies between two steps (testing/crash-main.ts), restarts, and the
// erasure is retried with its key. Afterwards the person is erased once, their number released and
// free to register again, their images and data key gone, the books balanced and the workflow
// complete. Inline commits (testing/crash.ts says why); the sweep's part once.
const cleanups: Array<() => Promise<void>> = [];
afterAll(async () => {
  for (const cleanup of cleanups.reverse()) await cleanup();
});

describe.each(INLINE_COMMITS)('the erasure workflow killed after every append, $name', ({ env }) => {
  it('is resumed by a retry with its key (or by the sweep): erased once, number released, key and images gone, books balanced', async () => {
    const { api: running, store, dataDir } = await CrashableApi.inFreshDataDir('kamai-erasure-crash-', env, cleanups);
    const as = (client: TestClient) => client.clone(running.url);
    const admin = await registerAt(running.url, 'Meera');
    const finance = await registerAt(running.url, 'Rohan');
    const reviewer = await registerAt(running.url, 'Kiran');
    await grantRole(store, admin.userId, 'admin', 'test', new Date());
    await grantRole(store, finance.userId, 'finance', 'test', new Date());
    await grantRole(store, reviewer.userId, 'reviewer', 'test', new Date());
    // The grants reach the read model through the process's runner, in order: the last one seen, all are.
    await expect.poll(async () => (await as(reviewer).get('/api/auth/user')).body.roles, { timeout: 10_000 }).toContain('reviewer');
    expect((await as(admin).put('/api/admin/settings', { deletionCoolingOffHours: 0 })).status).toBe(200);

    const erasedKeys = () => {
      const keys = new Database(join(dataDir, 'keys.sqlite'), { readonly: true });
      try {
        return new Set(keys.prepare('SELECT subject FROM tombstones').pluck().all() as string[]);
      } finally {
        keys.close();
      }
    };
    const typesOf = async (streamId: string) => (await store.readStream(streamId)).map((e) => e.type);

    let kills = 0;
    for (let n = 1; ; n++) {
      // A person with a KYC document (two images) who asked to be deleted.
      const person = await registerAt(running.url, 'Asha');
      const kyc = await submitDocument(running.url, as(person), 'pan', 20 + n * 2);
      const asked = await as(person).post('/api/profile/deletion-request', { password: 'secret123' });
      expect(asked.status).toBe(202);
      const erase = () => as(admin).request('POST', `/api/admin/deletions/${asked.body.id}/erase`, undefined, { 'idempotency-key': `erase-${n}` });
      const run = await running.killedAfter(n, erase);
      if (run.died) {
        kills++;
        const retried = await erase();
        expect(retried.status, `retry after a kill at append ${n}: ${JSON.stringify(retried.body)}`).toBe(200);
        expect(retried.body).toMatchObject({ id: asked.body.id, status: 'erased', mobile: null });
        expect((await erase()).body).toEqual(retried.body);
      } else {
        expect((run.answer as { status: number }).status).toBe(200);
      }
      const at = `after a kill at append ${n}`;
      // Erased exactly once, on the person's stream.
      expect((await typesOf(streams.user(person.userId))).filter((t) => t === 'UserErased'), at).toHaveLength(1);
      // The number released (once), and free for someone new.
      const reservation = store.personal.mobileStreamId(person.mobile);
      expect(await typesOf(reservation), at).toEqual(['MobileReserved', 'MobileReleased']);
      // The data key and the reservation's key gone; the images too.
      const [reserved] = await store.readStream(reservation);
      expect((reserved!.data as { userId: string }).userId, at).toBe('[erased]');
      expect(erasedKeys().has(person.userId), at).toBe(true);
      for (const url of [kyc.frontImageUrl, kyc.backImageUrl]) expect((await as(reviewer).get(url)).status, at).toBe(404);
      // Signed out.
      expect((await as(person).get('/api/auth/user')).status, at).toBe(401);
      // The workflow ran to its end, every step recorded once.
      const workflows = (await store.readAll({ after: 0, limit: 1_000_000 })).filter((e) => e.type === 'WorkflowStarted' && (e.data as { kind: string }).kind === 'erasure');
      const mine = workflows.filter((e) => (e.data as { steps: { target: string }[] }).steps[0]!.target === asked.body.id);
      expect(mine, at).toHaveLength(1);
      const record = await typesOf(mine[0]!.streamId);
      expect(record, at).toEqual(['WorkflowStarted', ...Array<string>(7).fill('WorkflowStepRecorded'), 'WorkflowCompleted']);
      // The books balance.
      const rec = await as(finance).get('/api/admin/ledger/reconciliation');
      expect(rec.body.difference).toBe('0.00');
      const trial = await as(finance).get('/api/admin/ledger/trial-balance');
      expect(trial.body.difference).toBe('0.00');
      // The number registers again.
      const again = await new TestClient(running.url).post('/api/auth/register', { mobile: person.mobile, password: 'secret456', firstName: 'New', lastName: 'Owner', consent: true });
      expect(again.status, at).toBe(201);
      if (!run.died) break;
    }
    // Intent, erase, its outcome, release, its outcome, and the four later outcomes, the end and the key's answer.
    expect(kills).toBeGreaterThanOrEqual(10);
    // The sweep reads no store-specific path: once is enough.
    if (env.EVENT_STORE_WRITER === 'thread') return;

    // An erasure nobody retries (its request died after the intent, a while ago): the sweep at the
    // next start finishes it.
    const person = await registerAt(running.url, 'Asha');
    const asked = await as(person).post('/api/profile/deletion-request', { password: 'secret123' });
    expect(asked.status).toBe(202);
    const workflowId = randomUUID();
    const longAgo = () => new Date(Date.now() - 2 * WORKFLOW_SWEEP_AGE_MS);
    const steps = erasurePlan({ id: asked.body.id, userId: person.userId });
    // Recorded through this test's own connection to the file, dated a while ago.
    await startWorkflow({ store, now: longAgo }, { workflowId, kind: 'erasure', batchId: '', by: admin.userId, steps, approvalThresholdPaise: 0 });
    await running.restart();
    await expect.poll(async () => (await typesOf(streams.workflow(workflowId))).at(-1), { timeout: 60_000 }).toBe('WorkflowCompleted');
    expect((await typesOf(streams.user(person.userId))).filter((t) => t === 'UserErased')).toHaveLength(1);
    expect(await typesOf(store.personal.mobileStreamId(person.mobile))).toEqual(['MobileReserved', 'MobileReleased']);
    expect(erasedKeys().has(person.userId)).toBe(true);
  }, 600_000);
});
