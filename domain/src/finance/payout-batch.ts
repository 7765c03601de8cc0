import { type BankStatementEvent, type Paise, PAYOUT_MESSAGES, type PayoutBatchEvent } from '@kamai/contracts';
import type { Decider } from '../decider.ts';
import { DomainError, assertNever } from '../errors.ts';

/** `payout-batch-<id>`: what decides its approval and its file. Each withdrawal's state is on its user's stream. */
export interface PayoutBatchState {
  created: boolean;
  createdBy: string | null;
  approvalRequired: boolean;
  approvedBy: string | null;
  /** Withdrawal id -> amount, for the items still in the batch. */
  items: Map<string, { userId: string; amountPaise: Paise }>;
}

export type PayoutBatchCommand =
  | {
      type: 'CreatePayoutBatch';
      data: {
        batchId: string;
        items: { withdrawalId: string; userId: string; amountPaise: Paise }[];
        by: string;
        /** Totals above this need a second finance member's approval before the file. */
        approvalThresholdPaise: Paise;
      };
      now: string;
    }
  | { type: 'DropPayoutBatchItem'; data: { batchId: string; withdrawalId: string }; now: string }
  | { type: 'ApprovePayoutBatch'; data: { batchId: string; by: string }; now: string }
  | { type: 'RecordPayoutFileDownload'; data: { batchId: string; by: string; rows: number; totalPaise: Paise }; now: string }
  | { type: 'RecordPayoutResults'; data: { batchId: string; by: string; applied: number; skipped: number; refused: number }; now: string };

/** Whether the batch's bank file may be downloaded: small batches at once, large ones once approved. */
export function payoutFileAllowed(state: PayoutBatchState): boolean {
  return state.created && (!state.approvalRequired || state.approvedBy !== null);
}

function existing(state: PayoutBatchState): PayoutBatchState {
  if (!state.created) throw new DomainError('not_found', PAYOUT_MESSAGES.batchNotFound);
  return state;
}

export const payoutBatchDecider: Decider<PayoutBatchState, PayoutBatchCommand, PayoutBatchEvent> = {
  initialState: () => ({ created: false, createdBy: null, approvalRequired: false, approvedBy: null, items: new Map() }),
  evolve: (state, event) => {
    switch (event.type) {
      case 'PayoutBatchCreated':
        state.created = true;
        state.createdBy = event.data.createdBy;
        state.approvalRequired = event.data.approvalRequired;
        for (const item of event.data.items) state.items.set(item.withdrawalId, { userId: item.userId, amountPaise: item.amountPaise });
        return state;
      case 'PayoutBatchItemDropped':
        state.items.delete(event.data.withdrawalId);
        return state;
      case 'PayoutBatchApproved':
        state.approvedBy = event.data.approvedBy;
        return state;
      case 'PayoutBatchFileDownloaded':
      case 'PayoutResultsImported':
        return state;
      default:
        return assertNever(event);
    }
  },
  decide: (command, state) => {
    switch (command.type) {
      case 'CreatePayoutBatch': {
        const d = command.data;
        if (state.created) throw new DomainError('conflict', 'This payout batch already exists');
        if (d.items.length === 0) throw new DomainError('invalid', PAYOUT_MESSAGES.withdrawalIds, { withdrawalIds: PAYOUT_MESSAGES.withdrawalIds });
        const totalPaise = d.items.reduce((sum, item) => sum + item.amountPaise, 0);
        return [
          {
            type: 'PayoutBatchCreated',
            data: {
              batchId: d.batchId,
              items: d.items,
              totalPaise,
              approvalRequired: totalPaise > d.approvalThresholdPaise,
              createdBy: d.by,
              createdAt: command.now,
            },
          },
        ];
      }
      case 'DropPayoutBatchItem':
        if (!existing(state).items.has(command.data.withdrawalId)) return [];
        return [{ type: 'PayoutBatchItemDropped', data: { batchId: command.data.batchId, withdrawalId: command.data.withdrawalId, droppedAt: command.now } }];
      case 'ApprovePayoutBatch': {
        const d = command.data;
        existing(state);
        if (!state.approvalRequired || state.approvedBy !== null) throw new DomainError('conflict', PAYOUT_MESSAGES.alreadyApproved);
        // Four eyes: whoever made the batch cannot be the second pair.
        if (d.by === state.createdBy) throw new DomainError('forbidden', PAYOUT_MESSAGES.ownBatch);
        return [{ type: 'PayoutBatchApproved', data: { batchId: d.batchId, approvedBy: d.by, approvedAt: command.now } }];
      }
      case 'RecordPayoutFileDownload': {
        const d = command.data;
        if (!payoutFileAllowed(existing(state))) throw new DomainError('conflict', PAYOUT_MESSAGES.notApproved, undefined, 'batch_not_approved');
        return [{ type: 'PayoutBatchFileDownloaded', data: { batchId: d.batchId, by: d.by, rows: d.rows, totalPaise: d.totalPaise, downloadedAt: command.now } }];
      }
      case 'RecordPayoutResults': {
        const d = command.data;
        existing(state);
        return [
          {
            type: 'PayoutResultsImported',
            data: { batchId: d.batchId, by: d.by, applied: d.applied, skipped: d.skipped, refused: d.refused, importedAt: command.now },
          },
        ];
      }
      default:
        return assertNever(command);
    }
  },
};

type BankStatementReconciled = Extract<BankStatementEvent, { type: 'BankStatementReconciled' }>['data'];

/** `bank-statement-<runId>`: one reconciliation run, recorded once. */
export const bankStatementDecider: Decider<{ recorded: boolean }, { type: 'RecordBankStatement'; data: BankStatementReconciled; now: string }, BankStatementEvent> = {
  initialState: () => ({ recorded: false }),
  evolve: () => ({ recorded: true }),
  decide: (command, state) => {
    if (state.recorded) throw new DomainError('conflict', 'This reconciliation is already recorded');
    return [{ type: 'BankStatementReconciled', data: command.data }];
  },
};
