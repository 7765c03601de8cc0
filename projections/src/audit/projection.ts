import { CONTROL_LIMIT_KEYS } from '@kamai/contracts';
import type { ProjectedEvent, Projection } from '../projection.ts';
import type { Rows } from '../rows.ts';
import { erasedTextOf } from '../erasure.ts';
import type { AuditAction } from './schema.ts';

const userOf = (streamId: string) => (streamId.startsWith('user-') ? streamId.slice('user-'.length) : null);

/**
 * audit_log and adjustments: every staff action on money (reviews that credit rewards, payouts,
 * adjustments and their approvals), on roles and on settings (with the requests to change control
 * settings), with who, what, when and on whom.
 */
export const auditProjection: Projection = {
  name: 'audit',
  // 3: settings changes and the requests to change control settings.
  // 4: indexes for the list's actor and action filters.
  // 5: an adjustment's reason reads as erased once its person is.
  // 6: webhook endpoints registered, deleted and replayed; months asked to close and closed.
  version: 6,
  tables: {
    audit_log: {
      columns: `id TEXT PRIMARY KEY, position INTEGER NOT NULL, at TEXT NOT NULL, actor_id TEXT NOT NULL, action TEXT NOT NULL,
        subject_user_id TEXT, amount_paise INTEGER, reference TEXT`,
      indexes: { position: 'position', actor: 'actor_id, position', action: 'action, position', at: 'at' },
    },
    adjustments: {
      columns: `id TEXT PRIMARY KEY, user_id TEXT NOT NULL, amount_paise INTEGER NOT NULL, direction TEXT NOT NULL, reason TEXT NOT NULL,
        status TEXT NOT NULL, requested_by TEXT NOT NULL, requested_at TEXT NOT NULL, decided_by TEXT, decided_at TEXT,
        position INTEGER NOT NULL`,
      indexes: { status: 'status, position' },
    },
    audit_withdrawals: { columns: 'id TEXT PRIMARY KEY, amount_paise INTEGER NOT NULL' },
    audit_settings_requests: { columns: 'id TEXT PRIMARY KEY, requested_by TEXT NOT NULL' },
  },
  handles: [
    'WalletCredited',
    'WalletDebited',
    'AdjustmentRequested',
    'AdjustmentApproved',
    'AdjustmentRejected',
    'ProofApproved',
    'ProofRejected',
    'WithdrawalRequested',
    'WithdrawalPaid',
    'WithdrawalRejected',
    'WithdrawalFailed',
    'WithdrawalReversed',
    'PayoutBatchCreated',
    'PayoutBatchApproved',
    'PayoutBatchFileDownloaded',
    'PayoutResultsImported',
    'BankStatementReconciled',
    'BankFundingRecorded',
    'BankFundingApproved',
    'BankFundingRejected',
    'BankFundingReversalRequested',
    'BankFundingReversed',
    'RoleGranted',
    'RoleRevoked',
    'TaskCreated',
    'TaskUpdated',
    'UserErased',
    'AccountSuspended',
    'AccountUnsuspended',
    'SettingsUpdated',
    'SettingsChangeRequested',
    'SettingsChangeApproved',
    'SettingsChangeRejected',
    'LedgerPeriodCloseRequested',
    'LedgerPeriodClosed',
    'WebhookEndpointRegistered',
    'WebhookEndpointDeleted',
    'WebhookReplayRequested',
    'StatementExceptionMatchedByHand',
    'StatementWriteOffRequested',
    'StatementWrittenOff',
  ],
  // An adjustment's reason is kept; the rest keeps who, when, how much and the reference only.
  opens: ['AdjustmentRequested'],
  apply(rows, event) {
    const subject = userOf(event.streamId);
    if (event.type === 'WalletCredited' || event.type === 'WalletDebited') {
      // Most of a rebuild's events, and most are no adjustment: handled before the closure below
      // is made. Approved adjustments carry their id as reference and are audited by the approval itself.
      const d = event.data;
      if (d.kind !== 'adjustment' || d.reference !== undefined || !d.by) return;
      const at = event.type === 'WalletCredited' ? event.data.creditedAt : event.data.debitedAt;
      return record(rows, event, event.type === 'WalletCredited' ? 'adjustment_credited' : 'adjustment_debited', d.by, at, d.amountPaise, d.entryId, subject);
    }
    const row = (action: AuditAction, actor: string, at: string, amount: number | null, reference: string | null, on = subject) =>
      record(rows, event, action, actor, at, amount, reference, on);
    switch (event.type) {
      case 'AdjustmentRequested': {
        const d = event.data;
        if (!subject) return;
        rows.upsert(
          'adjustments',
          {
            id: d.adjustmentId,
            user_id: subject,
            amount_paise: d.amountPaise,
            direction: d.direction,
            reason: d.reason,
            status: 'pending',
            requested_by: d.requestedBy,
            requested_at: d.requestedAt,
            decided_by: null,
            decided_at: null,
            position: event.position,
          },
          { conflict: ['id'] },
        );
        return row('adjustment_requested', d.requestedBy, d.requestedAt, d.amountPaise, d.adjustmentId);
      }
      case 'AdjustmentApproved':
      case 'AdjustmentRejected': {
        const approved = event.type === 'AdjustmentApproved';
        const by = approved ? event.data.approvedBy : event.data.rejectedBy;
        const at = approved ? event.data.approvedAt : event.data.rejectedAt;
        rows.update('adjustments', { id: event.data.adjustmentId }, { set: { status: approved ? 'approved' : 'rejected', decided_by: by, decided_at: at } });
        const found = rows.get('adjustments', { id: event.data.adjustmentId }, ['amount_paise']);
        return row(approved ? 'adjustment_approved' : 'adjustment_rejected', by, at, found?.amount_paise ?? null, event.data.adjustmentId);
      }
      case 'ProofApproved':
        return row('proof_approved', event.data.reviewedBy, event.data.approvedAt, event.data.rewardPaise, event.data.submissionId);
      case 'ProofRejected':
        return row('proof_rejected', event.data.reviewedBy, event.data.rejectedAt, null, event.data.submissionId);
      case 'WithdrawalRequested':
        rows.upsert('audit_withdrawals', { id: event.data.withdrawalId, amount_paise: event.data.amountPaise }, { conflict: ['id'] });
        return;
      case 'WithdrawalPaid':
      case 'WithdrawalRejected': {
        const paid = event.type === 'WithdrawalPaid';
        const found = rows.get('audit_withdrawals', { id: event.data.withdrawalId }, ['amount_paise']);
        return row(
          paid ? 'withdrawal_paid' : 'withdrawal_rejected',
          paid ? event.data.paidBy : event.data.rejectedBy,
          paid ? event.data.paidAt : event.data.rejectedAt,
          found?.amount_paise ?? null,
          event.data.withdrawalId,
        );
      }
      case 'WithdrawalFailed':
      case 'WithdrawalReversed': {
        const failed = event.type === 'WithdrawalFailed';
        const found = rows.get('audit_withdrawals', { id: event.data.withdrawalId }, ['amount_paise']);
        const at = event.type === 'WithdrawalFailed' ? event.data.failedAt : event.data.reversedAt;
        return row(failed ? 'withdrawal_failed' : 'withdrawal_reversed', event.data.by, at, found?.amount_paise ?? null, event.data.withdrawalId);
      }
      case 'PayoutBatchCreated':
        return row('payout_batch_created', event.data.createdBy, event.data.createdAt, event.data.totalPaise, event.data.batchId, null);
      case 'PayoutBatchApproved':
        return row('payout_batch_approved', event.data.approvedBy, event.data.approvedAt, null, event.data.batchId, null);
      case 'PayoutBatchFileDownloaded':
        return row('payout_file_downloaded', event.data.by, event.data.downloadedAt, event.data.totalPaise, event.data.batchId, null);
      case 'PayoutResultsImported':
        return row('payout_results_imported', event.data.by, event.data.importedAt, null, event.data.batchId, null);
      case 'BankStatementReconciled':
        return row('bank_statement_reconciled', event.data.by, event.data.reconciledAt, null, event.data.runId, null);
      case 'BankFundingRecorded': {
        const d = event.data;
        return row(d.approvalRequired ? 'funding_requested' : 'funding_booked', d.recordedBy, d.recordedAt, d.amountPaise, d.fundingId, null);
      }
      case 'BankFundingApproved':
        return row('funding_approved', event.data.approvedBy, event.data.approvedAt, event.data.amountPaise, event.data.fundingId, null);
      case 'BankFundingRejected':
        return row('funding_rejected', event.data.rejectedBy, event.data.rejectedAt, null, event.data.fundingId, null);
      case 'BankFundingReversalRequested':
        return row('funding_reversal_requested', event.data.requestedBy, event.data.requestedAt, null, event.data.fundingId, null);
      case 'LedgerPeriodCloseRequested':
        // The month is the reference: who asked to close it, and who closed it.
        return row('period_close_requested', event.data.requestedBy, event.data.requestedAt, null, event.data.month, null);
      case 'LedgerPeriodClosed':
        return row('period_closed', event.data.closedBy, event.data.closedAt, null, event.data.month, null);
      // The exception is the reference; the note stays in its own stream, sealed.
      case 'StatementExceptionMatchedByHand':
        return row('statement_exception_matched', event.data.by, event.data.matchedAt, null, event.data.exceptionId, null);
      case 'StatementWriteOffRequested':
        return row('statement_write_off_requested', event.data.by, event.data.requestedAt, null, event.data.exceptionId, null);
      case 'StatementWrittenOff':
        return row('statement_written_off', event.data.approvedBy, event.data.writtenOffAt, null, event.data.exceptionId, null);
      case 'BankFundingReversed':
        return row('funding_reversed', event.data.approvedBy, event.data.reversedAt, event.data.amountPaise, event.data.fundingId, null);
      case 'RoleGranted':
        return row('role_granted', event.data.grantedBy, event.data.grantedAt, null, event.data.role);
      case 'RoleRevoked':
        return row('role_revoked', event.data.revokedBy, event.data.revokedAt, null, event.data.role);
      case 'TaskCreated':
        return row('task_reward_set', event.data.createdBy, event.data.createdAt, event.data.rewardPaise, event.data.taskId, null);
      case 'TaskUpdated':
        return row('task_reward_set', event.data.updatedBy, event.data.updatedAt, event.data.rewardPaise, event.data.taskId, null);
      case 'UserErased': {
        // The adjustments' reasons (free text about the person) read as erased, as a rebuild decodes them.
        const reason = erasedTextOf('AdjustmentRequested', 'reason');
        if (subject && reason !== undefined) rows.update('adjustments', { user_id: subject }, { set: { reason } });
        // Who erased whom and when, by id: the request id is the reference.
        return row('user_erased', event.data.erasedBy, event.data.erasedAt, null, event.data.requestId);
      }
      case 'AccountSuspended':
        // The reason is in the user's notification and the event; the list shows who and when.
        return row('user_suspended', event.data.suspendedBy, event.data.suspendedAt, null, null);
      case 'AccountUnsuspended':
        return row('user_unsuspended', event.data.unsuspendedBy, event.data.unsuspendedAt, null, null);
      case 'SettingsUpdated':
        // Control values come into force only by an approval, which is audited itself.
        if (CONTROL_LIMIT_KEYS.some((key) => event.data[key] !== undefined) || event.data.taxRules !== undefined) return;
        return row('settings_updated', event.data.updatedBy, event.data.updatedAt, null, null, null);
      case 'SettingsChangeRequested':
        rows.upsert('audit_settings_requests', { id: event.data.requestId, requested_by: event.data.requestedBy }, { conflict: ['id'] });
        return row('settings_change_requested', event.data.requestedBy, event.data.requestedAt, null, event.data.requestId, null);
      case 'SettingsChangeApproved':
        return row('settings_change_approved', event.data.approvedBy, event.data.approvedAt, null, event.data.requestId, null);
      case 'SettingsChangeRejected': {
        const found = rows.get('audit_settings_requests', { id: event.data.requestId }, ['requested_by']);
        const action = found?.requested_by === event.data.rejectedBy ? 'settings_change_cancelled' : 'settings_change_rejected';
        return row(action, event.data.rejectedBy, event.data.rejectedAt, null, event.data.requestId, null);
      }
      // Where money events are sent outside: the endpoint id is the reference (its URL is on the webhooks screen).
      case 'WebhookEndpointRegistered':
        return row('webhook_endpoint_registered', event.data.registeredBy, event.data.registeredAt, null, event.data.endpointId, null);
      case 'WebhookEndpointDeleted':
        return row('webhook_endpoint_deleted', event.data.deletedBy, event.data.deletedAt, null, event.data.endpointId, null);
      case 'WebhookReplayRequested':
        return row('webhook_replay_requested', event.data.requestedBy, event.data.requestedAt, null, event.data.endpointId, null);
      default:
        return;
    }
  },
};

function record(
  rows: Rows,
  event: ProjectedEvent,
  action: AuditAction,
  actor: string,
  at: string,
  amount: number | null,
  reference: string | null,
  subject: string | null,
): void {
  rows.upsert(
    'audit_log',
    { id: event.id, position: event.position, at, actor_id: actor, action, subject_user_id: subject, amount_paise: amount, reference },
    { conflict: ['id'] },
  );
}
