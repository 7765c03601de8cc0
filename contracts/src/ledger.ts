import * as v from 'valibot';
import { Mobile } from './auth.ts';
import { WITHDRAWAL_STATUSES } from './withdrawals.ts';
import { istDay } from './days.ts';
import { JournalDatingParam } from './periods.ts';
import { refusal } from './refusal.ts';

/**
 * Finance's ledger: statements, balances as of a moment, trial balance, reconciliation,
 * the withdrawal history and the tamper check. Money on the wire is decimal rupees ("125.00").
 */

const DATE_ONLY = /^\d{4}-\d{2}-\d{2}$/;

/**
 * Periods as people give them: a date means the whole day in India time, so a period's start is
 * its first moment and its end (and an "as of" date) its last moment; an ISO time is taken as given.
 */
export function periodStart(moment: string): string {
  return DATE_ONLY.test(moment) ? istDay(moment).start : new Date(moment).toISOString();
}
export function periodEnd(moment: string): string {
  return DATE_ONLY.test(moment) ? istDay(moment).end : new Date(moment).toISOString();
}

/** A moment: a date (`2026-11-01`, a whole IST day) or an ISO-8601 timestamp, as the UTC instant `edge` makes it. */
function moment(edge: 'start' | 'end') {
  return v.pipe(
    v.string(refusal('api.dateOrTime')),
    v.trim(),
    v.regex(/^\d{4}-\d{2}-\d{2}(T\d{2}:\d{2}(:\d{2}(\.\d{1,3})?)?(Z|[+-]\d{2}:\d{2}))?$/, refusal('api.dateFormatOrTime')),
    v.check((s) => !Number.isNaN(Date.parse(s)), refusal('api.realDate')),
    v.transform(edge === 'start' ? periodStart : periodEnd),
  );
}
/** A period's start: a date is its first moment in India time. */
export const MomentFrom = moment('start');
/** A period's end or an "as of": a date is its last moment in India time (inclusive). */
export const MomentTo = moment('end');

/** A staff route's user id that is not one (a mobile number in its place, say). */
export const USER_ID_MESSAGE = 'Give a user id';

/**
 * Whose ledger: a user id (the only name an erased person still has). Never a mobile number: a path
 * is written to request logs and browser histories; a number is looked up with
 * `POST /api/admin/ledger/users/lookup` (LedgerUserLookupRequest), its body never logged.
 */
export const LedgerUserParam = v.object({
  userId: v.pipe(v.string(), v.uuid(refusal('api.userIdParam'))),
});

/** `POST /api/admin/ledger/users/lookup`: whose is this mobile number. */
export const LedgerUserLookupRequest = v.object({ mobile: Mobile });

/** The answer to a lookup: the user's id (for the ledger routes), name and mobile. */
export const LedgerUserLookupBody = v.strictObject({ id: v.string(), name: v.string(), mobile: v.string() });
export type LedgerUserLookupBody = v.InferOutput<typeof LedgerUserLookupBody>;

export const StatementQuery = v.object({
  from: v.optional(MomentFrom),
  to: v.optional(MomentTo),
  format: v.optional(v.picklist(['json', 'csv'], refusal('api.formatValue')), 'json'),
  by: JournalDatingParam,
});
export const BalanceQuery = v.object({ at: v.optional(MomentTo) });
export const TrialBalanceQuery = v.object({ at: v.optional(MomentTo), by: JournalDatingParam });

/**
 * An Indian financial year, `2025-26`: 1 April 2025 to 31 March 2026, whole days in India time.
 * Null when the label is not one.
 */
export function financialYear(label: string): { label: string; from: string; to: string } | null {
  const match = /^(\d{4})-(\d{2})$/.exec(label);
  if (!match) return null;
  const start = Number(match[1]);
  if ((start + 1) % 100 !== Number(match[2])) return null;
  return { label, from: periodStart(`${start}-04-01`), to: periodEnd(`${start + 1}-03-31`) };
}

/** The finance list's status filter: a state, every settled one, or all. */
export const WITHDRAWAL_LIST_STATUS_MESSAGE = 'status must be pending, processing, paid, failed, rejected, reversed, settled or all';

export const FINANCIAL_YEAR_MESSAGE = 'Give the financial year as 2025-26 (April to March)';

/** GET /api/admin/reports/yearly?fy=2025-26&format=json|csv */
export const YearlyReportQuery = v.object({
  fy: v.pipe(v.string(refusal('api.financialYear')), v.trim(), v.check((s) => financialYear(s) !== null, refusal('api.financialYear'))),
  format: v.optional(v.picklist(['json', 'csv'], refusal('api.formatValue')), 'json'),
});

