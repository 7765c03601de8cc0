import { createFileRoute } from '@tanstack/react-router';
import { ReviewScreen } from '../../../features/review/ReviewScreen.tsx';
import { submissionsQuery } from '../../../lib/queries.ts';
import { hasRole } from '../../../lib/roles.ts';

export const Route = createFileRoute('/_authed/admin/review')({
  loader: ({ context: { queryClient, user } }) => {
    if (hasRole(user, 'reviewer', 'admin')) void queryClient.prefetchQuery(submissionsQuery('submitted'));
  },
  component: ReviewScreen,
});
