import { createFileRoute } from '@tanstack/react-router';
import { AuditScreen } from '../../../features/audit/AuditScreen.tsx';
import { hasRole } from '../../../lib/roles.ts';
import { auditSearch } from '../../../features/audit/auditSearch.ts';

export const Route = createFileRoute('/_authed/admin/audit')({
  // The filters are in the address: a refresh, Back and a shared link keep them.
  validateSearch: auditSearch,
  // The queries come with the screen's code (imported here, they would sit in the first download).
  loader: async ({ context: { queryClient, user } }) => {
    if (!hasRole(user, 'admin', 'finance')) return;
    const { auditActorsQuery, auditListQuery, NO_FILTERS } = await import('../../../features/audit/auditQueries.ts');
    void queryClient.prefetchInfiniteQuery(auditListQuery(NO_FILTERS));
    void queryClient.prefetchQuery(auditActorsQuery());
  },
  component: AuditScreen,
});
