import { createFileRoute } from '@tanstack/react-router';
import { ReviewScreen } from '../../../features/review/ReviewScreen.tsx';
import { submissionsQuery } from '../../../lib/queries.ts';
import { canReview } from '../../../lib/roles.ts';

export const Route = createFileRoute('/_authed/admin/review')({
  loader: ({ context: { queryClient, user } }) => {
    if (canReview(user)) void queryClient.prefetchQuery(submissionsQuery('submitted'));
  },
  component: ReviewScreen,
});
