/**
 * journal_entries: the double-entry journal, one row per journal transaction. Every money event of a
 * user's stream is one transaction: `amount_paise` (always positive) leaves `from_account` and
 * arrives in `to_account`, so its two postings (−amount on from, +amount on to) sum to zero by
 * construction. An account's balance is what arrived in it minus what left it, so a user's available
 * balance is positive. The postings are listed from these rows (queries.ts, `listPostings`).
 */
export interface JournalEntriesTable {
  /** The money event's global position: the key, and the order entries are listed in. */
  position: number;
  /** The money event's id. */
  transaction_id: string;
  /** The user the transaction belongs to (one of its accounts is theirs); `platform` for a funding of the payout account. */
  user_id: string;
  /** The event's revision in the user's stream. */
  revision: number;
  /** task_reward, kyc_bonus, adjustment, withdrawal, withdrawal_refund, withdrawal_paid, payout_failed, payout_reversal. */
  kind: string;
  from_account: string;
  to_account: string;
  amount_paise: number;
  /**
   * When it was recorded, as the event says (its creditedAt, debitedAt, paidAt): the recorded time.
   * (The name is older than effective_date; other read models' queries use it.)
   */
  effective_at: string;
  /** The staff member (or the user) who caused it. */
  actor: string | null;
  /** The facts the description is made of, as JSON (LEDGER_TEXTS[kind] filled in on reading). */
  params: string | null;
  /**
   * 1 for an entry recorded before descriptions were keys: its literal description (free text, which
   * may quote a reason) stays sealed in its event, and queries read it there (literalDescriptions).
   */
  description_in_event: number;
  entry_id: string | null;
  submission_id: string | null;
  task_id: string | null;
  withdrawal_id: string | null;
  /** The bank or UPI transfer reference of a paid withdrawal. */
  utr: string | null;
  /** The IST day (YYYY-MM-DD) it takes effect in the books: an adjustment's effectiveDate, a bank's value date, else its recorded day. */
  effective_date: string;
  /** The transaction, entry or funding id a correction corrects. */
  corrects: string | null;
}

/** journal_balances: running totals per account, so today's figures need no scan. */
export interface JournalBalancesTable {
  account: string;
  /** Paise that left the account. */
  debit_paise: number;
  /** Paise that arrived in it. */
  credit_paise: number;
}

/** journal_withdrawals: what the journal needs to settle a paid request whose event has no amount. */
export interface JournalWithdrawalsTable {
  id: string;
  user_id: string;
  amount_paise: number;
  status: 'pending' | 'paid' | 'rejected';
}
