import { createFileRoute } from '@tanstack/react-router';
import { DeletionsScreen } from '../../../features/deletions/DeletionsScreen.tsx';
import { hasRole } from '../../../lib/roles.ts';
import { deletionSearch } from '../../../features/deletions/deletionSearch.ts';

export const Route = createFileRoute('/_authed/admin/deletions')({
  // The filters are in the address: a refresh, Back and a shared link keep them.
  validateSearch: deletionSearch,
  // The query comes with the screen's code (imported here, it would sit in the first download).
  loader: async ({ context: { queryClient, user } }) => {
    if (!hasRole(user, 'admin')) return;
    const { deletionsQuery } = await import('../../../features/deletions/deletionQueries.ts');
    void queryClient.prefetchQuery(deletionsQuery('pending'));
  },
  component: DeletionsScreen,
});
