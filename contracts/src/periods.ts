import * as v from 'valibot';
import { istDayOf } from './days.ts';
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
} as const;

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
