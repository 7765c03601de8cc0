import * as v from 'valibot';
import { MIN_WITHDRAWAL_PAISE, WITHDRAWAL_MESSAGES, WithdrawalAmount, formatPaise, parseRupees } from '@kamai/contracts';
import type { ErrorBody } from '@kamai/contracts';
import { i18n } from '../../i18n/index.ts';
import { refusalInLanguage, serverMessage } from '../../i18n/messages.ts';

/** The smallest withdrawal (contracts' MIN_WITHDRAWAL_PAISE) and the dialog's default entry, in rupees. */
export const MIN_WITHDRAWAL_RUPEES = MIN_WITHDRAWAL_PAISE / 100;

/** The toasts' texts, in the reader's language: each is named by its key, never found by its English. */
const text = (key: 'invalidAmount' | 'insufficientBalance' | 'withdrawalFailed' | 'withdrawalFailedBody') => i18n.t(`errors:${key}`);
const INSUFFICIENT = { key: 'withdrawal.insufficient' } as const;

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
    return { ok: false, title: text('invalidAmount'), message: refusalInLanguage(parsed.issues[0].message) };
  }
  const available = balance == null ? null : parseRupees(balance);
  if (available === null || parsed.output > available) {
    return { ok: false, title: text('insufficientBalance'), message: serverMessage(INSUFFICIENT, WITHDRAWAL_MESSAGES.insufficient) };
  }
  return { ok: true, amount: formatPaise(parsed.output) };
}

/** The toast for a withdrawal the server refused, chosen by its error code (the 401 case aside). */
export function withdrawalFailureToast(body: ErrorBody | null | undefined): { title: string; message: string } {
  const error = body?.error;
  if (error?.code === 'insufficient_balance') {
    return { title: text('insufficientBalance'), message: error.message ? serverMessage(error, error.message) : serverMessage(INSUFFICIENT, WITHDRAWAL_MESSAGES.insufficient) };
  }
  if (error?.code === 'validation_failed' && error.fields?.amount) {
    return { title: text('invalidAmount'), message: serverMessage(error.fieldKeys?.amount, error.fields.amount) };
  }
  return { title: text('withdrawalFailed'), message: error?.message ? serverMessage(error, error.message) : text('withdrawalFailedBody') };
}
