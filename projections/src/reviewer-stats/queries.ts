import { type ReviewerStatsBody, type ReviewerStatsRow, MAX_REJECTIONS_COUNTED_PER_DAY, REVIEWER_ALERT_FACTOR, REVIEWER_ALERT_MIN_DECISIONS, medianOf, rejectionRateAlert } from '@kamai/contracts';
import type { ReadDbHandle } from '../db.ts';
import { nameOf } from '../audit/queries.ts';

/**
 * GET /api/admin/reviewers/stats: each reviewer's days from `from` to `to` (IST days, both included)
 * added up, with the median of their decision times over the range; the team's rejection rate is
 * all reviewers' rejections over all their decisions. Reviewers with most decisions first.
 */
export async function listReviewerStats(db: ReadDbHandle, range: { from: string; to: string }): Promise<ReviewerStatsBody> {
  const days = await db
    .selectFrom('reviewer_days as r')
    .leftJoin('users as u', 'u.id', 'r.reviewer_id')
    .select((eb) => [
      'r.reviewer_id',
      eb.fn.max('u.first_name').as('first_name'),
      eb.fn.max('u.last_name').as('last_name'),
      eb.fn.sum<number>('r.approvals').as('approvals'),
      eb.fn.sum<number>('r.rejections').as('rejections'),
      eb.fn.sum<number>('r.needs_changes').as('needs_changes'),
      eb.fn.sum<number>('r.appeals_lost').as('appeals_lost'),
    ])
    .where('r.day', '>=', range.from)
    .where('r.day', '<=', range.to)
    .groupBy('r.reviewer_id')
    .execute();
  const times = await db
    .selectFrom('reviewer_decisions')
    .select(['reviewer_id', 'seconds'])
    .where('day', '>=', range.from)
    .where('day', '<=', range.to)
    .execute();
  const secondsOf = new Map<string, number[]>();
  for (const { reviewer_id, seconds } of times) {
    const list = secondsOf.get(reviewer_id) ?? [];
    list.push(seconds);
    secondsOf.set(reviewer_id, list);
  }
  let teamDecisions = 0;
  let teamRejections = 0;
  const counted = days.map((row) => {
    const decisions = row.approvals + row.rejections + row.needs_changes;
    teamDecisions += decisions;
    teamRejections += row.rejections;
    return { row, decisions };
  });
  const teamRejectionRate = teamDecisions === 0 ? null : teamRejections / teamDecisions;
  const reviewers = counted.map(({ row, decisions }): ReviewerStatsRow => {
    const median = medianOf(secondsOf.get(row.reviewer_id) ?? []);
    return {
      reviewerId: row.reviewer_id,
      name: nameOf(row.first_name, row.last_name),
      decisions,
      approvals: row.approvals,
      rejections: row.rejections,
      needsChanges: row.needs_changes,
      rejectionRate: decisions === 0 ? null : row.rejections / decisions,
      appealsLost: row.appeals_lost,
      medianDecisionSeconds: median === null ? null : Math.round(median),
      rejectionRateAlert: rejectionRateAlert({ decisions, rejections: row.rejections }, teamRejectionRate),
    };
  });
  reviewers.sort((a, b) => b.decisions - a.decisions || (a.name ?? a.reviewerId).localeCompare(b.name ?? b.reviewerId) || a.reviewerId.localeCompare(b.reviewerId));
  return { ...range, teamRejectionRate, alertMinDecisions: REVIEWER_ALERT_MIN_DECISIONS, alertFactor: REVIEWER_ALERT_FACTOR, reviewers };
}

/** Per worker, the rejections of each IST day over the approval rate's cap (the only days that change it). */
export async function rejectionDaysOverCap(db: ReadDbHandle, userIds: readonly string[]): Promise<Map<string, number[]>> {
  const answer = new Map<string, number[]>();
  if (userIds.length === 0) return answer;
  const rows = await db
    .selectFrom('worker_rejection_days')
    .select(['user_id', 'rejections'])
    .where('user_id', 'in', [...new Set(userIds)])
    .where('rejections', '>', MAX_REJECTIONS_COUNTED_PER_DAY)
    .execute();
  for (const row of rows) answer.set(row.user_id, [...(answer.get(row.user_id) ?? []), row.rejections]);
  return answer;
}
