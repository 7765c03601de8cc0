import { randomUUID } from 'node:crypto';
import { streams } from '@kamai/contracts';
import { afterAll, describe, expect, it } from 'vitest';
import { grantRole } from '../auth/accounts.ts';
import { submitDocument } from '../kyc/testing.ts';
import { CrashableApi, INLINE_COMMITS, registerAt } from '../testing/crash.ts';
import type { TestClient } from '../testing/server.ts';

// A PAN's approval (the pan_claim workflow, workflows/pan-claim.ts) killed after its 1st, 2nd, ...
// append until a run goes through: the process dies between two steps, restarts, and meanwhile a
// rival account proving the same PAN is approved by another request; then the first is retried with
// its key. Afterwards exactly one of the two holds the PAN and is approved, it alone started from the
// totals the PAN's erased earlier holder left, and every workflow completed. Inline commits
// (testing/crash.ts says why).
const cleanups: Array<() => Promise<void>> = [];
afterAll(async () => {
  for (const cleanup of cleanups.reverse()) await cleanup();
});

describe.each(INLINE_COMMITS)('the PAN claim killed after every append ($name)', ({ env }) => {
  it('is resumed by a retry with its key: one live account holds the PAN, and it alone carries the year', async () => {
    const { api, store } = await CrashableApi.inFreshDataDir('kamai-crash-pan-', env, cleanups);
    const as = (client: TestClient) => client.clone(api.url);
    const reviewer = await registerAt(api.url, 'Kiran');
    await grantRole(store, reviewer.userId, 'reviewer', 'test', new Date());
    await expect.poll(async () => (await as(reviewer).get('/api/auth/user')).body.roles, { timeout: 10_000 }).toContain('reviewer');
    const approve = (documentId: string, key?: string) =>
      as(reviewer).request('POST', `/api/admin/kyc/${documentId}/approve`, undefined, key === undefined ? {} : { 'idempotency-key': key });
    const events = (streamId: string) => store.readStream(streamId);

    let kills = 0;
    for (let n = 1; ; n++) {
      const pan = `KLMNO${1000 + n}P`;
      const at = `after a kill at append ${n}`;
      // The PAN's earlier holder was erased, leaving the year's ₹600 on the payee (pan-payee.int.spec.ts
      // runs that erasure for real; here it is written through the test's own connection, to keep each
      // round to the approvals under test).
      const payee = store.personal.panPayeeStreamId(pan);
      const earlier = randomUUID();
      const years = [{ fy: '2026-27', credited: [{ kind: 'adjustment', amountPaise: 60_000 }], withheld: [] }];
      await store.append(
        payee,
        [
          { id: randomUUID(), type: 'TaxPayeeClaimed', data: { userId: earlier, documentId: randomUUID(), claimedAt: new Date().toISOString() } },
          { id: randomUUID(), type: 'TaxPayeeReleased', data: { userId: earlier, years, releasedAt: new Date().toISOString() } },
        ],
        'no_stream',
      );

      // Two accounts prove the same PAN; the first's approval is killed, then the rival's is asked.
      const first = await registerAt(api.url, 'Ravi');
      const rival = await registerAt(api.url, 'Ravi');
      const firstDoc = await submitDocument(api.url, as(first), 'pan', n * 10 + 3, pan);
      const rivalDoc = await submitDocument(api.url, as(rival), 'pan', n * 10 + 6, pan);
      const key = `pan-${n}-${firstDoc.id}`;
      const run = await api.killedAfter(n, () => approve(firstDoc.id, key));
      let answer = run.answer as { status: number; body: { error?: { code: string } } };
      if (run.died) {
        kills++;
        const raced = await approve(rivalDoc.id);
        answer = await approve(firstDoc.id, key);
        expect((await approve(firstDoc.id, key)).body, at).toEqual(answer.body);
        // Exactly one of the two won; the other was told the PAN is in use.
        expect([answer.status, raced.status].sort(), at).toEqual([200, 409]);
        expect([answer.body.error?.code, raced.body.error?.code].filter(Boolean), at).toEqual(['pan_in_use']);
      } else {
        expect(answer.status, JSON.stringify(answer.body)).toBe(200);
        const late = await approve(rivalDoc.id);
        expect([late.status, late.body.error?.code], at).toEqual([409, 'pan_in_use']);
      }
      const winner = answer.status === 200 ? first : rival;
      const loser = winner === first ? rival : first;
      // The winner approved once, starting from the year the earlier holder left; the loser not at all.
      const approvals = async (userId: string) => (await events(streams.user(userId))).filter((e) => e.type === 'KycDocumentApproved');
      const won = await approvals(winner.userId);
      expect(won, at).toHaveLength(1);
      expect((won[0]!.data as { carried?: unknown }).carried, at).toEqual(years);
      expect(await approvals(loser.userId), at).toHaveLength(0);
      // The payee: released by the earlier holder, then claimed by the winner only (nothing left held for the loser).
      const after = (await events(payee)).slice(2).map((e) => [e.type, (e.data as { userId: string }).userId]);
      expect(after, at).toEqual([['TaxPayeeClaimed', winner.userId]]);
      if (!run.died) break;
    }
    // The key's reservation, the intent, the claim, its outcome, the approval, its outcome, the release's outcome, the end, the key's answer.
    expect(kills).toBeGreaterThanOrEqual(9);
    // Every workflow completed, by its request or its retry.
    const all = await store.readAll({ after: 0, limit: 1_000_000 });
    const started = new Set(all.filter((e) => e.type === 'WorkflowStarted' && (e.data as { kind: string }).kind === 'pan_claim').map((e) => e.streamId));
    const completed = new Set(all.filter((e) => e.type === 'WorkflowCompleted').map((e) => e.streamId));
    expect(started.size).toBeGreaterThan(kills);
    expect([...started].filter((s) => !completed.has(s))).toEqual([]);
  }, 600_000);
});
