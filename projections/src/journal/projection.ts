import type { ProjectedEvent, Projection } from '../projection.ts';
import type { RowOf, Rows, Upsert } from '../rows.ts';
import { userIdOf } from '../users/projection.ts';
import { type JournalTransaction, type KnownWithdrawal, journalTransactionOf } from './accounts.ts';

/**
 * The double-entry journal: each money event of a user's stream becomes one transaction of two
 * postings that sum to zero (see accounts.ts for the mapping), and the accounts' running totals.
 * Keeps its own record of withdrawal amounts so it depends on no other read model.
 */
export const journalProjection: Projection = {
  name: 'journal',
  // 2: journal_postings keyed by (position, id); data directories built by version 1 are rebuilt aside.
  // 3: keyed by seq (the rowid), no (account, effective_at) index.
  version: 3,
  tables: {
    // Keyed by seq = 2 × position + side, as the rowid: positions only grow, so the table's pages fill
    // in order (a key on the random ids put each posting on a random page), it refuses an event applied
    // twice, its order is the (position, id) order postings are listed in, and no separate index of
    // the key is written. The one other index serves every per-user query (by account, in position
    // order); their time ranges filter a user's few postings. Each index dropped here saved a B-tree
    // insert per posting, the journal being about half of a rebuild's CPU.
    journal_postings: {
      columns: `seq INTEGER PRIMARY KEY, id TEXT NOT NULL, transaction_id TEXT NOT NULL, account TEXT NOT NULL, user_id TEXT,
        amount_paise INTEGER NOT NULL, kind TEXT NOT NULL, event_type TEXT NOT NULL, position INTEGER NOT NULL,
        stream_id TEXT NOT NULL, revision INTEGER NOT NULL, effective_at TEXT NOT NULL, actor TEXT, reason TEXT,
        description TEXT NOT NULL, params TEXT, entry_id TEXT, submission_id TEXT, task_id TEXT, withdrawal_id TEXT, utr TEXT`,
      indexes: { account: 'account, position' },
    },
    journal_balances: {
      columns: `account TEXT PRIMARY KEY, debit_paise INTEGER NOT NULL, credit_paise INTEGER NOT NULL`,
    },
    // The amounts of withdrawal requests, so a WithdrawalPaid without one can still be posted.
    journal_withdrawals: {
      columns: `id TEXT PRIMARY KEY, user_id TEXT NOT NULL, amount_paise INTEGER NOT NULL, status TEXT NOT NULL`,
    },
  },
  handles: ['WalletCredited', 'WalletDebited', 'WithdrawalRequested', 'WithdrawalRejected', 'WithdrawalPaid'],
  apply(rows, event) {
    if (!event.streamId.startsWith('user-')) return;
    const userId = userIdOf(event.streamId);
    if (event.type === 'WithdrawalRequested') {
      rows.upsert(
        'journal_withdrawals',
        { id: event.data.withdrawalId, user_id: userId, amount_paise: event.data.amountPaise, status: 'pending' },
        { conflict: ['id'] },
      );
      return;
    }
    if (event.type === 'WithdrawalRejected') {
      rows.update('journal_withdrawals', { id: event.data.withdrawalId }, { set: { status: 'rejected' } });
      return;
    }
    let known: KnownWithdrawal | undefined;
    if (event.type === 'WithdrawalPaid') {
      const row = rows.get('journal_withdrawals', { id: event.data.withdrawalId }, ['user_id', 'amount_paise']);
      known = row && { userId: row.user_id, amountPaise: row.amount_paise };
      rows.update('journal_withdrawals', { id: event.data.withdrawalId }, { set: { status: 'paid' } });
    }
    const transaction = journalTransactionOf(event, userId, () => known);
    if (!transaction) return;
    post(rows, event, transaction);
  },
};

/** One constant, so the row writer sees the same upsert each time (rows.ts reuses its statement). */
const BALANCE: Upsert<'journal_balances'> = { conflict: ['account'], add: ['debit_paise', 'credit_paise'] };

function post(rows: Rows, event: ProjectedEvent, t: JournalTransaction): void {
  rows.insert('journal_postings', posting(event, t, 0, t.from, -t.amountPaise));
  rows.insert('journal_postings', posting(event, t, 1, t.to, t.amountPaise));
  rows.upsert('journal_balances', { account: t.from, debit_paise: t.amountPaise, credit_paise: 0 }, BALANCE);
  rows.upsert('journal_balances', { account: t.to, debit_paise: 0, credit_paise: t.amountPaise }, BALANCE);
}

/** One side of a transaction, as a row (one literal, no spread: two per money event of every rebuild). */
function posting(event: ProjectedEvent, t: JournalTransaction, side: 0 | 1, account: string, amount: number): RowOf<'journal_postings'> {
  return {
    seq: 2 * event.position + side,
    id: `${event.id}:${side}`,
    transaction_id: event.id,
    account,
    user_id: t.userId,
    amount_paise: amount,
    kind: t.kind,
    event_type: event.type,
    position: event.position,
    stream_id: event.streamId,
    revision: event.revision,
    effective_at: t.effectiveAt,
    actor: t.actor,
    reason: t.reason,
    description: t.description,
    params: t.params,
    entry_id: t.entryId,
    submission_id: t.submissionId,
    task_id: t.taskId,
    withdrawal_id: t.withdrawalId,
    utr: t.utr,
  };
}
