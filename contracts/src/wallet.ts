import * as v from 'valibot';
import { MessageParams } from './messages.ts';
import { WithdrawalStatus } from './withdrawal-status.ts';

/** One ledger entry as GET /api/transactions answers it, newest first. */
export const TransactionBody = v.object({
  id: v.string(),
  userId: v.string(),
  /** The spec's type: earned, withdrawn or other. */
  type: v.picklist(['earned', 'withdrawn', 'other']),
  /** Whether the entry added to or took from the balance; the sign shown on screen. */
  direction: v.picklist(['credit', 'debit']),
  /** What caused it: task_reward, kyc_bonus, withdrawal, withdrawal_refund, adjustment. */
  kind: v.string(),
  /** Decimal string with two places, always positive; `direction` gives the sign. */
  amount: v.string(),
  /** English, for older clients; `params` (with `kind`, a LEDGER_TEXTS key) renders it in the reader's language. */
  description: v.string(),
  /** The facts the description is made of; absent for entries recorded before texts were keys. */
  params: v.optional(MessageParams),
  taskId: v.nullable(v.string()),
  /** The withdrawal request the entry belongs to (its debit or its refund), and that request's status now. */
  withdrawalId: v.optional(v.string()),
  withdrawalStatus: v.optional(WithdrawalStatus),
  createdAt: v.string(),
});
export type TransactionBody = v.InferOutput<typeof TransactionBody>;
