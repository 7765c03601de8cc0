import { createFileRoute } from '@tanstack/react-router';
import { FinanceScreen } from '../../../features/finance/FinanceScreen.tsx';
import { financeSearch } from '../../../features/finance/financeSearch.ts';
import { financeWithdrawalsQuery } from '../../../lib/queries.ts';
import { canHandleMoney } from '../../../lib/roles.ts';

/** Withdrawal processing and wallet adjustments: finance or admin role; anyone else sees 'Not allowed'. */
export const Route = createFileRoute('/_authed/admin/finance')({
  // The tab and the filters are in the address: a refresh, Back and a shared link keep them.
  validateSearch: financeSearch,
  // Start the queue read early for staff only; the screen shows its skeleton meanwhile.
  loader: ({ context }) => {
    if (canHandleMoney(context.user)) void context.queryClient.prefetchQuery(financeWithdrawalsQuery('pending'));
  },
  component: FinanceScreen,
});
