import * as v from 'valibot';

/**
 * A withdrawal's life: `pending` (requested) -> `processing` (in a payout batch, sent to the bank)
 * -> `paid` or `failed`; `paid` -> `reversed` when the bank returns it; `pending` -> `rejected`.
 * Failed, rejected and reversed withdrawals have their money back in the wallet.
 */
export const WITHDRAWAL_STATUSES = ['pending', 'processing', 'paid', 'failed', 'rejected', 'reversed'] as const;
export const WITHDRAWAL_STATUS_MESSAGE = 'status must be pending, processing, paid, failed, rejected, reversed or all';
export const WithdrawalStatus = v.picklist(WITHDRAWAL_STATUSES);
export type WithdrawalStatus = v.InferOutput<typeof WithdrawalStatus>;
