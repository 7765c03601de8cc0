import { type EventsOf, type deletionEvents, msg } from '@kamai/contracts';
import { DomainError, assertNever } from '../errors.ts';
import { notify } from './notifications.ts';
import type { NotificationEvent } from './notifications.ts';
import type { WalletState } from './wallet.ts';
import type { WithdrawalsState } from './withdrawals.ts';

export type DeletionEvent = EventsOf<typeof deletionEvents>;

/** The user's deletion request in progress, and whether the person was erased. */
export interface DeletionState {
  pending: { requestId: string; coolingOffEndsAt: string } | null;
  /** The request the person was erased by; null while they are not. */
  erasedBy: string | null;
}

export const initialDeletionState = (): DeletionState => ({ pending: null, erasedBy: null });

export function evolveDeletion(state: DeletionState, event: DeletionEvent): DeletionState {
  switch (event.type) {
    case 'DeletionRequested':
      return { ...state, pending: { requestId: event.data.requestId, coolingOffEndsAt: event.data.coolingOffEndsAt } };
    case 'DeletionCancelled':
      return { ...state, pending: null };
    case 'UserErased':
      return { pending: null, erasedBy: event.data.requestId };
    default:
      return assertNever(event);
  }
}

export type DeletionCommand =
  | { type: 'RequestDeletion'; data: { requestId: string; notificationId: string; coolingOffHours: number }; now: string }
  | { type: 'CancelDeletion'; data: { notificationId: string }; now: string }
  | { type: 'EraseUser'; data: { requestId: string; by: string }; now: string };

/** The parts of the user's state a deletion is decided on. */
export interface DeletionDecisionState {
  account: { registered: boolean };
  deletion: DeletionState;
  wallet: WalletState;
  withdrawals: WithdrawalsState;
}

const HOUR_MS = 3_600_000;

/** A payout requested or with the bank (in a batch): the bank may still pay it or send it back. */
function hasPendingPayout(withdrawals: WithdrawalsState): boolean {
  return withdrawals.open.count > 0;
}

/**
 * A person asks to be forgotten; after the cooling-off an admin erases them, but only once nothing is
 * owed either way (no available balance, no payout requested or with the bank), so erasure never strands money. Asking
 * again while a request is pending changes nothing; erasing an erased person again changes nothing
 * either, so a half-done erasure can be retried to its end.
 */
export function decideDeletion(command: DeletionCommand, state: DeletionDecisionState): (DeletionEvent | NotificationEvent)[] {
  if (!state.account.registered) throw new DomainError('not_found', msg('api.noSuchUser'));
  switch (command.type) {
    case 'RequestDeletion': {
      if (state.deletion.pending) return [];
      const { requestId, notificationId, coolingOffHours } = command.data;
      const coolingOffEndsAt = new Date(Date.parse(command.now) + coolingOffHours * HOUR_MS).toISOString();
      return [
        { type: 'DeletionRequested', data: { requestId, requestedAt: command.now, coolingOffEndsAt } },
        notify({ notificationId, key: 'deletion_requested', params: {}, kind: 'warning', now: command.now }),
      ];
    }
    case 'CancelDeletion': {
      const pending = state.deletion.pending;
      if (!pending) throw new DomainError('not_found', msg('deletion.noneToCancel'));
      return [
        { type: 'DeletionCancelled', data: { requestId: pending.requestId, cancelledAt: command.now } },
        notify({ notificationId: command.data.notificationId, key: 'deletion_cancelled', params: {}, kind: 'info', now: command.now }),
      ];
    }
    case 'EraseUser': {
      const { requestId, by } = command.data;
      if (state.deletion.erasedBy === requestId) return [];
      const pending = state.deletion.pending;
      if (!pending || pending.requestId !== requestId) throw new DomainError('conflict', msg('deletion.notPending'));
      if (Date.parse(command.now) < Date.parse(pending.coolingOffEndsAt)) {
        throw new DomainError('conflict', msg('deletion.coolingOff'), undefined, 'deletion_cooling_off');
      }
      if (state.wallet.balance > 0 || hasPendingPayout(state.withdrawals)) {
        throw new DomainError('conflict', msg('deletion.balanceNotSettled'), undefined, 'balance_not_settled');
      }
      return [{ type: 'UserErased', data: { requestId, erasedBy: by, erasedAt: command.now } }];
    }
    default:
      return assertNever(command);
  }
}

/** An erased person can do nothing, and nobody can do anything on their stream but finish the erasure. */
export function refuseIfErased(state: { deletion: DeletionState }, command: { type: string }): void {
  if (state.deletion.erasedBy !== null && command.type !== 'EraseUser') {
    throw new DomainError('conflict', msg('deletion.erased'), undefined, 'user_erased');
  }
}
