import type { KamaiEvent } from '@kamai/contracts';
import { describe, it } from 'vitest';
import { projectionSpec } from '../testing.ts';
import { auditProjection } from './projection.ts';

const at = '2026-11-21T10:00:00.000Z';
const e = (stream: string, event: KamaiEvent) => ({ stream, event });

describe('audit read model', () => {
  // The spec also builds it from zero with the sealed fields of the types outside `opens` left shut:
  // the adjustment's reason is read, a debit's description and a withdrawal's destination are not.
  it('keeps an adjustment with its reason, and who moved money, when and how much; no ledger text', async () => {
    await projectionSpec(auditProjection)
      .given([
        e('user-u1', { type: 'AdjustmentRequested', data: { adjustmentId: 'a1', amountPaise: 500, direction: 'debit', reason: 'Duplicate reward', requestedBy: 'f1', requestedAt: at } }),
        e('user-u1', { type: 'AdjustmentApproved', data: { adjustmentId: 'a1', approvedBy: 'f2', approvedAt: at } }),
        e('user-u1', { type: 'WalletDebited', data: { entryId: 'd1', amountPaise: 500, kind: 'adjustment', description: 'Duplicate reward for Asha', by: 'f1', debitedAt: at } }),
        e('user-u1', { type: 'WithdrawalRequested', data: { withdrawalId: 'w1', amountPaise: 1000, destination: { kind: 'upi', upiId: 'asha@okaxis' }, requestedAt: at } }),
      ])
      .then({
        adjustments: [{ id: 'a1', reason: 'Duplicate reward', status: 'approved', decided_by: 'f2' }],
        audit_log: [
          { action: 'adjustment_requested', actor_id: 'f1', amount_paise: 500, reference: 'a1' },
          { action: 'adjustment_approved', actor_id: 'f2', amount_paise: 500, reference: 'a1' },
          { action: 'adjustment_debited', actor_id: 'f1', amount_paise: 500, reference: 'd1', subject_user_id: 'u1' },
        ],
      });
  });
});
