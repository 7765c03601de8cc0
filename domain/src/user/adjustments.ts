import {
  CONFLICT_OF_DUTIES_DAYS,
  DEFAULT_LIMITS,
  type AdjustmentReasonCode,
  ADJUSTMENT_REASONS,
  type EventsOf,
  FOUR_EYES_WINDOW_HOURS,
  type Paise,
  type UserEvent,
  type adjustmentEvents,
  type ledgerEvents,
  msg,
  rupeeText,
  REASON_OTHER,
} from '@kamai/contracts';
import { DomainError, assertNever } from '../errors.ts';
import { notify } from './notifications.ts';
import type { AccountState } from './account.ts';
import { type WalletState, credit, debit } from './wallet.ts';

export type AdjustmentEvent = EventsOf<typeof adjustmentEvents>;

export interface PendingAdjustment {
  amountPaise: Paise;
  direction: 'credit' | 'debit';
  reason: string;
  /** An app-written reason's code (ADJUSTMENT_REASONS); absent for a staff member's own words. */
  reasonCode?: AdjustmentReasonCode;
  requestedBy: string;
  /** The IST day it takes effect and what it corrects, carried to the entry its approval moves. */
  effectiveDate?: string;
  corrects?: string;
}

/**
 * What one finance member did to this wallet alone, for the controls: when they last adjusted it
 * (moved at once, or approved after they asked), and what they moved at once per hour of the last
 * FOUR_EYES_WINDOW_HOURS (ISO hour start -> paise; hours keep the state bounded however many there are).
 */
export interface MemberAdjustments {
  lastAt: string | null;
  hours: [string, Paise][];
}

/**
 * Adjustments waiting for a second finance member, how the decided ones ended, and each member's
 * recent adjustments (members with none in CONFLICT_OF_DUTIES_DAYS leave). Changed in place by
 * evolve: O(1) per event (see ./state.ts on why the command cache allows that).
 */
export interface AdjustmentsState {
  pending: Map<string, PendingAdjustment>;
  decided: Map<string, 'approved' | 'rejected'>;
  byMember: Map<string, MemberAdjustments>;
}

export const initialAdjustmentsState = (): AdjustmentsState => ({ pending: new Map(), decided: new Map(), byMember: new Map() });

const HOUR_MS = 3_600_000;
const DUTIES_MS = CONFLICT_OF_DUTIES_DAYS * 24 * HOUR_MS;
const WINDOW_MS = FOUR_EYES_WINDOW_HOURS * HOUR_MS;
export const hourOf = (at: string) => new Date(Math.floor(Date.parse(at) / HOUR_MS) * HOUR_MS).toISOString();
/** An hour counts while any part of it is inside the window: the sum never comes out short. */
export const hourCounts = (hour: string, now: number) => Date.parse(hour) + HOUR_MS > now - WINDOW_MS;
/** What hourly sums (ISO hour start -> paise) add up to within the four-eyes window before `now`. */
export const sumInWindow = (hours: readonly (readonly [string, Paise])[], now: number): Paise =>
  hours.filter(([hour]) => hourCounts(hour, now)).reduce((sum, [, paise]) => sum + paise, 0);

/** Records that `by` adjusted the wallet at `at` (moving `alonePaise` without a second member), forgetting what expired. */
function remember(state: AdjustmentsState, by: string, at: string, alonePaise: Paise): AdjustmentsState {
  const now = Date.parse(at);
  for (const [member, m] of state.byMember) {
    m.hours = m.hours.filter(([hour]) => hourCounts(hour, now));
    if (m.hours.length === 0 && (m.lastAt === null || Date.parse(m.lastAt) <= now - DUTIES_MS)) state.byMember.delete(member);
  }
  const m = state.byMember.get(by) ?? { lastAt: null, hours: [] };
  if (m.lastAt === null || m.lastAt < at) m.lastAt = at;
  if (alonePaise > 0) {
    const hour = hourOf(at);
    const bucket = m.hours.find(([h]) => h === hour);
    if (bucket) bucket[1] += alonePaise;
    else m.hours.push([hour, alonePaise]);
  }
  state.byMember.set(by, m);
  return state;
}

/** The parts of the user state adjustments are decided on. */
type AdjustmentParts = { account: AccountState; wallet: WalletState; adjustments: AdjustmentsState };

type LedgerEvent = EventsOf<typeof ledgerEvents>;

/**
 * A ledger entry that is an adjustment moved at once by its maker (an approved one names its
 * adjustment as reference and is remembered by its approval).
 */
export function evolveAdjustmentEntry(state: AdjustmentsState, event: LedgerEvent): AdjustmentsState {
  const d = event.data;
  if (d.kind !== 'adjustment' || d.reference !== undefined || !d.by) return state;
  return remember(state, d.by, event.type === 'WalletCredited' ? event.data.creditedAt : event.data.debitedAt, d.amountPaise);
}

