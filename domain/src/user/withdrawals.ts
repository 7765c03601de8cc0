import {
  type EventsOf,
  type Paise,
  type UserEvent,
  MIN_WITHDRAWAL_PAISE,
  WITHDRAWAL_MESSAGES,
  type WithdrawalDestination,
  type WithdrawalStatus,
  type withdrawalEvents,
} from '@kamai/contracts';
import { DomainError, assertNever } from '../errors.ts';
import { notify } from './notifications.ts';
import { type AccountState, assertNotSuspended } from './account.ts';
import { type WalletState, credit, debit } from './wallet.ts';

export type WithdrawalEvent = EventsOf<typeof withdrawalEvents>;

/** The parts of the user's state a withdrawal is decided on (the user decider passes its whole state). */
export interface WithdrawalDecisionState {
  account: AccountState;
  wallet: WalletState;
  withdrawals: WithdrawalsState;
}

export interface WithdrawalRecord {
  amountPaise: Paise;
  status: WithdrawalStatus;
  destination: WithdrawalDestination;
  requestedAt: string;
  /** When it was paid or rejected. */
  processedAt: string | null;
  reference: string | null;
  reason: string | null;
}

/** A settled request is no longer in the decision state; the route tells paid from rejected by the read model. */
export const WITHDRAWAL_SETTLED = 'This withdrawal request has already been settled';

/**
 * The user's withdrawal requests still waiting for finance, and where the last one went (offered again
 * by the dialog). Settled requests leave the map: no rule reads them, and a user's history of them
 * would otherwise grow the state, its snapshot and every cold start without bound. The map is updated
 * in place (O(1) per event); records are replaced, never changed.
 */
export interface WithdrawalsState {
  /** Keyed by withdrawal id; only requests neither paid nor rejected. */
  pending: Map<string, WithdrawalRecord>;
  lastDestination: WithdrawalDestination | null;
}

export const initialWithdrawalsState = (): WithdrawalsState => ({ pending: new Map(), lastDestination: null });

export function evolveWithdrawals(state: WithdrawalsState, event: WithdrawalEvent): WithdrawalsState {
  switch (event.type) {
    case 'WithdrawalRequested': {
      const d = event.data;
      const record: WithdrawalRecord = {
        amountPaise: d.amountPaise,
        status: 'pending',
        destination: d.destination,
        requestedAt: d.requestedAt,
        processedAt: null,
        reference: null,
        reason: null,
      };
      state.pending.set(d.withdrawalId, record);
      state.lastDestination = d.destination;
      return state;
    }
    case 'WithdrawalPaid':
    case 'WithdrawalRejected':
      state.pending.delete(event.data.withdrawalId);
      return state;
    default:
      return assertNever(event);
  }
}

export type WithdrawalCommand =
  | {
      type: 'RequestWithdrawal';
      data: {
        withdrawalId: string;
        /** Id of the ledger entry that holds the amount. */
        entryId: string;
        notificationId: string;
        amountPaise: Paise;
        /** Absent: pay to the destination of the user's last request. */
        destination?: WithdrawalDestination;
      };
      now: string;
    }
  | {
      type: 'MarkWithdrawalPaid';
      data: { withdrawalId: string; reference: string; by: string; notificationId: string };
      now: string;
    }
  | {
      type: 'RejectWithdrawal';
      data: { withdrawalId: string; reason: string; by: string; entryId: string; notificationId: string };
      now: string;
    };

/**
 * Withdrawals are decided on the user's own stream, against the wallet folded from it: the request's
 * hold is a ledger debit (refused beyond the balance), appended with the request in one append that
 * expects the revision the decision was made on. Two concurrent requests therefore cannot both spend
 * the same rupees: the second append conflicts and is decided again on the new balance.
 */
