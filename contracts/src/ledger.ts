import * as v from 'valibot';
import { Mobile } from './auth.ts';
import { WITHDRAWAL_STATUSES } from './withdrawals.ts';

/**
 * Finance's ledger (issue 11): statements, balances as of a moment, trial balance, reconciliation,
 * the withdrawal history and the tamper check. Money on the wire is decimal rupees ("125.00").
 */

/** A moment: a date (`2026-11-01`, its start in UTC) or an ISO-8601 timestamp. */
export const Moment = v.pipe(
  v.string('Give a date or an ISO-8601 time'),
  v.trim(),
  v.regex(/^\d{4}-\d{2}-\d{2}(T\d{2}:\d{2}(:\d{2}(\.\d{1,3})?)?(Z|[+-]\d{2}:\d{2}))?$/, 'Give a date (YYYY-MM-DD) or an ISO-8601 time'),
  v.check((s) => !Number.isNaN(Date.parse(s)), 'Give a real date'),
  v.transform((s) => new Date(s).toISOString()),
);

export const LedgerUserParam = v.object({ mobile: Mobile });

export const StatementQuery = v.object({
  from: v.optional(Moment),
  to: v.optional(Moment),
  format: v.optional(v.picklist(['json', 'csv'], 'format must be json or csv'), 'json'),
});
export const BalanceQuery = v.object({ at: v.optional(Moment) });
export const TrialBalanceQuery = v.object({ at: v.optional(Moment) });

/** Page size of the withdrawal list; the next page is named by `X-Next-Cursor`, never cut silently. */
export const WITHDRAWAL_PAGE_SIZE = 500;

/** GET /api/admin/withdrawals?status=pending|paid|rejected|all&from=&to=&cursor=&format=csv */
export const WithdrawalListQuery = v.object({
  status: v.optional(v.picklist([...WITHDRAWAL_STATUSES, 'all'], 'status must be pending, paid, rejected or all'), 'pending'),
  from: v.optional(Moment),
  to: v.optional(Moment),
  cursor: v.optional(v.pipe(v.string(), v.regex(/^\d{1,15}$/, 'cursor is the X-Next-Cursor of the previous page'))),
  limit: v.optional(v.pipe(v.string(), v.regex(/^\d{1,4}$/, 'limit is 1 to 1000'), v.transform(Number), v.minValue(1, 'limit is 1 to 1000'), v.maxValue(1000, 'limit is 1 to 1000'))),
  format: v.optional(v.picklist(['json', 'csv'], 'format must be json or csv'), 'json'),
});

export interface LedgerActor {
  id: string;
  name: string;
  mobile: string | null;
}

export interface StatementEntryBody {
  position: number;
  revision: number;
  time: string;
  kind: string;
  description: string;
  /** Change of the available balance. */
  amount: string;
  pendingPayoutChange: string;
  /** Available balance after this entry. */
  balance: string;
  pendingPayout: string;
  actor: LedgerActor | null;
  reason: string | null;
  references: { submissionId: string | null; taskId: string | null; withdrawalId: string | null; utr: string | null };
}

export interface StatementBody {
  user: { id: string; name: string; mobile: string };
  from: string | null;
  to: string | null;
  opening: { available: string; pendingPayout: string };
  entries: StatementEntryBody[];
  closing: { available: string; pendingPayout: string };
}

export interface LedgerBalanceBody {
  available: string;
  pendingPayout: string;
  at: string;
  /** Log position of the last event counted. */
  position: number;
}

export interface TrialBalanceBody {
  at: string | null;
  accounts: { account: string; debit: string; credit: string; balance: string }[];
  totalDebit: string;
  totalCredit: string;
  difference: string;
}

export interface ReconciliationBody {
  available: string;
  pendingPayout: string;
  funded: string;
  paid: string;
  /** available + pendingPayout − (funded − paid); "0.00" when the books agree. */
  difference: string;
  /** Log position the read models reflect, and the store's head. */
  position: number;
  headPosition: number;
}

/** GET /api/admin/ledger/verify and `verify-ledger`. */
export interface LedgerVerifyBody {
  ok: boolean;
  events: number;
  headHash: string | null;
  headPosition: number;
  /** Where the chain first breaks, when it does. */
  failure: { streamId: string; position: number; revision: number | null; problem: 'changed' | 'removed' | 'inserted' | 'reordered'; detail: string } | null;
}

/** The commands that accept an `Idempotency-Key` header (POST paths): money and review decisions. */
export const IDEMPOTENT_COMMANDS: readonly RegExp[] = [
  /^\/api\/withdrawals$/,
  /^\/api\/admin\/adjustments$/,
  /^\/api\/admin\/adjustments\/[^/]+\/(approve|reject)$/,
  /^\/api\/admin\/withdrawals\/[^/]+\/(paid|reject)$/,
  /^\/api\/tasks\/[^/]+\/submit-proof$/,
  /^\/api\/admin\/submissions\/[^/]+\/(approve|reject)$/,
];

/** An Idempotency-Key: 1 to 100 visible ASCII characters. */
export const IDEMPOTENCY_KEY_PATTERN = /^[\x21-\x7e]{1,100}$/;
