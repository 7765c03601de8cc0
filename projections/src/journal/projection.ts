import { LEDGER_PARAM_PATHS, scrubPaths } from '../erasure.ts';
import type { ProjectedEvent, Projection } from '../projection.ts';
import type { Rows, Upsert } from '../rows.ts';
import { userIdOf } from '../users/projection.ts';
import { type JournalTransaction, type KnownWithdrawal, PLATFORM_ENTRY, journalTransactionOf } from './accounts.ts';

/** The events the journal posts or keeps what posting needs from. */
const JOURNAL_TYPES: ProjectedEvent['type'][] = [
  'WalletCredited',
  'WalletDebited',
  'WithdrawalRequested',
  'WithdrawalRejected',
  'WithdrawalPaid',
  'UserErased',
  'BankFundingRecorded',
  'BankFundingApproved',
  'BankFundingReversed',
  'TaxDepositRecorded',
  'BankFeeBooked',
  'StatementDifferenceBooked',
];

/**
 * The double-entry journal: each money event of a user's stream becomes one transaction, money
 * moving from one account to another (see accounts.ts for the mapping), and the accounts' running
 * totals. Keeps its own record of withdrawal amounts so it depends on no other read model.
 */
export const journalProjection: Projection = {
  name: 'journal',
  // 2: journal_postings keyed by (position, id); data directories built by version 1 are rebuilt aside.
  // 3: keyed by seq (the rowid), no (account, effective_at) index.
  // 4: one journal_entries row per transaction instead of two journal_postings rows; descriptions
  //    rendered when read, not stored.
  // 5: every reason in the parameters (credits' too) and an older entry's literal description read as erased once its person is.
  // 6: each entry's effective day (IST) beside its recorded time, and what a correction corrects.
  // 7: an older entry's literal description no longer kept here: read from its event when listed (event-texts.ts).
  version: 7,
  tables: {
    // One row per transaction, its two accounts side by side: half the rows and index entries of a
    // row per posting, the journal having been about half of a rebuild's CPU. Keyed by the event's
    // position, as the rowid: positions only grow, so the pages fill in order, an event applied twice
    // is refused, and no separate index of the key is written. The one other index serves every
    // per-user query (every transaction touches exactly one user's accounts); their time ranges
    // filter a user's few entries.
    journal_entries: {
      columns: `position INTEGER PRIMARY KEY, transaction_id TEXT NOT NULL, user_id TEXT NOT NULL, revision INTEGER NOT NULL,
        kind TEXT NOT NULL, from_account TEXT NOT NULL, to_account TEXT NOT NULL, amount_paise INTEGER NOT NULL,
        effective_at TEXT NOT NULL, actor TEXT, params TEXT, description_in_event INTEGER NOT NULL, entry_id TEXT, submission_id TEXT,
        task_id TEXT, withdrawal_id TEXT, utr TEXT, effective_date TEXT NOT NULL, corrects TEXT`,
      indexes: { user: 'user_id, position' },
    },
    journal_balances: {
      columns: `account TEXT PRIMARY KEY, debit_paise INTEGER NOT NULL, credit_paise INTEGER NOT NULL`,
    },
    // The amounts of withdrawal requests, so a WithdrawalPaid without one can still be posted.
    journal_withdrawals: {
      columns: `id TEXT PRIMARY KEY, user_id TEXT NOT NULL, amount_paise INTEGER NOT NULL, status TEXT NOT NULL`,
    },
  },
  retired: ['journal_postings'],
  handles: JOURNAL_TYPES,
  // A money event's parameters (a reason, a destination), not an older one's literal description: it stays sealed in its event.
  opens: [
    ...JOURNAL_TYPES.filter((type) => type !== 'WalletCredited' && type !== 'WalletDebited'),
    ...(['WalletCredited', 'WalletDebited'] as const).flatMap((type) => [`${type}:params.destination`, `${type}:params.reason`] as const),
  ],
  apply(rows, event) {
    if (event.type === 'BankFundingRecorded' || event.type === 'BankFundingApproved' || event.type === 'BankFundingReversed' || event.type === 'TaxDepositRecorded' || event.type === 'BankFeeBooked' || event.type === 'StatementDifferenceBooked') {
      const transaction = journalTransactionOf(event, PLATFORM_ENTRY, () => undefined);
      if (transaction) post(rows, event, transaction);
      return;
    }
    if (!event.streamId.startsWith('user-')) return;
    const userId = userIdOf(event.streamId);
    if (event.type === 'UserErased') {
      // Amounts, accounts and dates stay; parameters that name the person's details read as erased.
      // (An older entry's literal description reads as erased from its event: the person's key is gone.)
      for (const row of rows.all('journal_entries', { user_id: userId }, ['position', 'params'])) {
        if (row.params === null) continue;
        const params = JSON.parse(row.params) as Record<string, unknown>;
        if (!LEDGER_PARAM_PATHS.some((path) => Object.hasOwn(params, path))) continue;
        rows.update('journal_entries', { position: row.position }, { set: { params: JSON.stringify(scrubPaths(params, LEDGER_PARAM_PATHS)) } });
      }
      return;
    }
    if (event.type === 'WithdrawalRequested') {
      rows.upsert(
        'journal_withdrawals',
        // What the bank is paid: the amount less the tax withheld (moved to tax payable on entries of its own).
        { id: event.data.withdrawalId, user_id: userId, amount_paise: event.data.amountPaise - (event.data.taxes ?? []).reduce((sum, t) => sum + t.amountPaise, 0), status: 'pending' },
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

/** The transaction's row (one literal, no spread: one per money event of every rebuild) and the two accounts' totals. */
function post(rows: Rows, event: ProjectedEvent, t: JournalTransaction): void {
  rows.insert('journal_entries', {
    position: event.position,
    transaction_id: event.id,
    user_id: t.userId,
    revision: event.revision,
    kind: t.kind,
    from_account: t.from,
    to_account: t.to,
    amount_paise: t.amountPaise,
    effective_at: t.effectiveAt,
    actor: t.actor,
    params: t.params,
    description_in_event: t.description === null ? 0 : 1,
    entry_id: t.entryId,
    submission_id: t.submissionId,
    task_id: t.taskId,
    withdrawal_id: t.withdrawalId,
    utr: t.utr,
    effective_date: t.effectiveDate,
    corrects: t.corrects,
  });
  rows.upsert('journal_balances', { account: t.from, debit_paise: t.amountPaise, credit_paise: 0 }, BALANCE);
  rows.upsert('journal_balances', { account: t.to, debit_paise: 0, credit_paise: t.amountPaise }, BALANCE);
}
