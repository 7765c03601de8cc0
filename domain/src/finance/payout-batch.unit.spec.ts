import { describe, it } from 'vitest';
import type { PayoutBatchEvent } from '@kamai/contracts';
import { deciderSpec } from '../testing/spec.ts';
import { type PayoutBatchCommand, type PayoutBatchState, payoutBatchDecider } from './payout-batch.ts';

const now = '2026-11-22T09:30:00.000Z';
const spec = deciderSpec<PayoutBatchState, PayoutBatchEvent, PayoutBatchCommand>(payoutBatchDecider, payoutBatchDecider.decide);
const items = [
  { withdrawalId: 'w1', userId: 'u1', amountPaise: 3_000_000 },
  { withdrawalId: 'w2', userId: 'u2', amountPaise: 2_500_000 },
];
const create = (threshold = 5_000_000): PayoutBatchCommand => ({ type: 'CreatePayoutBatch', data: { batchId: 'b1', items, by: 'f1', approvalThresholdPaise: threshold }, now });
const created = (approvalRequired: boolean): PayoutBatchEvent => ({
  type: 'PayoutBatchCreated',
  data: { batchId: 'b1', items, totalPaise: 5_500_000, approvalRequired, createdBy: 'f1', createdAt: now },
});
const approve = (by: string): PayoutBatchCommand => ({ type: 'ApprovePayoutBatch', data: { batchId: 'b1', by }, now });
const download = (by = 'f1'): PayoutBatchCommand => ({ type: 'RecordPayoutFileDownload', data: { batchId: 'b1', by, rows: 2, totalPaise: 5_500_000 }, now });

describe('payout batches', () => {
  it('needs a second approval only above the threshold', () => {
    spec.given([]).when(create()).then([created(true)]);
    spec.given([]).when(create(5_500_000)).then([created(false)]);
    spec.given([created(true)]).when(create()).thenFails('conflict');
  });

  it('is approved by a second finance member, never its maker, and once', () => {
    spec.given([created(true)]).when(approve('f1')).thenFails('forbidden');
    spec.given([created(true)]).when(approve('f2')).then([{ type: 'PayoutBatchApproved', data: { batchId: 'b1', approvedBy: 'f2', approvedAt: now } }]);
    const approved: PayoutBatchEvent = { type: 'PayoutBatchApproved', data: { batchId: 'b1', approvedBy: 'f2', approvedAt: now } };
    spec.given([created(true), approved]).when(approve('f3')).thenFails('conflict');
    spec.given([created(false)]).when(approve('f2')).thenFails('conflict');
  });

  it('gives its file only once approved (when it needs to be), and records each download', () => {
    spec.given([created(true)]).when(download()).thenFails('conflict', /second finance member/);
    const approved: PayoutBatchEvent = { type: 'PayoutBatchApproved', data: { batchId: 'b1', approvedBy: 'f2', approvedAt: now } };
    spec.given([created(true), approved]).when(download()).then([
      { type: 'PayoutBatchFileDownloaded', data: { batchId: 'b1', by: 'f1', rows: 2, totalPaise: 5_500_000, downloadedAt: now } },
    ]);
    spec.given([]).when(download()).thenFails('not_found');
  });

  it('drops a withdrawal settled elsewhere once', () => {
    const drop: PayoutBatchCommand = { type: 'DropPayoutBatchItem', data: { batchId: 'b1', withdrawalId: 'w2' }, now };
    const dropped: PayoutBatchEvent = { type: 'PayoutBatchItemDropped', data: { batchId: 'b1', withdrawalId: 'w2', droppedAt: now } };
    spec.given([created(false)]).when(drop).then([dropped]);
    spec.given([created(false), dropped]).when(drop).then([]);
  });
});
