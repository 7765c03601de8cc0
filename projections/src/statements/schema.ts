/** statement_exceptions: the bank statement exceptions queue (docs/payouts.md#statement-matching). */
export interface StatementExceptionsTable {
  id: string;
  run_id: string;
  position: number;
  /** unmatched_debit, unmatched_credit, missing_payout, balance_mismatch. */
  kind: string;
  line: number | null;
  /** IST day `YYYY-MM-DD` the exception dates from (its age counts from it). */
  date: string;
  amount_paise: number;
  reference: string | null;
  /** open, write_off_pending, matched, written_off. */
  status: string;
  /** The resolving or write-off note (free text, sealed in the log under its writer's key). */
  note: string | null;
  note_by: string | null;
  requested_by: string | null;
  resolved_by: string | null;
  resolved_at: string | null;
  /**
   * Which way the bank differs from the books: `out` (the bank holds less: a debit nothing matched,
   * or a closing balance below the ledger's), `in` (more); null for a missing payout.
   */
  direction: string | null;
}