export function decideWithdrawals(command: WithdrawalCommand, state: WithdrawalDecisionState): UserEvent[] {
  if (!state.account.registered) throw new DomainError('not_found', 'No such user');
  switch (command.type) {
    case 'RequestWithdrawal': {
      const d = command.data;
      assertNotSuspended(state.account);
      if (!Number.isSafeInteger(d.amountPaise) || d.amountPaise < MIN_WITHDRAWAL_PAISE) {
        throw new DomainError('invalid', WITHDRAWAL_MESSAGES.minimum, { amount: WITHDRAWAL_MESSAGES.minimum });
      }
      if (state.withdrawals.pending.has(d.withdrawalId)) throw new DomainError('conflict', 'This withdrawal request already exists');
      const destination = d.destination ?? state.withdrawals.lastDestination;
      const label = destination ? maskDestination(destination) : '';
      // The balance is checked first: asking where to pay rupees the user does not have helps nobody.
      const hold = debit(state.wallet, {
        entryId: d.entryId,
        amountPaise: d.amountPaise,
        kind: 'withdrawal',
        params: { destination: label },
        reference: d.withdrawalId,
        now: command.now,
      });
      if (!destination) {
        throw new DomainError(
          'invalid',
          WITHDRAWAL_MESSAGES.destinationRequired,
          { destination: WITHDRAWAL_MESSAGES.destinationRequired },
          'destination_required',
        );
      }
      return [
        { type: 'WithdrawalRequested', data: { withdrawalId: d.withdrawalId, amountPaise: d.amountPaise, destination, requestedAt: command.now } },
        hold,
        notify({
          notificationId: d.notificationId,
          key: 'withdrawal_requested',
          params: { amountPaise: d.amountPaise, destination: label },
          kind: 'info',
          now: command.now,
        }),
      ];
    }
    case 'MarkWithdrawalPaid': {
      const d = command.data;
      const record = pendingWithdrawal(state, d.withdrawalId, d.by);
      return [
        {
          type: 'WithdrawalPaid',
          data: { withdrawalId: d.withdrawalId, reference: d.reference, paidBy: d.by, paidAt: command.now, amountPaise: record.amountPaise },
        },
        // The amount left the balance when it was requested; paying only settles that hold.
        notify({
          notificationId: d.notificationId,
          key: 'withdrawal_paid',
          params: { amountPaise: record.amountPaise, destination: maskDestination(record.destination), reference: d.reference },
          kind: 'success',
          now: command.now,
        }),
      ];
    }
    case 'RejectWithdrawal': {
      const d = command.data;
      const record = pendingWithdrawal(state, d.withdrawalId, d.by);
      return [
        { type: 'WithdrawalRejected', data: { withdrawalId: d.withdrawalId, reason: d.reason, rejectedBy: d.by, rejectedAt: command.now } },
        credit({
          entryId: d.entryId,
          amountPaise: record.amountPaise,
          kind: 'withdrawal_refund',
          params: { reason: d.reason },
          reference: d.withdrawalId,
          by: d.by,
          now: command.now,
        }, state.wallet),
        notify({
          notificationId: d.notificationId,
          key: 'withdrawal_rejected',
          params: { amountPaise: record.amountPaise, reason: d.reason },
          kind: 'error',
          now: command.now,
        }),
      ];
    }
    default:
      return assertNever(command);
  }
}

/**
 * A request still waiting for finance: settled once, never by the user it pays. One that is not
 * pending was settled (the route has already answered 404 for an id the read model does not know).
 */
function pendingWithdrawal(state: WithdrawalDecisionState, withdrawalId: string, by: string): WithdrawalRecord {
  if (by === state.account.userId) throw new DomainError('forbidden', 'You cannot process your own withdrawal');
  const record = state.withdrawals.pending.get(withdrawalId);
  if (!record) throw new DomainError('conflict', WITHDRAWAL_SETTLED);
  return record;
}

/** A destination as screens show it: 'A/c XXXXXX4321 · HDFC0001234' or 'UPI ra***@okhdfc'. */
export function maskDestination(destination: WithdrawalDestination): string {
  switch (destination.kind) {
    case 'bank':
      return `A/c XXXXXX${destination.accountNumber.slice(-4)} · ${destination.ifsc}`;
    case 'upi':
      return `UPI ${maskUpiId(destination.upiId)}`;
    default:
      return assertNever(destination);
  }
}

function maskUpiId(upiId: string): string {
  const at = upiId.lastIndexOf('@');
  const name = upiId.slice(0, at);
  const shown = name.length > 3 ? 2 : 1;
  return `${name.slice(0, shown)}***${upiId.slice(at)}`;
}
