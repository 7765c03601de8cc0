import { createFileRoute } from '@tanstack/react-router';
import { DeletionsScreen } from '../../../features/deletions/DeletionsScreen.tsx';
import { hasRole } from '../../../lib/roles.ts';

export const Route = createFileRoute('/_authed/admin/deletions')({
  // The query comes with the screen's code (imported here, it would sit in the first download).
  loader: async ({ context: { queryClient, user } }) => {
    if (!hasRole(user, 'admin')) return;
    const { deletionsQuery } = await import('../../../features/deletions/deletionQueries.ts');
    void queryClient.prefetchQuery(deletionsQuery('pending'));
  },
  component: DeletionsScreen,
});