export function evolveAdjustments(state: AdjustmentsState, event: AdjustmentEvent): AdjustmentsState {
  switch (event.type) {
    case 'AdjustmentRequested': {
      const { adjustmentId, amountPaise, direction, reason, reasonCode, requestedBy, effectiveDate, corrects } = event.data;
      state.pending.set(adjustmentId, {
        amountPaise,
        direction,
        reason,
        ...(isAdjustmentReason(reasonCode) && { reasonCode }),
        requestedBy,
        ...(effectiveDate !== undefined && { effectiveDate }),
        ...(corrects !== undefined && { corrects }),
      });
      return state;
    }
    case 'AdjustmentApproved':
    case 'AdjustmentRejected':
      if (event.type === 'AdjustmentApproved') {
        const asked = state.pending.get(event.data.adjustmentId);
        // The maker adjusted the wallet when the money moved; the approver's eyes keep it out of their sum.
        if (asked) remember(state, asked.requestedBy, event.data.approvedAt, 0);
      }
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
    /** When the app writes the reason (the demo seed), its code: the reason's English text is ADJUSTMENT_REASONS' and readers see it in their language. */
    reasonCode?: AdjustmentReasonCode;
    /** The staff member making it. */
    by: string;
    /** Above this amount a second finance member must approve (the settings' limit; its default when absent). */
    approvalThresholdPaise?: Paise;
    /**
     * The member's sum across all users would pass memberDailyAdjustmentLimit (decided on their
     * staff-limits stream, domain/src/finance/staff-limits.ts): a second finance member approves.
     */
    memberLimitReached?: boolean;
    /** The IST day it takes effect when not today (docs/month-end.md); the caller has checked its month is open. */
    effectiveDate?: string;
    /** The transaction, entry or funding id it corrects. */
    corrects?: string;
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
  // The threshold holds for what one member moves alone to one user within the window, not only
  // for each adjustment: ten small credits need a second member as one large one does.
  // The member's own sum across all users was decided on their staff-limits stream (memberLimitReached).
  const alone = sumInWindow(state.adjustments.byMember.get(d.by)?.hours ?? [], Date.parse(command.now));
  if (d.memberLimitReached === true || alone + d.amountPaise > (d.approvalThresholdPaise ?? DEFAULT_LIMITS.adjustmentApprovalThresholdPaise)) {
    return [
      {
        type: 'AdjustmentRequested',
        data: {
          adjustmentId: d.entryId,
          amountPaise: d.amountPaise,
          direction: d.direction,
          reason: d.reason,
          // Staff have no canned reasons: their reason is their own words unless the app wrote it.
          reasonCode: d.reasonCode ?? REASON_OTHER,
          requestedBy: d.by,
          requestedAt: command.now,
          ...accountingOf(d),
        },
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

/**
 * A finance member who adjusted this user's wallet within CONFLICT_OF_DUTIES_DAYS, or asked for an
 * adjustment still pending, does not settle their withdrawals: whoever creates money must not also
 * pay it out.
 */
export function assertNoConflictOfDuties(adjustments: AdjustmentsState, by: string, now: string): void {
  const lastAt = adjustments.byMember.get(by)?.lastAt;
  const recently = lastAt != null && Date.parse(lastAt) > Date.parse(now) - DUTIES_MS;
  if (recently || [...adjustments.pending.values()].some((p) => p.requestedBy === by)) {
    throw new DomainError('forbidden', msg('controls.conflictOfDuties'), undefined, 'conflict_of_duties');
  }
}

const isAdjustmentReason = (code: string | undefined): code is AdjustmentReasonCode => code !== undefined && Object.hasOwn(ADJUSTMENT_REASONS, code);

function assertCovered(amountPaise: Paise, state: { wallet: WalletState }) {
  if (amountPaise > state.wallet.balance) {
    const message = msg('wallet.debitBelowZero', { balancePaise: state.wallet.balance });
    throw new DomainError('conflict', message, { amount: message }, 'insufficient_balance');
  }
}

/** The effective day and the corrected id, only when given (an entry without them takes effect the day it is recorded). */
function accountingOf(d: { effectiveDate?: string | undefined; corrects?: string | undefined }): { effectiveDate?: string; corrects?: string } {
  return { ...(d.effectiveDate !== undefined && { effectiveDate: d.effectiveDate }), ...(d.corrects !== undefined && { corrects: d.corrects }) };
}

/** The ledger entry and the user's notification of an adjustment that takes effect. */
function move(
  d: {
    entryId: string;
    notificationId: string;
    amountPaise: Paise;
    direction: 'credit' | 'debit';
    reason: string;
    reasonCode?: AdjustmentReasonCode | undefined;
    by: string;
    approvedBy: string;
    reference?: string;
    effectiveDate?: string | undefined;
    corrects?: string | undefined;
  },
  now: string,
  state: { wallet: WalletState },
): UserEvent[] {
  // The reason's code travels beside it (plain), so the entry and its notification read in the reader's language.
  const reason = { reason: d.reason, ...(d.reasonCode !== undefined && { reasonCode: d.reasonCode }) };
  const entry = {
    entryId: d.entryId,
    amountPaise: d.amountPaise,
    kind: 'adjustment' as const,
    params: reason,
    by: d.by,
    ...(d.reference !== undefined && { reference: d.reference }),
    ...accountingOf(d),
    now,
  };
  if (d.direction === 'credit') {
    return [
      credit(entry, state.wallet),
      notify({ notificationId: d.notificationId, key: 'wallet_credited', params: { amountPaise: d.amountPaise, ...reason }, kind: 'success', now }),
    ];
  }
  return [
    debit(state.wallet, entry),
    notify({ notificationId: d.notificationId, key: 'wallet_debited', params: { amountPaise: d.amountPaise, ...reason }, kind: 'warning', now }),
  ];
}
