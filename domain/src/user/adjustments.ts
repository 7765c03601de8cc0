import { type Paise, type UserEvent, rupeeText } from '@kamai/contracts';
import { DomainError } from '../errors.ts';
import { notify } from './notifications.ts';
import type { AccountState } from './account.ts';
import { type WalletState, credit, debit } from './wallet.ts';

/** A manual ledger entry by finance staff, naming why and who: every real ledger needs them. */
export interface AdjustWallet {
  type: 'AdjustWallet';
  data: {
    entryId: string;
    notificationId: string;
    amountPaise: Paise;
    direction: 'credit' | 'debit';
    reason: string;
    /** The staff member making it. */
    by: string;
  };
  now: string;
}

export function decideAdjustWallet(command: AdjustWallet, state: { account: AccountState; wallet: WalletState }): UserEvent[] {
  if (!state.account.registered) throw new DomainError('not_found', 'No such user');
  const d = command.data;
  // Four eyes on money: staff cannot move rupees into or out of their own wallet.
  if (d.by === state.account.userId) throw new DomainError('forbidden', 'You cannot adjust your own wallet');
  const entry = {
    entryId: d.entryId,
    amountPaise: d.amountPaise,
    kind: 'adjustment' as const,
    params: { reason: d.reason },
    by: d.by,
    now: command.now,
  };
  if (d.direction === 'credit') {
    return [
      credit(entry),
      notify({
        notificationId: d.notificationId,
        key: 'wallet_credited',
        params: { amountPaise: d.amountPaise, reason: d.reason },
        kind: 'success',
        now: command.now,
      }),
    ];
  }
  if (d.amountPaise > state.wallet.balance) {
    const message = `This debit would take the balance below zero: the balance is ${rupeeText(state.wallet.balance)}`;
    throw new DomainError('conflict', message, { amount: message }, 'insufficient_balance');
  }
  return [
    debit(state.wallet, entry),
    notify({
      notificationId: d.notificationId,
      key: 'wallet_debited',
      params: { amountPaise: d.amountPaise, reason: d.reason },
      kind: 'warning',
      now: command.now,
    }),
  ];
}
