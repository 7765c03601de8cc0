import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { KamaiEvent, UserEvent } from '@kamai/contracts';
import { credit, decideWithdrawals, fold, userEvolver } from '@kamai/domain';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { type ReadDbHandle, openReadDb, writeTransaction } from '../db.ts';
import { allProjections } from '../index.ts';
import { applyEvents } from '../runner.ts';
import { recordEvents } from '../testing.ts';
import { payoutAnomalies } from './queries.ts';

const at = '2026-11-21T10:00:00.000Z';

describe('payout anomalies for reconcile: what no decider allows', () => {
  let dir: string;
  let db: ReadDbHandle;
  beforeEach(async () => {
    dir = mkdtempSync(join(tmpdir(), 'kamai-anomalies-'));
    db = await openReadDb(join(dir, 'read.sqlite'));
  });
  afterEach(async () => {
    await db.destroy();
    rmSync(dir, { recursive: true, force: true });
  });

  it('names a withdrawal in two batches, a batch listing a withdrawal of another, a payout of an erased person and an old unfinished workflow', async () => {
    const log: { stream: string; event: KamaiEvent }[] = [];
    const history: UserEvent[] = [];
    const on = (...events: UserEvent[]) => {
      history.push(...events);
      for (const event of events) log.push({ stream: 'user-u1', event });
    };
    on({ type: 'UserRegistered', data: { userId: 'u1', mobile: '9876543210', passwordHash: 'h', firstName: 'Asha', lastName: 'Rao', registeredAt: at } });
    on(credit({ entryId: 'e1', amountPaise: 50_000, kind: 'task_reward', params: { taskTitle: 'T' }, now: at }));
    on(
      ...decideWithdrawals(
        { type: 'RequestWithdrawal', data: { withdrawalId: 'w1', entryId: 'h1', notificationId: 'n1', amountPaise: 10_000, destination: { kind: 'upi', upiId: 'asha@okhdfc' } }, now: at },
        fold(userEvolver, history),
      ),
    );
    on({ type: 'WithdrawalProcessing', data: { withdrawalId: 'w1', batchId: 'b1', by: 'fin', processingAt: at } });
    const batch = (batchId: string): KamaiEvent => ({
      type: 'PayoutBatchCreated',
      data: { batchId, items: [{ withdrawalId: 'w1', userId: 'u1', amountPaise: 10_000 }], totalPaise: 10_000, approvalRequired: false, createdBy: 'fin', createdAt: at },
    });
    log.push({ stream: 'payout-batch-b1', event: batch('b1') }, { stream: 'payout-batch-b2', event: batch('b2') });
    log.push({ stream: 'user-u1', event: { type: 'UserErased', data: { requestId: 'd1', erasedBy: 'admin', erasedAt: at } } });
    log.push({
      stream: 'workflow-f1',
      event: { type: 'WorkflowStarted', data: { workflowId: 'f1', kind: 'payout_batch', batchId: 'b3', by: 'fin', steps: [], approvalThresholdPaise: 0, startedAt: at } },
    });
    // DeletionRequested first, so the deletions model has the request the erasure settles.
    log.splice(log.length - 2, 0, {
      stream: 'user-u1',
      event: { type: 'DeletionRequested', data: { requestId: 'd1', requestedAt: at, coolingOffEndsAt: at } },
    });
    await writeTransaction(db, (trx) => applyEvents(trx, allProjections, recordEvents(log)));

    const found = await payoutAnomalies(db, '2026-11-21T10:05:00.000Z');
    expect(found.inTwoBatches).toEqual([{ withdrawal_id: 'w1', batches: expect.stringMatching(/^b[12], b[12]$/) }]);
    expect(found.listedElsewhere).toEqual([{ batch_id: 'b2', withdrawal_id: 'w1', in_batch: 'b1' }]);
    expect(found.pendingOfErased).toEqual([{ id: 'w1', user_id: 'u1', status: 'processing', amount_paise: 10_000 }]);
    expect(found.unfinished.map((w) => w.id)).toEqual(['f1']);
    // Started after the cut-off: not reported yet (the sweep finishes it first).
    expect((await payoutAnomalies(db, '2026-11-21T09:00:00.000Z')).unfinished).toEqual([]);
  });
});
