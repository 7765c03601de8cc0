import type { FundingStatus } from '@kamai/contracts';

/** payout_batches: one row per payout batch, its totals kept as withdrawals join or leave it. */
export interface PayoutBatchesTable {
  id: string;
  count: number;
  total_paise: number;
  /** 1 when its total was above the approval threshold as it was created. */
  approval_required: number;
  created_by: string;
  created_at: string;
  approved_by: string | null;
  approved_at: string | null;
  file_downloads: number;
  position: number;
}

/** payout_batch_items: which withdrawals a batch holds (its own record, so it depends on no other read model). */
export interface PayoutBatchItemsTable {
  batch_id: string;
  withdrawal_id: string;
  user_id: string;
  amount_paise: number;
}

/** bank_statement_runs: every reconciliation of a bank statement, with its differences as JSON. */
export interface BankStatementRunsTable {
  id: string;
  position: number;
  by: string;
  at: string;
  from_date: string;
  to_date: string;
  lines: number;
  /** JSON arrays, as the event holds them (paise). */
  missing: string;
  unmatched: string;
}

/** bank_fundings: the company's fundings of the payout account, pending, booked or rejected. */
export interface BankFundingsTable {
  id: string;
  position: number;
  amount_paise: number;
  reference: string;
  /** The IST day the money arrived. */
  value_date: string;
  status: FundingStatus;
  recorded_by: string;
  recorded_at: string;
  decided_by: string | null;
  decided_at: string | null;
}
