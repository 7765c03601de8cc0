import { ReviewerStatsQuery, reviewerStatsRange } from '@kamai/contracts';
import { listReviewerStats } from '@kamai/projections';
import { Hono } from 'hono';
import type { AppEnv } from '../deps.ts';
import { withRole } from '../http/guards.ts';
import { validate } from '../http/validate.ts';

/**
 * Reviewing seen from above, for admins (who oversee reviewers but do not review): per reviewer over
 * whole IST days, decisions, rejection rate, appeals lost and median decision time, with the
 * rejection-rate alert (docs/reviewer-stats.md).
 */
export const reviewerStatsRoutes = new Hono<AppEnv>().get('/api/admin/reviewers/stats', withRole('admin'), validate('query', ReviewerStatsQuery), async (c) => {
  const range = reviewerStatsRange(c.req.valid('query'), c.var.deps.now());
  return c.json(await listReviewerStats(c.var.deps.db, range));
});
