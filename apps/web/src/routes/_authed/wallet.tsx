import { createFileRoute } from '@tanstack/react-router';
import { WalletScreen } from '../../features/wallet/WalletScreen.tsx';
import { transactionsQuery } from '../../lib/queries.ts';

export const Route = createFileRoute('/_authed/wallet')({
  // Start the activity read early but do not wait for it: the screen shows its skeleton meanwhile.
  loader: ({ context }) => {
    void context.queryClient.prefetchQuery(transactionsQuery());
  },
  component: WalletScreen,
});
