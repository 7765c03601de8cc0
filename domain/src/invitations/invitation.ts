import {
  type InvitationBeneficiary,
  type InvitationEvent,
  type InvitationRefusal,
  type InvitationStatus,
  type Paise,
  istDayOf,
  msg,
} from '@kamai/contracts';
import type { Decider } from '../decider.ts';
import { DomainError, assertNever } from '../errors.ts';

/** One bonus of an invitation: still to come, paid (how much), or refused (why). */
export interface InvitationBonus {
  status: InvitationStatus;
  amountPaise: Paise;
  refusal: InvitationRefusal | null;
  /** The ledger entry of a paid bonus ('' until paid). */
  entryId: string;
}

/** `invitation-<inviteeId>`: who invited the person, and each bonus's outcome (docs/invitations.md). */
export interface InvitationState {
  accepted: boolean;
  inviteeId: string;
  inviterId: string;
  sharedDevice: boolean;
  bonuses: Record<InvitationBeneficiary, InvitationBonus>;
}

export type InvitationCommand =
  | { type: 'AcceptInvitation'; data: { inviteeId: string; inviterId: string; code: string; sharedDevice: boolean }; now: string }
  | {
      type: 'RecordInvitationBonus';
      /** `refusal` null: awarded (`amountPaise` to `userId`, ledger entry `entryId`). */
      data: { inviteeId: string; beneficiary: InvitationBeneficiary; userId: string; amountPaise: Paise; entryId: string; refusal: InvitationRefusal | null };
      now: string;
    };

const pending = (): InvitationBonus => ({ status: 'pending', amountPaise: 0, refusal: null, entryId: '' });

/** The invitation's status as finance lists it: refused when a bonus was refused, paid when both were paid. */
export function invitationStatus(state: Pick<InvitationState, 'bonuses'>): InvitationStatus {
  const { invitee, inviter } = state.bonuses;
  if (invitee.status === 'refused' || inviter.status === 'refused') return 'refused';
  return invitee.status === 'paid' && inviter.status === 'paid' ? 'paid' : 'pending';
}

/**
 * An invitation is accepted once (at registration, with the code of the inviter); each bonus is
 * decided once: a second decision of the same bonus changes nothing (a workflow's step run again).
 */
export const invitationDecider: Decider<InvitationState, InvitationCommand, InvitationEvent> = {
  initialState: () => ({ accepted: false, inviteeId: '', inviterId: '', sharedDevice: false, bonuses: { invitee: pending(), inviter: pending() } }),
  evolve: (state, event) => {
    switch (event.type) {
      case 'InvitationAccepted':
        return { ...state, accepted: true, inviteeId: event.data.inviteeId, inviterId: event.data.inviterId, sharedDevice: event.data.sharedDevice };
      case 'InvitationBonusAwarded':
        return { ...state, bonuses: { ...state.bonuses, [event.data.beneficiary]: { status: 'paid', amountPaise: event.data.amountPaise, refusal: null, entryId: event.data.entryId } } };
      case 'InvitationBonusRefused':
        return { ...state, bonuses: { ...state.bonuses, [event.data.beneficiary]: { status: 'refused', amountPaise: 0, refusal: event.data.reason, entryId: '' } } };
      case 'InviteCodeIssued':
      case 'InvitationBonusCounted':
        return state;
      default:
        return assertNever(event);
    }
  },
  decide: (command, state) => {
    switch (command.type) {
      case 'AcceptInvitation': {
        if (state.accepted) throw new DomainError('conflict', msg('invitation.accepted'));
        return [{ type: 'InvitationAccepted', data: { ...command.data, acceptedAt: command.now } }];
      }
      case 'RecordInvitationBonus': {
        const d = command.data;
        if (!state.accepted) throw new DomainError('not_found', msg('invitation.notFound'));
        // Decided already (this step ran before its outcome was recorded, or a second sweep): nothing new.
        if (state.bonuses[d.beneficiary].status !== 'pending') return [];
        if (d.refusal !== null) return [{ type: 'InvitationBonusRefused', data: { inviteeId: d.inviteeId, beneficiary: d.beneficiary, reason: d.refusal, refusedAt: command.now } }];
        return [
          {
            type: 'InvitationBonusAwarded',
            data: { inviteeId: d.inviteeId, beneficiary: d.beneficiary, userId: d.userId, amountPaise: d.amountPaise, entryId: d.entryId, awardedAt: command.now },
          },
        ];
      }
      default:
        return assertNever(command);
    }
  },
};

