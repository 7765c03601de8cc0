import { createFileRoute } from '@tanstack/react-router';
import { KycReviewScreen } from '../../../features/kyc/KycReviewScreen.tsx';
import { kycQueueQuery } from '../../../features/kyc/kycQueries.ts';
import { hasRole } from '../../../lib/roles.ts';

export const Route = createFileRoute('/_authed/admin/kyc')({
  loader: ({ context: { queryClient, user } }) => {
    if (hasRole(user, 'reviewer')) void queryClient.prefetchQuery(kycQueueQuery('pending'));
  },
  component: KycReviewScreen,
});
