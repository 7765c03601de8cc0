import { useMutation, useQueryClient } from '@tanstack/react-query';
import type { AdjustmentBody, AdjustmentPendingBody, FinanceWithdrawalBody } from '@kamai/contracts';
import { apiRequest, readJson } from '../../lib/api.ts';
import { idempotencyHeader } from '../../lib/sendOnce.ts';
import { FINANCE_WITHDRAWALS_KEY } from '../../lib/queries.ts';

/**
 * Finance staff's commands. Paying and rejecting change the queue; the wallet, withdrawals and
 * notifications they change belong to the user they pay, never to the staff member (the server
 * refuses to let anyone process their own withdrawal or adjust their own wallet), so nothing of the
 * staff member's own is read again.
 */

/** A pending withdrawal paid (its transfer reference) or rejected, or a paid one returned (a reason). */
export function useWithdrawalDecision(decision: 'paid' | 'reject' | 'reverse') {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: async ({ id, body, key }: { id: string; body: { reference: string } | { reason: string }; key?: string }) =>
      readJson<FinanceWithdrawalBody>(await apiRequest('POST', `/api/admin/withdrawals/${encodeURIComponent(id)}/${decision}`, body, idempotencyHeader(key))),
    onSuccess: () => queryClient.invalidateQueries({ queryKey: FINANCE_WITHDRAWALS_KEY }),
  });
}

export interface AdjustmentInput {
  mobile: string;
  /** Two-place decimal string. */
  amount: string;
  direction: 'credit' | 'debit';
  reason: string;
  /** IST day `YYYY-MM-DD`; today when absent. */
  effectiveDate?: string;
  corrects?: string;
}

/** A manual credit or debit of another user's wallet: nothing this app has read changes with it. */
export function useAdjustmentMutation() {
  return useMutation({
    mutationFn: async ({ key, ...input }: AdjustmentInput & { key?: string }) =>
      readJson<AdjustmentBody | AdjustmentPendingBody>(await apiRequest('POST', '/api/admin/adjustments', input, idempotencyHeader(key))),
  });
}
