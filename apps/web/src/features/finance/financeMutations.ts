import { useMutation, useQueryClient } from '@tanstack/react-query';
import type { AdjustmentBody, FinanceWithdrawalBody } from '@kamai/contracts';
import { apiRequest, readJson } from '../../lib/api.ts';
import { currentUserQuery, financeWithdrawalsQuery, transactionsQuery } from '../../lib/queries.ts';

/** Every status of the finance queue at once. */
const queueKey = () => financeWithdrawalsQuery().queryKey.slice(0, 1);

export function useMarkPaidMutation() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: async ({ id, reference }: { id: string; reference: string }) =>
      readJson<FinanceWithdrawalBody>(await apiRequest('POST', `/api/admin/withdrawals/${encodeURIComponent(id)}/paid`, { reference })),
    onSuccess: () => queryClient.invalidateQueries({ queryKey: queueKey() }),
  });
}

export function useRejectWithdrawalMutation() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: async ({ id, reason }: { id: string; reason: string }) =>
      readJson<FinanceWithdrawalBody>(await apiRequest('POST', `/api/admin/withdrawals/${encodeURIComponent(id)}/reject`, { reason })),
    // A rejection returns the amount to a wallet, which may be the staff member's own.
    onSuccess: () =>
      Promise.all([
        queryClient.invalidateQueries({ queryKey: queueKey() }),
        queryClient.invalidateQueries({ queryKey: currentUserQuery().queryKey }),
        queryClient.invalidateQueries({ queryKey: transactionsQuery().queryKey }),
      ]),
  });
}

export interface AdjustmentInput {
  mobile: string;
  /** Two-place decimal string. */
  amount: string;
  direction: 'credit' | 'debit';
  reason: string;
}

export function useAdjustmentMutation() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: async (input: AdjustmentInput) => readJson<AdjustmentBody>(await apiRequest('POST', '/api/admin/adjustments', input)),
    // The adjusted wallet may be the staff member's own.
    onSuccess: () =>
      Promise.all([
        queryClient.invalidateQueries({ queryKey: currentUserQuery().queryKey }),
        queryClient.invalidateQueries({ queryKey: transactionsQuery().queryKey }),
      ]),
  });
}
