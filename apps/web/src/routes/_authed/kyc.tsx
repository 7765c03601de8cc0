import { createFileRoute } from '@tanstack/react-router';
import { KycScreen } from '../../features/kyc/KycScreen.tsx';

export const Route = createFileRoute('/_authed/kyc')({
  // The query comes with the screen's code (imported here, it would sit in the first download).
  loader: async ({ context: { queryClient } }) => {
    const { kycDocumentsQuery } = await import('../../features/kyc/kycQueries.ts');
    void queryClient.prefetchQuery(kycDocumentsQuery());
  },
  component: KycScreen,
});
