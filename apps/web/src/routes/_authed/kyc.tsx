import { createFileRoute } from '@tanstack/react-router';
import { KycScreen } from '../../features/kyc/KycScreen.tsx';
import { kycDocumentsQuery } from '../../features/kyc/kycQueries.ts';

export const Route = createFileRoute('/_authed/kyc')({
  loader: ({ context: { queryClient } }) => void queryClient.prefetchQuery(kycDocumentsQuery()),
  component: KycScreen,
});
