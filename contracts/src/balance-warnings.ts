import * as v from 'valibot';
import type { WarnedBalance } from './events/balance-warnings.ts';
import type { NotificationKey } from './recorded-texts.ts';

/** The notification (and the alert of the same name) a balance's warning raises for each finance member. */
export const BALANCE_WARNING_NOTIFICATION: Record<WarnedBalance, NotificationKey & ('payout_float_low' | 'tax_payable_high')> = {
  payout_float: 'payout_float_low',
  tax_payable: 'tax_payable_high',
};

/** One finance member's notification of one warning: the same on every process and every replay. */
export const balanceWarningNotificationId = (warningId: string, userId: string): string => `balance-warning-${warningId}-${userId}`;

const Balance = v.strictObject({
  /** Rupees, as a decimal string (the float may be below zero). */
  amount: v.string(),
  /** The threshold in force; "0.00" means the warning is off. */
  threshold: v.string(),
  /** Whether the balance is past its threshold now (by the read models). */
  warning: v.boolean(),
});

/** GET /api/admin/ledger/balances: the balances that warn (docs/month-end.md#balances-that-warn). */
export const LedgerBalancesBody = v.strictObject({
  /** Funded − paid − tax deposited − payouts requested and not yet paid: what is left to pay new withdrawals from. */
  payoutFloat: Balance,
  /** Tax withheld and not yet deposited (platform:tax_payable). */
  taxPayable: Balance,
});
export type LedgerBalancesBody = v.InferOutput<typeof LedgerBalancesBody>;
