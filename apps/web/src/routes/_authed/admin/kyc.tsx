import { createFileRoute } from '@tanstack/react-router';
import { KycReviewScreen } from '../../../features/kyc/KycReviewScreen.tsx';
import { hasRole } from '../../../lib/roles.ts';

export const Route = createFileRoute('/_authed/admin/kyc')({
  // The query comes with the screen's code (imported here, it would sit in the first download).
  loader: async ({ context: { queryClient, user } }) => {
    if (!hasRole(user, 'reviewer')) return;
    const { kycQueueQuery } = await import('../../../features/kyc/kycQueries.ts');
    void queryClient.prefetchQuery(kycQueueQuery('pending'));
  },
  component: KycReviewScreen,
});