/** One person's year: what they earned and were paid, in decimal rupees. */
export const YearlyReportLine = v.strictObject({
  userId: v.string(),
  /** The person's name, or "erased". */
  name: v.string(),
  /** Masked; null for an erased person. */
  mobile: v.nullable(v.string()),
  /** The PAN given at KYC (an approved PAN card's first); null when none was given. */
  pan: v.nullable(v.string()),
  /** Task rewards credited. */
  rewards: v.string(),
  /** KYC bonuses credited. */
  bonuses: v.string(),
  /** Finance's adjustments, credits less debits. */
  adjustments: v.string(),
  /** Withdrawals paid to the bank, less those the bank returned. */
  payouts: v.string(),
  /** Invitation bonuses credited (docs/invitations.md). */
  referralBonuses: v.string(),
  /** Withdrawals asked in the year before tax (those given back left out), the tax withheld from them, and what the bank was sent (docs/tax.md). */
  grossPaid: v.string(),
  taxDeducted: v.string(),
  netPaid: v.string(),
});
export type YearlyReportLine = v.InferOutput<typeof YearlyReportLine>;

/** GET /api/admin/reports/yearly (format=json). */
export const YearlyReportBody = v.strictObject({
  fy: v.string(),
  from: v.string(),
  to: v.string(),
  people: v.array(YearlyReportLine),
  totals: v.strictObject({
    rewards: v.string(), bonuses: v.string(), adjustments: v.string(), payouts: v.string(), referralBonuses: v.string(),
    grossPaid: v.string(), taxDeducted: v.string(), netPaid: v.string(),
  }),
  /** Per PAN (every account that gave it): gross, tax and net, for the accountant; people without a PAN are not in it. */
  byPan: v.array(v.strictObject({ pan: v.string(), accounts: v.number(), grossPaid: v.string(), taxDeducted: v.string(), netPaid: v.string() })),
});
export type YearlyReportBody = v.InferOutput<typeof YearlyReportBody>;

/** Page size of the withdrawal list; the next page is named by `X-Next-Cursor`, never cut silently. */
export const WITHDRAWAL_PAGE_SIZE = 500;

/** The statuses a withdrawal ends in: `status=settled` on the withdrawal list asks for all of them. */
export const SETTLED_WITHDRAWAL_STATUSES = ['paid', 'failed', 'rejected', 'reversed'] as const;

/** GET /api/admin/withdrawals?status=pending|…|settled|all&from=&to=&late=&cursor=&format=csv */
export const WithdrawalListQuery = v.object({
  status: v.optional(v.picklist([...WITHDRAWAL_STATUSES, 'settled', 'all'], refusal('api.withdrawalListStatus')), 'pending'),
  from: v.optional(MomentFrom),
  to: v.optional(MomentTo),
  /** Processing longer than the `latePayoutDays` setting (with status=processing or all). */
  late: v.optional(v.picklist(['true', 'false'], refusal('api.lateValue'))),
  cursor: v.optional(v.pipe(v.string(), v.regex(/^\d{1,15}$/, refusal('api.cursorValue')))),
  limit: v.optional(v.pipe(v.string(), v.regex(/^\d{1,4}$/, refusal('api.limitRange')), v.transform(Number), v.minValue(1, refusal('api.limitRange')), v.maxValue(1000, refusal('api.limitRange')))),
  format: v.optional(v.picklist(['json', 'csv'], refusal('api.formatValue')), 'json'),
});

export const LedgerActor = v.strictObject({ id: v.string(), name: v.string(), mobile: v.nullable(v.string()) });
export type LedgerActor = v.InferOutput<typeof LedgerActor>;

/** Available balance and pending payout, decimal rupees. */
const Balances = v.strictObject({ available: v.string(), pendingPayout: v.string() });

export const StatementEntryBody = v.strictObject({
  position: v.number(),
  revision: v.number(),
  time: v.string(),
  kind: v.string(),
  description: v.string(),
  /** Change of the available balance. */
  amount: v.string(),
  pendingPayoutChange: v.string(),
  /** Available balance after this entry. */
  balance: v.string(),
  pendingPayout: v.string(),
  actor: v.nullable(LedgerActor),
  reason: v.nullable(v.string()),
  references: v.strictObject({
    submissionId: v.nullable(v.string()),
    taskId: v.nullable(v.string()),
    withdrawalId: v.nullable(v.string()),
    utr: v.nullable(v.string()),
  }),
  /** The IST day it takes effect in the books (`time` is when it was recorded). */
  effectiveDate: v.string(),
  /** The transaction, entry or funding id a correction corrects. */
  corrects: v.nullable(v.string()),
});
export type StatementEntryBody = v.InferOutput<typeof StatementEntryBody>;

/** GET /api/admin/ledger/users/:userId/statement (format=json). */
export const StatementBody = v.strictObject({
  user: v.strictObject({ id: v.string(), name: v.string(), mobile: v.string() }),
  from: v.nullable(v.string()),
  to: v.nullable(v.string()),
  opening: Balances,
  entries: v.array(StatementEntryBody),
  closing: Balances,
});
export type StatementBody = v.InferOutput<typeof StatementBody>;

/** GET /api/admin/ledger/users/:userId/balance */
export const LedgerBalanceBody = v.strictObject({
  available: v.string(),
  pendingPayout: v.string(),
  at: v.string(),
  /** Log position of the last event counted. */
  position: v.number(),
});
export type LedgerBalanceBody = v.InferOutput<typeof LedgerBalanceBody>;

