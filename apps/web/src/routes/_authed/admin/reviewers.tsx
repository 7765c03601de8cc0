import { createFileRoute } from '@tanstack/react-router';
import { ReviewersScreen } from '../../../features/reviewers/ReviewersScreen.tsx';
import { reviewersSearch } from '../../../features/reviewers/reviewersSearch.ts';
import { hasRole } from '../../../lib/roles.ts';

export const Route = createFileRoute('/_authed/admin/reviewers')({
  // The range is in the address: a refresh, Back and a shared link keep it.
  validateSearch: reviewersSearch,
  loaderDeps: ({ search }) => search,
  // The query comes with the screen's code (imported here, it would sit in the first download).
  loader: async ({ context: { queryClient, user }, deps }) => {
    if (!hasRole(user, 'admin')) return;
    const { reviewerStatsQuery } = await import('../../../features/reviewers/reviewerStatsQueries.ts');
    void queryClient.prefetchQuery(reviewerStatsQuery(deps));
  },
  component: ReviewersScreen,
});
