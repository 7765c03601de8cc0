import { useMutation, useQueryClient } from '@tanstack/react-query';
import type { BankAccount, WithdrawalBody } from '@kamai/contracts';
import { apiRequest, readJson } from '../../lib/api.ts';
import { idempotencyHeader } from '../../lib/sendOnce.ts';
import {
  FINANCE_WITHDRAWALS_KEY,
  currentUserQuery,
  notificationsQuery,
  savedDestinationQuery,
  transactionsQuery,
  withdrawalsQuery,
} from '../../lib/queries.ts';

/** POST /api/withdrawals: a bank account, a UPI id, or neither (then the saved destination is used). */
export interface WithdrawalInput {
  /** Two-place decimal string, e.g. "150.00". */
  amount: string;
  bankAccount?: BankAccount;
  upiId?: string;
}

/**
 * Requests a withdrawal. The request holds its amount at once, so afterwards the balance, the
 * activity list, the history, the saved destination and the notifications (a "requested" one is
 * added) are all read again; the mutation counts as done once they are. The request also joins the
 * finance queue, which a finance user may have read.
 */
export function useWithdrawMutation() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: async ({ key, ...input }: WithdrawalInput & { key?: string }) =>
      readJson<WithdrawalBody>(await apiRequest('POST', '/api/withdrawals', input, idempotencyHeader(key))),
    onSuccess: () =>
      Promise.all(
        [
          currentUserQuery().queryKey,
          transactionsQuery().queryKey,
          withdrawalsQuery().queryKey,
          savedDestinationQuery().queryKey,
          notificationsQuery().queryKey,
          FINANCE_WITHDRAWALS_KEY,
        ].map((queryKey) => queryClient.invalidateQueries({ queryKey })),
      ),
  });
}
