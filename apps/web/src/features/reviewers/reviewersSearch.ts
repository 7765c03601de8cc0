import { compact, isoDay } from '../../lib/searchParams.ts';
import type { ReviewerStatsRange } from './reviewerStatsQueries.ts';

/** /admin/reviewers's address: the range's first and last IST day; unset ones left out. */
export const reviewersSearch = (search: Record<string, unknown>): ReviewerStatsRange =>
  compact<ReviewerStatsRange>({ from: isoDay(search.from), to: isoDay(search.to) });
