import * as v from 'valibot';
import { BankStatementRunBody } from './payouts.ts';
import { noControlCharacters } from './text.ts';
import { refusal } from './refusal.ts';

/**
 * Statement matching (docs/payouts.md#statement-matching): what a statement line may be matched to,
 * and the exceptions queue of what nothing matched, each resolved by hand with a note or written off
 * by two finance members.
 */

export const STATEMENT_MESSAGES = {
  exceptionNotFound: 'Statement exception not found',
  decided: 'This statement exception is already resolved',
  writeOffPending: 'A write-off of this exception is already waiting for a second finance member',
  noWriteOff: 'Nobody has asked to write this exception off',
  ownWriteOff: 'You asked to write this off, so another finance member must approve it',
  note: 'Write a note of 1 to 300 characters',
  status: 'status must be open, resolved or all',
} as const;

/** How a statement line was matched: to one payout, a whole batch, as a bank fee, a funding, or a payout the bank returned. */
export const STATEMENT_MATCH_KINDS = ['payout', 'batch', 'fee', 'funding', 'returned_payout'] as const;
export type StatementMatchKind = (typeof STATEMENT_MATCH_KINDS)[number];

/**
 * What the exceptions queue holds: a debit or credit line nothing matched, a payout the ledger paid
 * that no line shows, and a closing balance that differs from the ledger's bank account.
 */
export const STATEMENT_EXCEPTION_KINDS = ['unmatched_debit', 'unmatched_credit', 'missing_payout', 'balance_mismatch'] as const;
export type StatementExceptionKind = (typeof STATEMENT_EXCEPTION_KINDS)[number];

/** `write_off_pending`: one member asked to write it off, a second must approve. */
export const STATEMENT_EXCEPTION_STATUSES = ['open', 'write_off_pending', 'matched', 'written_off'] as const;
export type StatementExceptionStatus = (typeof STATEMENT_EXCEPTION_STATUSES)[number];

/** Words that make a debit line a bank charge (fee, charges, commission, GST on them). */
export const BANK_FEE_PATTERN = /\b(fee|fees|charge|charges|chgs|commission|gst)\b/i;

/** One exception of the queue, as GET /api/admin/ledger/statement-exceptions answers it. */
export const StatementExceptionBody = v.object({
  id: v.string(),
  runId: v.string(),
  kind: v.picklist(STATEMENT_EXCEPTION_KINDS),
  /** The statement's line (the header is line 1); null for a missing payout or the balance. */
  line: v.nullable(v.number()),
  /** The IST day of the line, of the payout, or the statement's last day for the balance. */
  date: v.string(),
  amount: v.string(),
  /** The UTR, funding reference or withdrawal id it concerns, when there is one. */
  reference: v.nullable(v.string()),
  /** Whole days since `date`, today (IST) counted as 0. */
  ageDays: v.number(),
  status: v.picklist(STATEMENT_EXCEPTION_STATUSES),
  /** The resolving (or write-off) note; sealed in the log under its writer's key. */
  note: v.nullable(v.string()),
  requestedBy: v.nullable(v.string()),
  resolvedBy: v.nullable(v.string()),
  resolvedAt: v.nullable(v.string()),
});
export type StatementExceptionBody = v.InferOutput<typeof StatementExceptionBody>;

/** What the matching of one statement found, beside the run (POST /api/admin/ledger/bank-statements). */
export const StatementMatchingBody = v.object({
  /** The tolerance in force (the `statementMatchTolerance` setting). */
  tolerance: v.string(),
  matched: v.object({ payouts: v.number(), batches: v.number(), fees: v.number(), fundings: v.number(), returnedPayouts: v.number() }),
  /** The bank fees the statement shows, each matched beside a payout or batch line. */
  fees: v.string(),
  /** The statement's closing balance (its last line's `balance`); null when it has no balance column. */
  closingBalance: v.nullable(v.string()),
  /** platform:bank's cash at the end of the statement's last day (funded − paid). */
  ledgerBalance: v.string(),
  exceptions: v.array(StatementExceptionBody),
});
export type StatementMatchingBody = v.InferOutput<typeof StatementMatchingBody>;

export const BankStatementImportBody = v.object({ ...BankStatementRunBody.entries, matching: StatementMatchingBody });
export type BankStatementImportBody = v.InferOutput<typeof BankStatementImportBody>;

/** POST …/statement-exceptions/:id/match and …/write-off: a note saying why. */
export const StatementExceptionNote = v.object({
  note: v.pipe(v.string(refusal('statement.note')), v.trim(), v.minLength(1, refusal('statement.note')), v.maxLength(300, refusal('statement.note')), noControlCharacters()),
});

/** GET /api/admin/ledger/statement-exceptions?status=open|resolved|all (default open: open and awaiting write-off). */
export const StatementExceptionsQuery = v.object({
  status: v.optional(v.picklist(['open', 'resolved', 'all'], refusal('statement.status')), 'open'),
});