/** `invite-code-<code>`: the person a code is held for. */
export interface InviteCodeState {
  userId: string | null;
}

/** Holds a code for one person; the same person again changes nothing, another person is refused. */
export const inviteCodeDecider: Decider<InviteCodeState, { type: 'IssueInviteCode'; data: { code: string; userId: string }; now: string }, InvitationEvent> = {
  initialState: () => ({ userId: null }),
  evolve: (state, event) => (event.type === 'InviteCodeIssued' ? { userId: event.data.userId } : state),
  decide: (command, state) => {
    if (state.userId === command.data.userId) return [];
    if (state.userId !== null) throw new DomainError('conflict', msg('invitation.accepted'));
    return [{ type: 'InviteCodeIssued', data: { ...command.data, issuedAt: command.now } }];
  },
};

/** `invitation-programme`: what the programme has paid, in all and per inviter per IST month. */
export interface InvitationProgrammeState {
  totalPaise: Paise;
  /** `<inviterId>:<YYYY-MM>` -> the inviter bonuses counted in that month. */
  byInviterMonth: Map<string, Paise>;
  /** `<inviteeId>:<beneficiary>` of every bonus counted. */
  counted: Set<string>;
}

export interface CountInvitationBonus {
  type: 'CountInvitationBonus';
  data: { inviteeId: string; beneficiary: InvitationBeneficiary; inviterId: string; amountPaise: Paise; budgetPaise: Paise; monthlyCapPaise: Paise };
  now: string;
}

const monthOf = (instant: string) => istDayOf(instant).slice(0, 7);

/**
 * Counts a bonus against the programme's budget and, for an inviter's, their monthly cap (IST
 * month) before it is paid: past either, refused (`budget_spent`, `monthly_cap`), nothing counted.
 * One stream for every bonus, so two bonuses at once are counted one after the other and cannot
 * both pass the last rupee. A bonus counted already is not counted again.
 */
export const invitationProgrammeDecider: Decider<InvitationProgrammeState, CountInvitationBonus, InvitationEvent> = {
  initialState: () => ({ totalPaise: 0, byInviterMonth: new Map(), counted: new Set() }),
  evolve: (state, event) => {
    if (event.type !== 'InvitationBonusCounted') return state;
    const d = event.data;
    state.totalPaise += d.amountPaise;
    state.counted.add(`${d.inviteeId}:${d.beneficiary}`);
    if (d.beneficiary === 'inviter') {
      const key = `${d.inviterId}:${monthOf(d.countedAt)}`;
      state.byInviterMonth.set(key, (state.byInviterMonth.get(key) ?? 0) + d.amountPaise);
    }
    return state;
  },
  decide: (command, state) => {
    const d = command.data;
    if (state.counted.has(`${d.inviteeId}:${d.beneficiary}`)) return [];
    if (state.totalPaise + d.amountPaise > d.budgetPaise) throw new DomainError('conflict', msg('invitation.budgetSpent'), undefined, 'budget_spent');
    if (d.beneficiary === 'inviter' && (state.byInviterMonth.get(`${d.inviterId}:${monthOf(command.now)}`) ?? 0) + d.amountPaise > d.monthlyCapPaise) {
      throw new DomainError('conflict', msg('invitation.monthlyCap'), undefined, 'monthly_cap');
    }
    return [
      {
        type: 'InvitationBonusCounted',
        data: { inviteeId: d.inviteeId, beneficiary: d.beneficiary, inviterId: d.inviterId, amountPaise: d.amountPaise, countedAt: command.now },
      },
    ];
  },
};
