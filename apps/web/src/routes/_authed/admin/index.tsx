import { createFileRoute } from '@tanstack/react-router';
import { AdminScreen } from '../../../features/admin/AdminScreen.tsx';
import { adminTasksQuery } from '../../../lib/queries.ts';
import { hasRole } from '../../../lib/roles.ts';

export const Route = createFileRoute('/_authed/admin/')({
  // Only an admin's catalogue is read; anyone else gets the not-allowed screen, not a 403 error.
  loader: ({ context: { queryClient, user } }) => {
    if (hasRole(user, 'admin')) void queryClient.prefetchQuery(adminTasksQuery());
  },
  component: AdminScreen,
});
