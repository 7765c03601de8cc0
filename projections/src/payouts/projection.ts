import type { Projection } from '../projection.ts';

/**
 * Payout batches, bank statement reconciliations and fundings of the payout account, as finance's
 * Batches and Reconciliation tabs list them.
 */
export const payoutsProjection: Projection = {
  name: 'payouts',
  // 2: bank_fundings.
  version: 2,
  tables: {
    payout_batches: {
      columns: `id TEXT PRIMARY KEY, count INTEGER NOT NULL, total_paise INTEGER NOT NULL, approval_required INTEGER NOT NULL,
        created_by TEXT NOT NULL, created_at TEXT NOT NULL, approved_by TEXT, approved_at TEXT, file_downloads INTEGER NOT NULL,
        position INTEGER NOT NULL`,
      indexes: { position: 'position' },
    },
    payout_batch_items: {
      columns: `batch_id TEXT NOT NULL, withdrawal_id TEXT NOT NULL, user_id TEXT NOT NULL, amount_paise INTEGER NOT NULL,
        PRIMARY KEY (batch_id, withdrawal_id)`,
    },
    bank_statement_runs: {
      columns: `id TEXT PRIMARY KEY, position INTEGER NOT NULL, by TEXT NOT NULL, at TEXT NOT NULL, from_date TEXT NOT NULL,
        to_date TEXT NOT NULL, lines INTEGER NOT NULL, missing TEXT NOT NULL, unmatched TEXT NOT NULL`,
      indexes: { position: 'position' },
    },
    bank_fundings: {
      columns: `id TEXT PRIMARY KEY, position INTEGER NOT NULL, amount_paise INTEGER NOT NULL, reference TEXT NOT NULL,
        value_date TEXT NOT NULL, status TEXT NOT NULL, recorded_by TEXT NOT NULL, recorded_at TEXT NOT NULL, decided_by TEXT,
        decided_at TEXT`,
      indexes: { position: 'position' },
    },
  },
  handles: [
    'PayoutBatchCreated',
    'PayoutBatchItemDropped',
    'PayoutBatchApproved',
    'PayoutBatchFileDownloaded',
    'BankStatementReconciled',
    'BankFundingRecorded',
    'BankFundingApproved',
    'BankFundingRejected',
    'BankFundingReversalRequested',
    'BankFundingReversed',
  ],
  apply(rows, event) {
    switch (event.type) {
      case 'PayoutBatchCreated': {
        const d = event.data;
        rows.insert('payout_batches', {
          id: d.batchId,
          count: d.items.length,
          total_paise: d.totalPaise,
          approval_required: d.approvalRequired ? 1 : 0,
          created_by: d.createdBy,
          created_at: d.createdAt,
          approved_by: null,
          approved_at: null,
          file_downloads: 0,
          position: event.position,
        });
        for (const item of d.items) {
          rows.insert('payout_batch_items', { batch_id: d.batchId, withdrawal_id: item.withdrawalId, user_id: item.userId, amount_paise: item.amountPaise });
        }
        return;
      }
      case 'PayoutBatchItemDropped': {
        const d = event.data;
        const item = rows.get('payout_batch_items', { batch_id: d.batchId, withdrawal_id: d.withdrawalId }, ['amount_paise']);
        if (!item) return;
        rows.delete('payout_batch_items', { batch_id: d.batchId, withdrawal_id: d.withdrawalId });
        rows.update('payout_batches', { id: d.batchId }, { add: { count: -1, total_paise: -item.amount_paise } });
        return;
      }
      case 'PayoutBatchApproved':
        rows.update('payout_batches', { id: event.data.batchId }, { set: { approved_by: event.data.approvedBy, approved_at: event.data.approvedAt } });
        return;
      case 'PayoutBatchFileDownloaded':
        rows.update('payout_batches', { id: event.data.batchId }, { add: { file_downloads: 1 } });
        return;
      case 'BankStatementReconciled': {
        const d = event.data;
        rows.insert('bank_statement_runs', {
          id: d.runId,
          position: event.position,
          by: d.by,
          at: d.reconciledAt,
          from_date: d.from,
          to_date: d.to,
          lines: d.lines,
          missing: JSON.stringify(d.missingFromStatement),
          unmatched: JSON.stringify(d.unmatchedDebits),
        });
        return;
      }
      case 'BankFundingRecorded': {
        const d = event.data;
        const booked = !d.approvalRequired;
        rows.insert('bank_fundings', {
          id: d.fundingId,
          position: event.position,
          amount_paise: d.amountPaise,
          reference: d.reference,
          value_date: d.valueDate,
          status: booked ? 'booked' : 'pending',
          recorded_by: d.recordedBy,
          recorded_at: d.recordedAt,
          decided_by: booked ? d.recordedBy : null,
          decided_at: booked ? d.recordedAt : null,
        });
        return;
      }
      case 'BankFundingApproved':
        rows.update('bank_fundings', { id: event.data.fundingId }, { set: { status: 'booked', decided_by: event.data.approvedBy, decided_at: event.data.approvedAt } });
        return;
      case 'BankFundingRejected':
        rows.update('bank_fundings', { id: event.data.fundingId }, { set: { status: 'rejected', decided_by: event.data.rejectedBy, decided_at: event.data.rejectedAt } });
        return;
      // decided_by/decided_at keep who booked it; the reversal's members are in the log and the journal.
      case 'BankFundingReversalRequested':
        rows.update('bank_fundings', { id: event.data.fundingId }, { set: { status: 'reversal_requested' } });
        return;
      case 'BankFundingReversed':
        rows.update('bank_fundings', { id: event.data.fundingId }, { set: { status: 'reversed' } });
        return;
      default:
        return;
    }
  },
};
