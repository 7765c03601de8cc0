import { DEFAULT_LIMITS, type EventsOf, type Paise, type UserEvent, type adjustmentEvents, msg } from '@kamai/contracts';
import { DomainError, assertNever } from '../errors.ts';
import { notify } from './notifications.ts';
import type { AccountState } from './account.ts';
import { type WalletState, credit, debit } from './wallet.ts';

export type AdjustmentEvent = EventsOf<typeof adjustmentEvents>;

export interface PendingAdjustment {
  amountPaise: Paise;
  direction: 'credit' | 'debit';
  reason: string;
  requestedBy: string;
}

/**
 * Adjustments waiting for a second finance member, and how the decided ones ended. Maps, changed in
 * place by evolve: O(1) per event (see ./state.ts on why the command cache allows that).
 */
export interface AdjustmentsState {
  pending: Map<string, PendingAdjustment>;
  decided: Map<string, 'approved' | 'rejected'>;
}

export const initialAdjustmentsState = (): AdjustmentsState => ({ pending: new Map(), decided: new Map() });

/** The parts of the user state adjustments are decided on. */
type AdjustmentParts = { account: AccountState; wallet: WalletState; adjustments: AdjustmentsState };

export function evolveAdjustments(state: AdjustmentsState, event: AdjustmentEvent): AdjustmentsState {
  switch (event.type) {
    case 'AdjustmentRequested': {
      const { adjustmentId, amountPaise, direction, reason, requestedBy } = event.data;
      state.pending.set(adjustmentId, { amountPaise, direction, reason, requestedBy });
      return state;
    }
    case 'AdjustmentApproved':
    case 'AdjustmentRejected':
      state.pending.delete(event.data.adjustmentId);
      state.decided.set(event.data.adjustmentId, event.type === 'AdjustmentApproved' ? 'approved' : 'rejected');
      return state;
    default:
      return assertNever(event);
  }
}

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
    /** Above this amount a second finance member must approve (the settings' limit; its default when absent). */
    approvalThresholdPaise?: Paise;
  };
  now: string;
}

/**
 * An adjustment up to the threshold moves money at once; a larger one is recorded pending and moves
 * money only when a different finance member approves it (ApproveAdjustment).
 */
export function decideAdjustWallet(command: AdjustWallet, state: AdjustmentParts): UserEvent[] {
  if (!state.account.registered) throw new DomainError('not_found', msg('api.noSuchUser'));
  const d = command.data;
  // Four eyes on money: staff cannot move rupees into or out of their own wallet.
  if (d.by === state.account.userId) throw new DomainError('forbidden', msg('api.ownWallet'));
  if (d.direction === 'debit') assertCovered(d.amountPaise, state);
  if (d.amountPaise > (d.approvalThresholdPaise ?? DEFAULT_LIMITS.adjustmentApprovalThresholdPaise)) {
    return [
      {
        type: 'AdjustmentRequested',
        data: { adjustmentId: d.entryId, amountPaise: d.amountPaise, direction: d.direction, reason: d.reason, requestedBy: d.by, requestedAt: command.now },
      },
    ];
  }
  return move({ ...d, approvedBy: d.by }, command.now, state);
}

export interface ApproveAdjustment {
  type: 'ApproveAdjustment';
  data: { adjustmentId: string; by: string; notificationId: string };
  now: string;
}

export interface RejectAdjustment {
  type: 'RejectAdjustment';
  data: { adjustmentId: string; by: string };
  now: string;
}

export type AdjustmentDecision = ApproveAdjustment | RejectAdjustment;

/** A second finance member decides a pending adjustment; nobody approves their own. */
export function decideAdjustmentDecision(command: AdjustmentDecision, state: AdjustmentParts): UserEvent[] {
  const { adjustmentId, by } = command.data;
  const pending = state.adjustments.pending.get(adjustmentId);
  if (!pending) {
    const decided = state.adjustments.decided.get(adjustmentId);
    if (decided) throw new DomainError('conflict', msg(decided === 'approved' ? 'api.adjustmentApproved' : 'api.adjustmentRejected'));
    throw new DomainError('not_found', msg('api.adjustmentNotFound'));
  }
  switch (command.type) {
    case 'ApproveAdjustment': {
      if (by === pending.requestedBy) throw new DomainError('forbidden', msg('api.ownAdjustment'));
      if (by === state.account.userId) throw new DomainError('forbidden', msg('api.ownWallet'));
      if (pending.direction === 'debit') assertCovered(pending.amountPaise, state);
      return [
        { type: 'AdjustmentApproved', data: { adjustmentId, approvedBy: by, approvedAt: command.now } },
        ...move(
          { ...pending, entryId: adjustmentId, notificationId: command.data.notificationId, by: pending.requestedBy, approvedBy: by, reference: adjustmentId },
          command.now,
          state,
        ),
      ];
    }
    case 'RejectAdjustment':
      // The requester may withdraw their own; rejecting moves no money.
      return [{ type: 'AdjustmentRejected', data: { adjustmentId, rejectedBy: by, rejectedAt: command.now } }];
    default:
      return assertNever(command);
  }
}

function assertCovered(amountPaise: Paise, state: { wallet: WalletState }) {
  if (amountPaise > state.wallet.balance) {
    const message = msg('wallet.debitBelowZero', { balancePaise: state.wallet.balance });
    throw new DomainError('conflict', message, { amount: message }, 'insufficient_balance');
  }
}

/** The ledger entry and the user's notification of an adjustment that takes effect. */
function move(
  d: { entryId: string; notificationId: string; amountPaise: Paise; direction: 'credit' | 'debit'; reason: string; by: string; approvedBy: string; reference?: string },
  now: string,
  state: { wallet: WalletState },
): UserEvent[] {
  const entry = {
    entryId: d.entryId,
    amountPaise: d.amountPaise,
    kind: 'adjustment' as const,
    params: { reason: d.reason },
    by: d.by,
    ...(d.reference !== undefined && { reference: d.reference }),
    now,
  };
  if (d.direction === 'credit') {
    return [
      credit(entry, state.wallet),
      notify({ notificationId: d.notificationId, key: 'wallet_credited', params: { amountPaise: d.amountPaise, reason: d.reason }, kind: 'success', now }),
    ];
  }
  return [
    debit(state.wallet, entry),
    notify({ notificationId: d.notificationId, key: 'wallet_debited', params: { amountPaise: d.amountPaise, reason: d.reason }, kind: 'warning', now }),
  ];
}
