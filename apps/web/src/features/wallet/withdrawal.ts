import * as v from 'valibot';
import { MIN_WITHDRAWAL_PAISE, WITHDRAWAL_MESSAGES, WITHDRAWAL_TITLES, WithdrawalAmount, formatPaise, parseRupees } from '@kamai/contracts';
import type { ErrorBody } from '@kamai/contracts';

/** The smallest withdrawal (contracts' MIN_WITHDRAWAL_PAISE) and the dialog's default entry, in rupees. */
export const MIN_WITHDRAWAL_RUPEES = MIN_WITHDRAWAL_PAISE / 100;

/** Shown when a withdrawal fails for a reason the spec names no title for. */
export const WITHDRAWAL_FAILED = { title: 'Withdrawal Failed', fallback: 'Failed to submit withdrawal request' } as const;

export type AmountCheck = { ok: true; amount: string } | { ok: false; title: string; message: string };

/** Whether `balance` (a wire amount) covers a withdrawal, i.e. the 'Withdraw Money' button is enabled. */
export function canWithdraw(balance: string | null | undefined): boolean {
  const paise = balance == null ? null : parseRupees(balance);
  return paise !== null && paise >= MIN_WITHDRAWAL_PAISE;
}

/**
 * The client-side check of the amount typed into 'Withdraw to Bank', before anything is sent: below
 * ₹100 (or not an amount) -> 'Invalid Amount'; above the balance -> 'Insufficient Balance'. The
 * server checks both again; on success the amount goes out as a two-place decimal string.
 */
export function checkWithdrawalAmount(input: string, balance: string | null | undefined): AmountCheck {
  const parsed = v.safeParse(WithdrawalAmount, input.trim());
  if (!parsed.success) {
    return { ok: false, title: WITHDRAWAL_TITLES.invalidAmount, message: parsed.issues[0].message };
  }
  const available = balance == null ? null : parseRupees(balance);
  if (available === null || parsed.output > available) {
    return { ok: false, title: WITHDRAWAL_TITLES.insufficient, message: WITHDRAWAL_MESSAGES.insufficient };
  }
  return { ok: true, amount: formatPaise(parsed.output) };
}

/** The toast for a withdrawal the server refused, chosen by its error code (the 401 case aside). */
export function withdrawalFailureToast(body: ErrorBody | null | undefined): { title: string; message: string } {
  const error = body?.error;
  if (error?.code === 'insufficient_balance') {
    return { title: WITHDRAWAL_TITLES.insufficient, message: error.message || WITHDRAWAL_MESSAGES.insufficient };
  }
  if (error?.code === 'validation_failed' && error.fields?.amount) {
    return { title: WITHDRAWAL_TITLES.invalidAmount, message: error.fields.amount };
  }
  return { title: WITHDRAWAL_FAILED.title, message: error?.message || WITHDRAWAL_FAILED.fallback };
}
