import * as v from 'valibot';
import { AUDIT_MESSAGES } from './audit.ts';
import { Day, istDayOf } from './days.ts';
import { refusal } from './refusal.ts';

/** The range GET /api/admin/reviewers/stats covers when none is given: the last 30 IST days, today included. */
export const REVIEWER_STATS_DEFAULT_DAYS = 30;

/**
 * A reviewer's rejection rate raises the alert only over at least this many decisions in the range:
 * below it, two rejections out of three would be "twice the team's rate" by chance.
 */
export const REVIEWER_ALERT_MIN_DECISIONS = 20;

/** The alert: a reviewer rejecting more than this many times the team's rate. */
export const REVIEWER_ALERT_FACTOR = 2;

/**
 * GET /api/admin/reviewers/stats?from=&to=: whole IST days, `to` included; either left out defaults
 * to the last REVIEWER_STATS_DEFAULT_DAYS days ending today (see reviewerStatsRange).
 */
export const ReviewerStatsQuery = v.pipe(
  v.object({ from: v.optional(Day()), to: v.optional(Day()) }),
  v.forward(
    v.partialCheck([['from'], ['to']], (q) => q.from === undefined || q.to === undefined || q.from <= q.to, refusal('audit.range')),
    ['to'],
  ),
);
export type ReviewerStatsQuery = v.InferOutput<typeof ReviewerStatsQuery>;

/** The IST days a stats query covers: `to` defaults to today, `from` to REVIEWER_STATS_DEFAULT_DAYS days ending `to`. */
export function reviewerStatsRange(query: ReviewerStatsQuery, now: Date): { from: string; to: string } {
  const to = query.to ?? (query.from !== undefined && query.from > istDayOf(now) ? query.from : istDayOf(now));
  const from = query.from ?? istDayOf(new Date(Date.parse(`${to}T12:00:00.000Z`) - (REVIEWER_STATS_DEFAULT_DAYS - 1) * 86_400_000));
  return { from, to };
}

/** One reviewer's figures over the range (docs/reviewer-stats.md says what each means). */
export const ReviewerStatsRow = v.object({
  reviewerId: v.string(),
  /** The staff member's name as registered; null when they have none (or were erased). */
  name: v.nullable(v.string()),
  /** approvals + rejections + needsChanges. */
  decisions: v.number(),
  approvals: v.number(),
  rejections: v.number(),
  needsChanges: v.number(),
  /** rejections / decisions, 0 to 1; null with no decision. */
  rejectionRate: v.nullable(v.number()),
  /** Their rejections overturned on appeal, counted on the day the appeal was decided. */
  appealsLost: v.number(),
  /** The median time from the proof's (re)submission to the decision, in whole seconds; null with no decision. */
  medianDecisionSeconds: v.nullable(v.number()),
  /** rejectionRate is more than REVIEWER_ALERT_FACTOR times the team's, over at least REVIEWER_ALERT_MIN_DECISIONS decisions. */
  rejectionRateAlert: v.boolean(),
});
export type ReviewerStatsRow = v.InferOutput<typeof ReviewerStatsRow>;

export const ReviewerStatsBody = v.object({
  from: v.string(),
  to: v.string(),
  /** All reviewers' rejections / decisions in the range; null with no decision. */
  teamRejectionRate: v.nullable(v.number()),
  /** The constants the alert used, so a screen can say why a row is marked. */
  alertMinDecisions: v.number(),
  alertFactor: v.number(),
  reviewers: v.array(ReviewerStatsRow),
});
export type ReviewerStatsBody = v.InferOutput<typeof ReviewerStatsBody>;

/** Whether a reviewer's rejection rate is alarming beside the team's. */
export function rejectionRateAlert(reviewer: { decisions: number; rejections: number }, teamRejectionRate: number | null): boolean {
  if (teamRejectionRate === null || reviewer.decisions < REVIEWER_ALERT_MIN_DECISIONS) return false;
  return reviewer.rejections / reviewer.decisions > REVIEWER_ALERT_FACTOR * teamRejectionRate;
}

/** The middle value (the mean of the two middle ones for an even count); null for none. */
export function medianOf(values: readonly number[]): number | null {
  if (values.length === 0) return null;
  const sorted = [...values].sort((a, b) => a - b);
  const mid = Math.floor(sorted.length / 2);
  return sorted.length % 2 === 1 ? sorted[mid]! : (sorted[mid - 1]! + sorted[mid]!) / 2;
}

/** A worker's approval rate counts at most this many rejections from one IST day: a bad batch cannot sink them. */
export const MAX_REJECTIONS_COUNTED_PER_DAY = 10;

/**
 * A worker's approval rate, approved / (approved + counted rejections), where each IST day's
 * rejections count at most MAX_REJECTIONS_COUNTED_PER_DAY. `rejectionsByDay` are the per-day counts
 * of any days (days at or under the cap change nothing, so a caller may pass only the days over it).
 * Null when nothing was decided.
 */
export function workerApprovalRate(approved: number, rejected: number, rejectionsByDay: readonly number[]): number | null {
  const beyondCap = rejectionsByDay.reduce((sum, count) => sum + Math.max(0, count - MAX_REJECTIONS_COUNTED_PER_DAY), 0);
  const counted = Math.max(0, rejected - beyondCap);
  return approved + counted === 0 ? null : approved / (approved + counted);
}