/** GET /api/admin/ledger/trial-balance */
export const TrialBalanceBody = v.strictObject({
  at: v.nullable(v.string()),
  /** `holder`: whose account it is (name and masked mobile, or name "erased"); null for the platform's. */
  accounts: v.array(
    v.strictObject({
      account: v.string(),
      holder: v.nullable(v.strictObject({ id: v.string(), name: v.string(), mobile: v.nullable(v.string()) })),
      debit: v.string(),
      credit: v.string(),
      balance: v.string(),
    }),
  ),
  totalDebit: v.string(),
  totalCredit: v.string(),
  difference: v.string(),
});
export type TrialBalanceBody = v.InferOutput<typeof TrialBalanceBody>;

/** GET /api/admin/ledger/reconciliation and `reconcile`. */
export const ReconciliationBody = v.strictObject({
  available: v.string(),
  pendingPayout: v.string(),
  funded: v.string(),
  paid: v.string(),
  /** Tax withheld from withdrawals and not given back (platform:tax_payable, docs/tax.md). */
  taxPayable: v.string(),
  /** Withheld tax deposited with the government (challans, docs/tax.md). */
  taxDeposited: v.string(),
  /** available + pendingPayout + taxPayable + taxDeposited − (funded − paid); "0.00" when the books agree. */
  difference: v.string(),
  /** Everything the company moved into the payout bank account (booked fundings). */
  bankFunded: v.string(),
  /** What the payout account should hold: bankFunded − paid − taxDeposited (compare with the bank statement's balance). */
  bankBalance: v.string(),
  /** User accounts below zero, which the rules never allow: each one is money that was never there. */
  negativeBalances: v.array(v.strictObject({ userId: v.string(), account: v.picklist(['available', 'payout_pending']), balance: v.string() })),
  /** Log position the read models reflect, and the store's head. */
  position: v.number(),
  headPosition: v.number(),
});
export type ReconciliationBody = v.InferOutput<typeof ReconciliationBody>;

/** GET /api/admin/ledger/verify and `verify-ledger`. */
export const LedgerVerifyBody = v.strictObject({
  ok: v.boolean(),
  events: v.number(),
  headHash: v.nullable(v.string()),
  headPosition: v.number(),
  /**
   * Where the chain first breaks, when it does; `unsigned`: with the signing key, events no signed
   * checkpoint covers that are older than two checkpoint intervals (or no checkpoint at all).
   */
  failure: v.nullable(
    v.strictObject({
      streamId: v.string(),
      position: v.number(),
      revision: v.nullable(v.number()),
      problem: v.picklist(['changed', 'removed', 'inserted', 'reordered', 'unsigned', 'unreadable']),
      detail: v.string(),
    }),
  ),
  /**
   * The signed checkpoints of the log's head met on the way; MACs are checked only where the signing
   * key is configured. With a witness (LEDGER_WITNESS), the position of its newest checkpoint.
   */
  checkpoints: v.strictObject({
    count: v.number(),
    latestPosition: v.nullable(v.number()),
    macsChecked: v.boolean(),
    witnessLatestPosition: v.optional(v.nullable(v.number())),
  }),
});
export type LedgerVerifyBody = v.InferOutput<typeof LedgerVerifyBody>;

/** The commands that accept an `Idempotency-Key` header (POST paths): money and review decisions, erasures. */
export const IDEMPOTENT_COMMANDS: readonly RegExp[] = [
  /^\/api\/withdrawals$/,
  /^\/api\/admin\/adjustments$/,
  /^\/api\/admin\/adjustments\/[^/]+\/(approve|reject)$/,
  /^\/api\/admin\/withdrawals\/[^/]+\/(paid|reject|reverse)$/,
  /^\/api\/admin\/payout-batches$/,
  /^\/api\/admin\/payout-batches\/[^/]+\/(approve|results)$/,
  /^\/api\/tasks\/[^/]+\/submit-proof$/,
  /^\/api\/admin\/submissions\/[^/]+\/(approve|reject)$/,
  /^\/api\/admin\/submissions\/bulk$/,
  /^\/api\/admin\/ledger\/funding$/,
  /^\/api\/admin\/ledger\/funding\/[^/]+\/(approve|reject|reverse|reverse\/approve)$/,
  /^\/api\/admin\/deletions\/[^/]+\/erase$/,
  /^\/api\/admin\/appeals\/[^/]+\/decide$/,
  /^\/api\/admin\/ledger\/tax-deposits$/,
  /^\/api\/admin\/kyc\/[^/]+\/approve$/,
];

/** An Idempotency-Key: 1 to 100 visible ASCII characters. */
export const IDEMPOTENCY_KEY_PATTERN = /^[\x21-\x7e]{1,100}$/;

/**
 * Read-your-writes across API nodes on one shared log: a command's answer names, in this header,
 * a log position that includes what the command wrote; the client sends back the highest position
 * it has seen in the same header, and the node answering waits until its read models have it.
 */
export const LOG_POSITION_HEADER = 'kamai-position';
