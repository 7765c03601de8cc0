import { type DEBIT_KINDS, type CREDIT_KINDS, EARNING_KINDS, type EventsOf, MAX_MONEY_PAISE, type MessageParams, type ledgerEvents, type Paise, WITHDRAWAL_RETURN_KINDS, WITHDRAWAL_DEBIT_KINDS, msg } from '@kamai/contracts';
import { DomainError, assertNever } from '../errors.ts';

export type LedgerEvent = EventsOf<typeof ledgerEvents>;

/** The user's wallet as the ledger events make it. */
export interface WalletState {
  balance: Paise;
  /** Everything credited as earnings (task rewards, KYC bonus). */
  totalEarned: Paise;
  /** Everything debited for withdrawals, less refunds of refused ones. */
  totalWithdrawn: Paise;
}

export const initialWalletState = (): WalletState => ({ balance: 0, totalEarned: 0, totalWithdrawn: 0 });

export function evolveWallet(state: WalletState, event: LedgerEvent): WalletState {
  switch (event.type) {
    case 'WalletCredited': {
      const { amountPaise, kind } = event.data;
      return {
        balance: state.balance + amountPaise,
        totalEarned: state.totalEarned + (EARNING_KINDS.has(kind) ? amountPaise : 0),
        totalWithdrawn: state.totalWithdrawn - (WITHDRAWAL_RETURN_KINDS.has(kind) ? amountPaise : 0),
      };
    }
    case 'WalletDebited': {
      const { amountPaise, kind } = event.data;
      return {
        ...state,
        balance: state.balance - amountPaise,
        totalWithdrawn: state.totalWithdrawn + (WITHDRAWAL_DEBIT_KINDS.has(kind) ? amountPaise : 0),
      };
    }
    default:
      return assertNever(event);
  }
}

export interface LedgerEntry {
  entryId: string;
  amountPaise: Paise;
  /** The facts its description is made of, by the names LEDGER_TEXTS uses for its kind. */
  params: MessageParams;
  reference?: string;
  by?: string;
  /** The IST day it takes effect when not the day it is recorded, and what a correction corrects. */
  effectiveDate?: string;
  corrects?: string;
  now: string;
}

/**
 * A credit of a positive whole number of paise. Deciders call this; it is the only way money comes in.
 * Given the wallet, it refuses a credit that would take the balance past what a money column holds.
 */
export function credit(
  entry: LedgerEntry & { kind: (typeof CREDIT_KINDS)[number]; taskId?: string },
  wallet?: WalletState,
): Extract<LedgerEvent, { type: 'WalletCredited' }> {
  assertAmount(entry.amountPaise);
  if (wallet && wallet.balance + entry.amountPaise > MAX_MONEY_PAISE) {
    const message = msg('wallet.creditAboveMax', { maxPaise: MAX_MONEY_PAISE });
    throw new DomainError('conflict', message, { amount: message });
  }
  const { now, ...rest } = entry;
  return { type: 'WalletCredited', data: { ...rest, creditedAt: now } };
}

/**
 * A debit, refused when the balance does not cover it: the balance never goes below zero. Deciders
 * call this with the state folded from the user's stream, which the append then guards by revision.
 */
export function debit(
  wallet: WalletState,
  entry: LedgerEntry & { kind: (typeof DEBIT_KINDS)[number] },
): Extract<LedgerEvent, { type: 'WalletDebited' }> {
  assertAmount(entry.amountPaise);
  if (entry.amountPaise > wallet.balance) {
    // A conflict with the wallet's state, not a malformed input: the same request may pass later.
    throw new DomainError('conflict', msg('withdrawal.insufficient'), { amount: msg('withdrawal.insufficient') }, 'insufficient_balance');
  }
  const { now, ...rest } = entry;
  return { type: 'WalletDebited', data: { ...rest, debitedAt: now } };
}

function assertAmount(amount: Paise) {
  if (!Number.isSafeInteger(amount) || amount <= 0) {
    throw new DomainError('invalid', msg('api.positiveAmount'), { amount: msg('api.positiveAmount') });
  }
}
