import { createFileRoute } from '@tanstack/react-router';
import { AppealsScreen } from '../../../features/review/AppealsScreen.tsx';
import { appealsQuery } from '../../../lib/queries.ts';
import { canReview } from '../../../lib/roles.ts';

export const Route = createFileRoute('/_authed/admin/appeals')({
  loader: ({ context: { queryClient, user } }) => {
    if (canReview(user)) void queryClient.prefetchQuery(appealsQuery('open'));
  },
  component: AppealsScreen,
});
