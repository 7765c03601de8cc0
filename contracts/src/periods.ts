import * as v from 'valibot';
import { Day, istDayOf } from './days.ts';
import { refusal } from './refusal.ts';

/**
 * Accounting periods that lock (docs/month-end.md): finance closes a calendar month, in India time,
 * with two members; nothing may be posted with an effective day inside a closed month.
 */

export const PERIOD_MESSAGES = {
  month: 'Give the month as YYYY-MM, e.g. 2026-10',
  notOver: 'Month {month} is not over yet: only a past month can be closed',
  closed: 'Month {month} is closed: post it with a day of an open month, naming what it corrects',
  noRequest: 'Nobody has asked to close month {month}',
  ownClose: 'You asked to close this month, so another finance member must approve it',
  effectiveDate: 'Enter the day it takes effect as YYYY-MM-DD, not in the future',
  range: 'Give from and to as days (YYYY-MM-DD), from not after to',
  by: 'Read by effective (the day an entry takes effect) or recorded (when it was recorded)',
  corrects: 'Name what it corrects by its id: letters, digits and - _ : . only, at most 80',
  valueDate: 'Enter the bank\'s value date as YYYY-MM-DD, not in the future',
} as const;

/** Which of an entry's dates a period reads: its effective day or its recorded time (docs/finance-audit.md). */
export const JOURNAL_DATINGS = ['recorded', 'effective'] as const;
/** `?by=effective|recorded` of the statement, trial balance and journal export; recorded when absent. */
export const JournalDatingParam = v.optional(v.picklist(JOURNAL_DATINGS, refusal('period.by')), 'recorded');
/** What a correction corrects: a transaction, entry or funding id (never words: it is stored plain). */
export const CorrectsField = v.pipe(
  v.string(refusal('period.corrects')),
  v.trim(),
  v.regex(/^[A-Za-z0-9_:.-]{1,80}$/, refusal('period.corrects')),
);

/** A month `YYYY-MM` that exists. */
export const isMonth = (text: string): boolean => /^\d{4}-(0[1-9]|1[0-2])$/.test(text);

/** The month `YYYY-MM` of an IST day `YYYY-MM-DD`. */
export const monthOfDay = (day: string): string => day.slice(0, 7);

/** The IST month an instant falls in. */
export const monthOf = (instant: string | Date): string => monthOfDay(istDayOf(instant));

/** `:month` of the period routes. */
export const PeriodParam = v.object({ month: v.pipe(v.string(refusal('period.month')), v.check(isMonth, refusal('period.month'))) });

/** A month's close as the period routes answer it. */
export const LedgerPeriodBody = v.object({
  month: v.string(),
  status: v.picklist(['open', 'pending', 'closed']),
  requestedBy: v.nullable(v.string()),
  requestedAt: v.nullable(v.string()),
  closedBy: v.nullable(v.string()),
  closedAt: v.nullable(v.string()),
});
export type LedgerPeriodBody = v.InferOutput<typeof LedgerPeriodBody>;

/** How many months GET /api/admin/ledger/periods lists: the current one and the year before it. */
export const PERIODS_LISTED = 13;

/** The months `count` months back from `month` (itself first), newest first. */
export function monthsBack(month: string, count: number): string[] {
  const [year, m] = month.split('-').map(Number) as [number, number];
  const index = year * 12 + (m - 1);
  return Array.from({ length: count }, (_, i) => {
    const at = index - i;
    return `${Math.floor(at / 12)}-${String((at % 12) + 1).padStart(2, '0')}`;
  });
}

/** One month of GET /api/admin/ledger/periods: its close, and the names of who asked and who approved. */
export const LedgerPeriodRowBody = v.object({
  ...LedgerPeriodBody.entries,
  requestedByName: v.nullable(v.string()),
  closedByName: v.nullable(v.string()),
});
export type LedgerPeriodRowBody = v.InferOutput<typeof LedgerPeriodRowBody>;

/** GET /api/admin/ledger/trial-balance/period: whole IST days, `to` included. */
export const PeriodTrialBalanceQuery = v.pipe(
  v.object({
    from: Day(refusal('period.range')),
    to: Day(refusal('period.range')),
    format: v.optional(v.picklist(['json', 'csv'], refusal('api.formatValue')), 'json'),
    by: JournalDatingParam,
  }),
  v.forward(
    v.check((q) => q.from <= q.to, refusal('period.range')),
    ['to'],
  ),
);

/** Dr and Cr of one figure: one of them is "0.00" for a balance (its side), either may be set for a movement. */
const DrCr = v.strictObject({ debit: v.string(), credit: v.string() });

/**
 * A trial balance over a period (docs/finance-audit.md): per account its opening balance (before the
 * first day), the period's movement (debits and credits) and its closing balance, each in Dr/Cr columns.
 */
export const PeriodTrialBalanceBody = v.strictObject({
  from: v.string(),
  to: v.string(),
  accounts: v.array(
    v.strictObject({
      account: v.string(),
      holder: v.nullable(v.strictObject({ id: v.string(), name: v.string(), mobile: v.nullable(v.string()) })),
      opening: DrCr,
      movement: DrCr,
      closing: DrCr,
    }),
  ),
  totals: v.strictObject({ opening: DrCr, movement: DrCr, closing: DrCr }),
});
export type PeriodTrialBalanceBody = v.InferOutput<typeof PeriodTrialBalanceBody>;
