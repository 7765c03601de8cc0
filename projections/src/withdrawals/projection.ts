import type { Projection } from '../projection.ts';
import type { Rows, Update } from '../rows.ts';
import { DESTINATION_PATHS, erasedTextOf, scrubPaths } from '../erasure.ts';
import { userIdOf } from '../users/projection.ts';

/** withdrawal_requests: every request on a user's stream and how it was settled. */
export const withdrawalsProjection: Projection = {
  name: 'withdrawals',
  // 2: payout states (processing, failed, reversed), the batch and when processing began.
  // 3: the reason (a rejection's, the bank's) reads as erased once its person is.
  // 4: the tax withheld from it and its rules' codes (docs/tax.md).
  // 5: no index on batch_id: no query looks requests up by it (a batch's are found through
  //    payout_batch_items), and every request paid for one more index write (issue 39).
  version: 5,
  tables: {
    withdrawal_requests: {
      columns: `id TEXT PRIMARY KEY, user_id TEXT NOT NULL, amount_paise INTEGER NOT NULL, status TEXT NOT NULL,
        destination_kind TEXT NOT NULL, destination TEXT NOT NULL, requested_at TEXT NOT NULL, processed_at TEXT,
        processed_by TEXT, reference TEXT, reason TEXT, position INTEGER NOT NULL, batch_id TEXT, processing_at TEXT,
        tax_paise INTEGER NOT NULL, tax_code TEXT`,
      // What the queries use (EXPLAIN QUERY PLAN, issue 39): a user's list and last destination by
      // (user_id, position); finance's queues and counts by (status, position); one by id (the key).
      indexes: { user: 'user_id, position', status: 'status, position' },
    },
  },
  handles: ['WithdrawalRequested', 'WithdrawalPaid', 'WithdrawalRejected', 'WithdrawalProcessing', 'WithdrawalFailed', 'WithdrawalReversed', 'UserErased'],
  apply(rows, event) {
    switch (event.type) {
      case 'WithdrawalRequested': {
        const d = event.data;
        rows.insert('withdrawal_requests', {
          id: d.withdrawalId,
          user_id: userIdOf(event.streamId),
          amount_paise: d.amountPaise,
          status: 'pending',
          destination_kind: d.destination.kind,
          destination: JSON.stringify(d.destination),
          requested_at: d.requestedAt,
          processed_at: null,
          processed_by: null,
          reference: null,
          reason: null,
          position: event.position,
          batch_id: null,
          processing_at: null,
          tax_paise: (d.taxes ?? []).reduce((sum, t) => sum + t.amountPaise, 0),
          tax_code: d.taxes && d.taxes.length > 0 ? d.taxes.map((t) => t.code).join(' + ') : null,
        });
        return;
      }
      case 'WithdrawalPaid': {
        const d = event.data;
        return settle(rows, event.streamId, d.withdrawalId, { status: 'paid', processed_at: d.paidAt, processed_by: d.paidBy, reference: d.reference });
      }
      case 'WithdrawalRejected': {
        const d = event.data;
        return settle(rows, event.streamId, d.withdrawalId, { status: 'rejected', processed_at: d.rejectedAt, processed_by: d.rejectedBy, reason: d.reason });
      }
      case 'WithdrawalProcessing': {
        const d = event.data;
        return settle(rows, event.streamId, d.withdrawalId, { status: 'processing', batch_id: d.batchId, processing_at: d.processingAt });
      }
      case 'WithdrawalFailed': {
        const d = event.data;
        return settle(rows, event.streamId, d.withdrawalId, { status: 'failed', processed_at: d.failedAt, processed_by: d.by, reason: d.reason });
      }
      case 'WithdrawalReversed': {
        const d = event.data;
        // The UTR stays: it names the transfer the bank returned.
        return settle(rows, event.streamId, d.withdrawalId, { status: 'reversed', processed_at: d.reversedAt, processed_by: d.by, reason: d.reason });
      }
      case 'UserErased': {
        // The destination's personal parts and the reason read as erased, as a rebuild decodes them; kind and IFSC stay.
        for (const row of rows.all('withdrawal_requests', { user_id: userIdOf(event.streamId) }, ['id', 'destination', 'reason', 'status'])) {
          const destination = scrubPaths(JSON.parse(row.destination) as Record<string, unknown>, DESTINATION_PATHS);
          const reason = row.reason === null ? null : (erasedTextOf(REASON_EVENT[row.status] ?? 'WithdrawalRejected', 'reason') ?? row.reason);
          rows.update('withdrawal_requests', { id: row.id }, { set: { destination: JSON.stringify(destination), reason } });
        }
        return;
      }
      default:
        return;
    }
  },
};

/** Which event a settled request's reason came from, by the status it left. */
const REASON_EVENT: Readonly<Record<string, 'WithdrawalRejected' | 'WithdrawalFailed' | 'WithdrawalReversed'>> = {
  rejected: 'WithdrawalRejected',
  failed: 'WithdrawalFailed',
  reversed: 'WithdrawalReversed',
};

/** A request's new state, on the row of that request on that user's stream only. */
function settle(rows: Rows, streamId: string, withdrawalId: string, set: NonNullable<Update<'withdrawal_requests'>['set']>): void {
  rows.update('withdrawal_requests', { id: withdrawalId, user_id: userIdOf(streamId) }, { set });
}
