import { keepPreviousData, queryOptions } from '@tanstack/react-query';
import type { ReviewerStatsBody } from '@kamai/contracts';
import { getJson } from '../../lib/api.ts';

/** The range as the address holds it: either day left out means the server's default (the last 30 IST days). */
export interface ReviewerStatsRange {
  from?: string;
  to?: string;
}

/** `GET /api/admin/reviewers/stats?from=&to=`; while another range loads, the last answer stays on screen. */
export const reviewerStatsQuery = (range: ReviewerStatsRange) => {
  const params = new URLSearchParams();
  if (range.from) params.set('from', range.from);
  if (range.to) params.set('to', range.to);
  const query = params.toString();
  return queryOptions({
    queryKey: [`/api/admin/reviewers/stats${query ? `?${query}` : ''}`],
    queryFn: getJson<ReviewerStatsBody>(),
    placeholderData: keepPreviousData,
    retry: false,
  });
};
