import { streams } from '@kamai/contracts';
import { afterAll, describe, expect, it } from 'vitest';
import { grantRole } from '../auth/accounts.ts';
import { BANK } from '../finance/testing.ts';
import { TINY_PNG } from '../object-storage/testing.ts';
import { CrashableApi, INLINE_COMMITS, registerAt } from '../testing/crash.ts';
import type { TestClient } from '../testing/server.ts';

// A hand payment and a proof submission, each killed after its 1st, 2nd, ... append (until a run
// goes through): the process dies between two steps (testing/crash-main.ts), restarts, and the
// request is retried with its key. Afterwards each had one effect, the answer is what was recorded,
// no UTR is held for a withdrawal it did not pay, no slot is held without its proof, the books
// balance and every workflow completed. A submission whose request never comes back is finished by
// the sweep of the next process: its slot is given back. Inline commits (testing/crash.ts says why).

const cleanups: Array<() => Promise<void>> = [];
afterAll(async () => {
  for (const cleanup of cleanups.reverse()) await cleanup();
});

describe.each(INLINE_COMMITS)('hand payment and proof submission killed after every append ($name)', ({ env }) => {
  it('resumed by a retry with the key: one effect, answered as recorded, no UTR or slot left held', async () => {
    const { api, store } = await CrashableApi.inFreshDataDir('kamai-crash-tasks-', env, cleanups);
    const as = (client: TestClient) => client.clone(api.url);
    const signUp = (name: string) => registerAt(api.url, name);
    const funder = await signUp('Neha');
    const finance = await signUp('Rohan');
    const colleague = await signUp('Arjun');
    const admin = await signUp('Kavya');
    for (const member of [funder, finance, colleague]) await grantRole(store, member.userId, 'finance', 'test', new Date());
    await grantRole(store, admin.userId, 'admin', 'test', new Date());
    const headers = (key: string) => ({ 'content-type': 'application/json', 'idempotency-key': key });
    const killedAfter = async (n: number, send: () => Promise<unknown>) => (await api.killedAfter(n, send)).died;
    const events = async (streamId: string) => store.readStream(streamId);
    const booksBalance = async () => {
      expect((await as(finance).get('/api/admin/ledger/reconciliation')).body.difference).toBe('0.00');
      expect((await as(finance).get('/api/admin/ledger/trial-balance')).body.difference).toBe('0.00');
    };

    // Hand payment: killed after each append; meanwhile a colleague rejects the withdrawal if it is
    // still pending, so a resumed workflow whose pay comes too late gives its UTR back.
    let payKills = 0;
    for (let n = 1; ; n++) {
      const user = await signUp('Asha');
      expect((await as(funder).post('/api/admin/adjustments', { mobile: user.mobile, amount: 100, direction: 'credit', reason: 'Test funding' })).status).toBe(201);
      const asked = await as(user).post('/api/withdrawals', { amount: 100, bankAccount: BANK });
      expect(asked.status, JSON.stringify(asked.body)).toBe(201);
      const id = asked.body.id as string;
      const utr = `HP${n}X${Date.now()}`;
      const send = () => as(finance).request('POST', `/api/admin/withdrawals/${id}/paid`, JSON.stringify({ reference: utr }), headers(`pay-${n}-${utr}`));
      if (!(await killedAfter(n, send))) break;
      payKills++;
      const rejected = await as(colleague).post(`/api/admin/withdrawals/${id}/reject`, { reason: 'Account closed' });
      expect([200, 409]).toContain(rejected.status);
      const retried = await send();
      expect((await send()).body).toEqual(retried.body);
      const paid = (await events(streams.user(user.userId))).filter((e) => e.type === 'WithdrawalPaid');
      const reference = (await events(streams.reference(utr))).map((e) => e.type);
      // The answer is the record's: paid once with this UTR, held for it; or refused, the UTR free.
      if (retried.status === 200) {
        expect(rejected.status).toBe(409);
        expect(retried.body).toMatchObject({ id, status: 'paid', reference: utr });
        expect(paid).toHaveLength(1);
        expect(reference).toEqual(['ReferenceReserved']);
      } else {
        expect([retried.status, rejected.status], JSON.stringify(retried.body)).toEqual([409, 200]);
        expect(paid).toHaveLength(0);
        expect(reference.at(-1) ?? 'ReferenceReleased').toBe('ReferenceReleased');
      }
      await booksBalance();
    }
    expect(payKills).toBeGreaterThanOrEqual(6);

    // Proof submission to a one-slot task: killed after each append, retried with its key.
    const image = async (client: TestClient) => {
      const slot = await as(client).post('/api/objects/upload');
      const put = await fetch(new URL(slot.body.uploadURL, api.url), { method: 'PUT', body: TINY_PNG, headers: { 'content-type': 'image/png' } });
      expect(put.status).toBe(201);
      return slot.body.objectURL as string;
    };
    const oneSlotTask = async () => {
      const created = await as(admin).post('/api/admin/tasks', { title: 'Rate PhonePe', description: 'Rate it', rupeeReward: '25', maxCompletions: 1 });
      expect(created.status, JSON.stringify(created.body)).toBe(201);
      return created.body.id as string;
    };
    /** Submissions holding a slot of the task, from its own stream. */
    const held = async (taskId: string) => {
      const holding = new Set<string>();
      for (const e of await events(streams.task(taskId))) {
        const { submissionId } = e.data as { submissionId?: string };
        if (e.type === 'TaskSlotTaken') holding.add(submissionId!);
        if (e.type === 'TaskSlotReleased') holding.delete(submissionId!);
      }
      return [...holding];
    };
    const submitted = async (userId: string) =>
      (await events(streams.user(userId))).filter((e) => e.type === 'ProofSubmitted').map((e) => (e.data as { submissionId: string }).submissionId);
    let proofKills = 0;
    for (let n = 1; ; n++) {
      const user = await signUp('Ravi');
      const taskId = await oneSlotTask();
      const body = JSON.stringify({ proofImageUrl: await image(user), proofDescription: 'Rated 5 stars' });
      const send = () => as(user).request('POST', `/api/tasks/${taskId}/submit-proof`, body, headers(`proof-${n}-${taskId}`));
      const died = await killedAfter(n, send);
      const retried = await send();
      expect([retried.status, retried.body.status], JSON.stringify(retried.body)).toEqual([201, 'submitted']);
      expect((await send()).body).toEqual(retried.body);
      // One proof, holding the task's one slot: nothing leaked, nothing taken twice.
      const proofs = await submitted(user.userId);
      expect(proofs).toHaveLength(1);
      expect(await held(taskId)).toEqual(proofs);
      const other = await signUp('Meena');
      const late = await as(other).post(`/api/tasks/${taskId}/submit-proof`, { proofImageUrl: await image(other), proofDescription: 'Rated 5 stars' });
      expect([late.status, late.body.error?.code]).toEqual([409, 'task_full']);
      if (!died) break;
      proofKills++;
    }
    expect(proofKills).toBeGreaterThanOrEqual(6);

    // A submission killed once its slot was taken and never retried: its process's clock ran two
    // minutes behind, so the next process's first sweep finds it abandoned and gives the slot back.
    await api.restart({ KAMAI_CLOCK_BEHIND_MS: '120000' });
    const user = await signUp('Sunil');
    const taskId = await oneSlotTask();
    const body = JSON.stringify({ proofImageUrl: await image(user), proofDescription: 'Rated 5 stars' });
    const key = headers(`abandoned-${taskId}`);
    // The key's reservation, the intent, the slot: killed there, then restarted on the true clock.
    expect(await killedAfter(3, () => as(user).request('POST', `/api/tasks/${taskId}/submit-proof`, body, key))).toBe(true);
    const slotEvents = async () => (await events(streams.task(taskId))).filter((e) => e.type.startsWith('TaskSlot'));
    expect((await slotEvents()).map((e) => e.type)[0]).toBe('TaskSlotTaken');
    expect(await submitted(user.userId)).toEqual([]);
    // The restarted process's sweep (at start, then every minute) gives the slot back.
    for (const deadline = Date.now() + 90_000; (await held(taskId)).length > 0; ) {
      expect(Date.now()).toBeLessThan(deadline);
      await new Promise((r) => setTimeout(r, 100));
    }
    expect((await slotEvents()).map((e) => [e.type, (e.data as { why?: string }).why])).toEqual([
      ['TaskSlotTaken', undefined],
      ['TaskSlotReleased', 'not_submitted'],
    ]);
    const retried = await as(user).request('POST', `/api/tasks/${taskId}/submit-proof`, body, key);
    expect([retried.status, retried.body.error?.key]).toEqual([409, 'task.proofNotRecorded']);
    expect(await submitted(user.userId)).toEqual([]);

    // Every workflow completed: by its retry, or by the sweep.
    const all = await store.readAll({ after: 0, limit: 1_000_000 });
    const started = new Set(all.filter((e) => e.type === 'WorkflowStarted').map((e) => e.streamId));
    const completed = new Set(all.filter((e) => e.type === 'WorkflowCompleted').map((e) => e.streamId));
    expect(started.size).toBeGreaterThan(payKills);
    expect([...started].filter((s) => !completed.has(s))).toEqual([]);
    await booksBalance();
  }, 900_000);
});
