import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { streams } from '@kamai/contracts';
import { afterAll, describe, expect, it } from 'vitest';
import { grantRole } from '../auth/accounts.ts';
import { openSealedSqliteStore } from '../privacy/open.ts';
import { type ApiProcess, CRASH_TEST_ENTRY, startApiProcess, startWorkerProcess } from '../testing/process.ts';
import { registerAt } from '../testing/crash.ts';
import { BANK } from './testing.ts';

// A command whose events were written but whose answer never left: the API process is killed with
// SIGKILL right after the append (testing/crash-main.ts, armed by a file naming how many appends to
// let through: the key's reservation, then the command's own), restarted, and the client
// retries with the same Idempotency-Key and body. The retry must answer the first outcome and the
// log must hold the effect once, in both topologies.
const topologies = [
  { name: 'PROJECTIONS=thread', env: { PROJECTIONS: 'thread' }, worker: false },
  { name: 'an API with PROJECTIONS=off beside a projection worker', env: { PROJECTIONS: 'off' }, worker: true },
];

const cleanups: Array<() => Promise<void>> = [];
afterAll(async () => {
  for (const cleanup of cleanups.reverse()) await cleanup();
});

async function exited(api: ApiProcess): Promise<NodeJS.Signals | number | null> {
  if (api.child.exitCode !== null || api.child.signalCode !== null) return api.child.signalCode ?? api.child.exitCode;
  return new Promise((resolve) => api.child.once('exit', (code, signal) => resolve(signal ?? code)));
}

describe.each(topologies)('a keyed command killed between its append and its answer ($name)', ({ env, worker }) => {
  it('answers the retry with the first outcome and moves money once', async () => {
    const dataDir = mkdtempSync(join(tmpdir(), 'kamai-crash-'));
    const armed = join(dataDir, 'kill-armed');
    const processEnv = { ...env, KAMAI_CRASH_FILE: armed };
    const store = openSealedSqliteStore(join(dataDir, 'events.sqlite'));
    let projectionWorker: Awaited<ReturnType<typeof startWorkerProcess>> | undefined;
    let api!: ApiProcess;
    // Registered first, so processes started before a failure are stopped too.
    cleanups.push(async () => {
      await api?.stop();
      await projectionWorker?.stop();
      await store.close();
      rmSync(dataDir, { recursive: true, force: true });
    });
    if (worker) projectionWorker = await startWorkerProcess(dataDir);
    api = await startApiProcess(dataDir, processEnv, CRASH_TEST_ENTRY);

    const signUp = (name: string) => registerAt(api.url, name);
    const finance = await signUp('Rohan');
    await grantRole(store, finance.userId, 'finance', 'test', new Date());
    const user = await signUp('Asha');
    const count = async (type: string) => (await store.readStream(streams.user(user.userId))).filter((e) => e.type === type).length;
    const restart = async () => {
      // The tsx wrapper reports its child's SIGKILL as exit code 128 + 9.
      expect(['SIGKILL', 137]).toContain(await exited(api));
      api = await startApiProcess(dataDir, processEnv, CRASH_TEST_ENTRY);
    };
    const headers = (key: string) => ({ 'content-type': 'application/json', 'idempotency-key': key });

    // A credit: the process dies after its first append, the member's count against their daily
    // limit (staff-limits stream), before the credit; the client sees the connection drop.
    const counted = async () => (await store.readStream(streams.staffLimits(finance.userId))).length;
    const credit = JSON.stringify({ mobile: user.mobile, amount: 400.55, direction: 'credit', reason: 'Missed reward' });
    writeFileSync(armed, '2');
    await expect(finance.request('POST', '/api/admin/adjustments', credit, headers('credit-1'))).rejects.toThrow();
    expect([await counted(), await count('WalletCredited')]).toEqual([1, 0]);
    await restart();
    // The retry finds its count (not counted twice) and makes the credit, once.
    const retriedCredit = await finance.clone(api.url).request('POST', '/api/admin/adjustments', credit, headers('credit-1'));
    expect(retriedCredit.status).toBe(201);
    expect(retriedCredit.body.balance).toBe('400.55');
    expect([await counted(), await count('WalletCredited')]).toEqual([1, 1]);

    // A withdrawal request: the retry names the withdrawal the first attempt created.
    const withdrawal = JSON.stringify({ amount: 100, bankAccount: BANK });
    writeFileSync(armed, '2');
    await expect(user.clone(api.url).request('POST', '/api/withdrawals', withdrawal, headers('withdraw-1'))).rejects.toThrow();
    const [requested] = (await store.readStream(streams.user(user.userId))).filter((e) => e.type === 'WithdrawalRequested');
    expect(requested).toBeDefined();
    await restart();
    const retried = await user.clone(api.url).request('POST', '/api/withdrawals', withdrawal, headers('withdraw-1'));
    expect(retried.status).toBe(201);
    expect(retried.body.id).toBe((requested!.data as { withdrawalId: string }).withdrawalId);
    const again = await user.clone(api.url).request('POST', '/api/withdrawals', withdrawal, headers('withdraw-1'));
    expect([again.status, again.body.id]).toEqual([201, retried.body.id]);
    expect(await count('WithdrawalRequested')).toBe(1);
    expect((await user.clone(api.url).get('/api/auth/user')).body.totalRupees).toBe('300.55');
  }, 240_000);
});
