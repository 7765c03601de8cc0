import type { ResultsImportBody } from '@kamai/contracts';
import { afterAll, describe, expect, it } from 'vitest';
import { grantRole } from '../auth/accounts.ts';
import { BANK } from '../finance/testing.ts';
import { CrashableApi, ON_POSTGRES, WORKFLOW_CRASH_TOPOLOGIES, registerAt } from '../testing/crash.ts';
import type { TestClient } from '../testing/server.ts';

// A workflow killed after each of its appends in turn (the 1st, the 2nd, ... until a run goes
// through): the API process dies between two steps (testing/crash-main.ts), a second finance member
// tries a new batch over the same withdrawals meanwhile, the process restarts and the first request
// is retried with its key. Afterwards no withdrawal is in two batches, every answer equals what the
// workflow recorded, and the books balance. On the embedded store, inline commits and with the
// writer thread, and on PostgreSQL (batch creation only there).

const cleanups: Array<() => Promise<void>> = [];
afterAll(async () => {
  for (const cleanup of cleanups.reverse()) await cleanup();
});

describe.each([...WORKFLOW_CRASH_TOPOLOGIES, ON_POSTGRES])('payout workflows killed after every append ($name)', ({ env }) => {
  it('batch creation and results import: resumed by a retry, nothing twice, nothing stranded', async () => {
    const { api, store } = await CrashableApi.inFreshDataDir('kamai-workflow-crash-', env, cleanups);
    const clients: TestClient[] = [];
    const signUp = async (name: string) => {
      const client = await registerAt(api.url, name);
      clients.push(client);
      return client;
    };
    // Two funders: each member's adjustments across all users are capped per day (memberDailyAdjustmentLimit).
    const funders = [await signUp('Neha'), await signUp('Kavya')];
    const finance = await signUp('Rohan');
    const colleague = await signUp('Arjun');
    for (const member of [...funders, finance, colleague]) await grantRole(store, member.userId, 'finance', 'test', new Date());
    let funded = 0;
    const as = (client: TestClient) => client.clone(api.url);
    const headers = (key: string) => ({ 'content-type': 'application/json', 'idempotency-key': key });

    /** Two fresh withdrawals of ₹100 and ₹101 by two users funded with exactly that. */
    const twoWithdrawals = async () => {
      const ids: string[] = [];
      for (const amount of [100, 101]) {
        const user = await signUp('Asha');
        const credited = await as(funders[funded++ % 2]!).post('/api/admin/adjustments', { mobile: user.mobile, amount, direction: 'credit', reason: 'Test funding' });
        expect(credited.status, JSON.stringify(credited.body)).toBe(201);
        const asked = await as(user).post('/api/withdrawals', { amount, bankAccount: BANK });
        expect(asked.status, JSON.stringify(asked.body)).toBe(201);
        ids.push(asked.body.id as string);
      }
      return ids;
    };
    const killedAfter = (n: number, send: () => Promise<unknown>) => api.killedAfter(n, send);
    /** How many times each withdrawal was put in a batch, from the users' own streams. */
    const batchesOf = async (ids: string[]) => {
      const seen = new Map<string, string[]>(ids.map((id) => [id, []]));
      for (const event of await store.readAll({ after: 0, limit: 1_000_000 })) {
        if (event.type !== 'WithdrawalProcessing') continue;
        const d = event.data as { withdrawalId: string; batchId: string };
        seen.get(d.withdrawalId)?.push(d.batchId);
      }
      return seen;
    };
    const booksBalance = async () => {
      const rec = await as(finance).get('/api/admin/ledger/reconciliation');
      expect(rec.body.difference).toBe('0.00');
      const trial = await as(finance).get('/api/admin/ledger/trial-balance');
      expect(trial.body.difference).toBe('0.00');
    };

    // Batch creation: killed after the 1st, 2nd, ... append of the request.
    let batchKills = 0;
    for (let n = 1; ; n++) {
      const ids = await twoWithdrawals();
      const body = JSON.stringify({ withdrawalIds: ids });
      const run = await killedAfter(n, () => as(finance).request('POST', '/api/admin/payout-batches', body, headers(`batch-${n}`)));
      if (!run.died) break;
      batchKills++;
      // Meanwhile a colleague batches the same withdrawals: claimed ones are refused, never batched twice.
      const rival = await as(colleague).post('/api/admin/payout-batches', { withdrawalIds: ids });
      expect([201, 409], JSON.stringify(rival.body)).toContain(rival.status);
      const retried = await as(finance).request('POST', '/api/admin/payout-batches', body, headers(`batch-${n}`));
      expect([201, 409], JSON.stringify(retried.body)).toContain(retried.status);
      const again = await as(finance).request('POST', '/api/admin/payout-batches', body, headers(`batch-${n}`));
      expect(again.status).toBe(retried.status);
      for (const [id, batches] of await batchesOf(ids)) expect(batches, `withdrawal ${id} after a kill at append ${n}`).toHaveLength(1);
      // The answer is the batch the workflow recorded: it lists exactly the withdrawals claimed for it.
      if (retried.status === 201) {
        const claimed = [...(await batchesOf(ids))].filter(([, b]) => b[0] === retried.body.id).map(([id]) => id);
        expect(retried.body.count).toBe(claimed.length);
        const file = await as(finance).get(`/api/admin/payout-batches/${retried.body.id}/file`);
        expect(file.status).toBe(200);
        for (const id of ids) expect(String(file.body).includes(id)).toBe(claimed.includes(id));
      }
      await booksBalance();
    }
    expect(batchKills).toBeGreaterThanOrEqual(8);
    // On PostgreSQL the batch creation only: each restart costs more there (9 minutes for both parts on
    // a loaded CI machine), and the results import kills the same workflow mechanics at other steps.
    if (env.EVENT_STORE === 'postgres') return;

    // Results import: one SUCCESS and one FAILED row, killed after each append in turn.
    let resultKills = 0;
    for (let n = 1; ; n++) {
      const ids = await twoWithdrawals();
      const made = await as(finance).post('/api/admin/payout-batches', { withdrawalIds: ids });
      expect(made.status).toBe(201);
      const batchId = made.body.id as string;
      const csv = `reference,amount,status,utr,failure_reason\r\n${ids[0]},100.00,SUCCESS,UTR${n}X${Date.now()},\r\n${ids[1]},101.00,FAILED,,Account closed\r\n`;
      const send = () => as(finance).request('POST', `/api/admin/payout-batches/${batchId}/results`, csv, { 'content-type': 'text/csv', 'idempotency-key': `results-${n}` });
      const run = await killedAfter(n, send);
      if (!run.died) {
        expect((run.answer as { body: ResultsImportBody }).body).toMatchObject({ applied: 2, skipped: 0, refused: [] });
        break;
      }
      resultKills++;
      const retried = await send();
      // Every row was applied once, by the first attempt or the retry: the answer says so, no more.
      expect(retried.status, JSON.stringify(retried.body)).toBe(200);
      expect(retried.body).toEqual({ applied: 2, skipped: 0, refused: [] });
      const statuses = (await as(finance).get(`/api/admin/payout-batches/${batchId}`)).body.counts;
      expect(statuses).toMatchObject({ paid: 1, failed: 1, processing: 0 });
      const events = await store.readAll({ after: 0, limit: 1_000_000 });
      const paid = events.filter((e) => e.type === 'WithdrawalPaid' && (e.data as { withdrawalId: string }).withdrawalId === ids[0]);
      const failed = events.filter((e) => e.type === 'WithdrawalFailed' && (e.data as { withdrawalId: string }).withdrawalId === ids[1]);
      expect([paid.length, failed.length]).toEqual([1, 1]);
      await booksBalance();
    }
    expect(resultKills).toBeGreaterThanOrEqual(8);
    // Nothing left unfinished for the sweep.
    const unfinished = (await store.readAll({ after: 0, limit: 1_000_000 })).filter((e) => e.streamId.startsWith('workflow-'));
    const started = new Set(unfinished.filter((e) => e.type === 'WorkflowStarted').map((e) => e.streamId));
    const completed = new Set(unfinished.filter((e) => e.type === 'WorkflowCompleted').map((e) => e.streamId));
    expect([...started].filter((s) => !completed.has(s))).toEqual([]);
  }, 900_000);
});
