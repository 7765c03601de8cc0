/**
 * journal_postings: one row per posting of the double-entry journal. Every money event is one
 * transaction (transaction_id = the event id) whose postings sum to zero. Amounts are signed paise:
 * positive credits the account (money arrives in it), negative debits it (money leaves it), so an
 * account's balance is the sum of its postings and a user's available balance is positive.
 */
export interface JournalPostingsTable {
  /** 2 × position + side (0 debit, 1 credit): the key, and the order postings are listed in. */
  seq: number;
  /** `<event id>:<index>`. */
  id: string;
  transaction_id: string;
  account: string;
  /** The user the transaction belongs to (set on both sides of it). */
  user_id: string | null;
  amount_paise: number;
  /** task_reward, kyc_bonus, adjustment, withdrawal, withdrawal_refund, withdrawal_paid. */
  kind: string;
  event_type: string;
  position: number;
  stream_id: string;
  revision: number;
  /** When it happened, as the event says (its creditedAt, debitedAt, paidAt). */
  effective_at: string;
  /** The staff member (or the user) who caused it. */
  actor: string | null;
  reason: string | null;
  /** The English description (LEDGER_TEXTS rendered) and its facts as JSON. */
  description: string;
  params: string | null;
  entry_id: string | null;
  submission_id: string | null;
  task_id: string | null;
  withdrawal_id: string | null;
  /** The bank or UPI transfer reference of a paid withdrawal. */
  utr: string | null;
}

/** journal_balances: running totals per account, so today's figures need no scan. */
export interface JournalBalancesTable {
  account: string;
  debit_paise: number;
  credit_paise: number;
}

/** journal_withdrawals: what the journal needs to settle a paid request whose event has no amount. */
export interface JournalWithdrawalsTable {
  id: string;
  user_id: string;
  amount_paise: number;
  status: 'pending' | 'paid' | 'rejected';
}
