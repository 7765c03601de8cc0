import type { InvitationEvent } from '@kamai/contracts';
import { describe, expect, it } from 'vitest';
import { deciderSpec } from '../testing/spec.ts';
import {
  type CountInvitationBonus,
  type InvitationCommand,
  type InvitationProgrammeState,
  type InvitationState,
  invitationDecider,
  invitationProgrammeDecider,
  invitationStatus,
  inviteCodeDecider,
} from './invitation.ts';

const NOW = '2026-11-20T05:00:00.000Z';
const accepted: InvitationEvent = { type: 'InvitationAccepted', data: { inviteeId: 'friend', inviterId: 'ravi', code: 'ABCD2345', sharedDevice: false, acceptedAt: NOW } };

describe('an invitation', () => {
  const spec = deciderSpec<InvitationState, InvitationEvent, InvitationCommand>(invitationDecider, invitationDecider.decide);
  const record = (beneficiary: 'invitee' | 'inviter', refusal: 'shared_upi' | null = null): InvitationCommand => ({
    type: 'RecordInvitationBonus',
    data: { inviteeId: 'friend', beneficiary, userId: beneficiary === 'invitee' ? 'friend' : 'ravi', amountPaise: 2500, entryId: 'e1', refusal },
    now: NOW,
  });
  const awarded: InvitationEvent = { type: 'InvitationBonusAwarded', data: { inviteeId: 'friend', beneficiary: 'invitee', userId: 'friend', amountPaise: 2500, entryId: 'e1', awardedAt: NOW } };

  it('is accepted once', () => {
    spec.given([]).when({ type: 'AcceptInvitation', data: { inviteeId: 'friend', inviterId: 'ravi', code: 'ABCD2345', sharedDevice: false }, now: NOW }).then([accepted]);
    spec.given([accepted]).when({ type: 'AcceptInvitation', data: { inviteeId: 'friend', inviterId: 'other', code: 'ZZZZ2345', sharedDevice: false }, now: NOW }).thenFails('conflict');
  });

  it('decides each bonus once: a second decision changes nothing', () => {
    spec.given([accepted]).when(record('invitee')).then([awarded]);
    spec.given([accepted, awarded]).when(record('invitee')).then([]);
    spec.given([accepted, awarded]).when(record('invitee', 'shared_upi')).then([]);
    spec
      .given([accepted, awarded])
      .when(record('inviter', 'shared_upi'))
      .then([{ type: 'InvitationBonusRefused', data: { inviteeId: 'friend', beneficiary: 'inviter', reason: 'shared_upi', refusedAt: NOW } }]);
    spec.given([]).when(record('invitee')).thenFails('not_found');
  });

  it('reads refused when either bonus was refused, paid when both were paid', () => {
    const fold = (events: InvitationEvent[]) => events.reduce(invitationDecider.evolve, invitationDecider.initialState());
    const refused: InvitationEvent = { type: 'InvitationBonusRefused', data: { inviteeId: 'friend', beneficiary: 'inviter', reason: 'monthly_cap', refusedAt: NOW } };
    const inviterPaid: InvitationEvent = { type: 'InvitationBonusAwarded', data: { ...awarded.data, beneficiary: 'inviter', userId: 'ravi' } } as InvitationEvent;
    expect(invitationStatus(fold([accepted]))).toBe('pending');
    expect(invitationStatus(fold([accepted, awarded]))).toBe('pending');
    expect(invitationStatus(fold([accepted, awarded, inviterPaid]))).toBe('paid');
    expect(invitationStatus(fold([accepted, awarded, refused]))).toBe('refused');
  });
});

describe('an invite code', () => {
  const spec = deciderSpec(inviteCodeDecider, inviteCodeDecider.decide);
  const issued: InvitationEvent = { type: 'InviteCodeIssued', data: { code: 'ABCD2345', userId: 'ravi', issuedAt: NOW } };
  it('is held for one person', () => {
    spec.given([]).when({ type: 'IssueInviteCode', data: { code: 'ABCD2345', userId: 'ravi' }, now: NOW }).then([issued]);
    spec.given([issued]).when({ type: 'IssueInviteCode', data: { code: 'ABCD2345', userId: 'ravi' }, now: NOW }).then([]);
    spec.given([issued]).when({ type: 'IssueInviteCode', data: { code: 'ABCD2345', userId: 'someone' }, now: NOW }).thenFails('conflict');
  });
});

describe("the programme's budget and each inviter's monthly cap", () => {
  const spec = deciderSpec<InvitationProgrammeState, InvitationEvent, CountInvitationBonus>(invitationProgrammeDecider, invitationProgrammeDecider.decide);
  const count = (inviteeId: string, beneficiary: 'invitee' | 'inviter', now = NOW, budgetPaise = 10_000): CountInvitationBonus => ({
    type: 'CountInvitationBonus',
    data: { inviteeId, beneficiary, inviterId: 'ravi', amountPaise: 2500, budgetPaise, monthlyCapPaise: 5000 },
    now,
  });
  const counted = (inviteeId: string, beneficiary: 'invitee' | 'inviter', countedAt = NOW): InvitationEvent => ({
    type: 'InvitationBonusCounted',
    data: { inviteeId, beneficiary, inviterId: 'ravi', amountPaise: 2500, countedAt },
  });
  const codeOf = (fn: () => void) => {
    try {
      fn();
    } catch (err) {
      return (err as { code?: string }).code;
    }
    return null;
  };

  it('counts within the cap, refuses past it (IST month), and counts a bonus once', () => {
    const two = [counted('a', 'inviter'), counted('b', 'inviter')];
    spec.given([counted('a', 'inviter')]).when(count('b', 'inviter')).then([counted('b', 'inviter')]);
    spec.given(two).when(count('a', 'inviter')).then([]);
    expect(codeOf(() => invitationProgrammeDecider.decide(count('c', 'inviter'), two.reduce(invitationProgrammeDecider.evolve, invitationProgrammeDecider.initialState())))).toBe('monthly_cap');
    // The invited person's own bonus is not the inviter's: it counts against the budget only.
    spec.given(two).when(count('c', 'invitee')).then([counted('c', 'invitee')]);
    // 1 December 00:30 in India is 30 November 19:00 UTC: a new month.
    spec.given(two).when(count('c', 'inviter', '2026-11-30T19:00:00.000Z')).then([counted('c', 'inviter', '2026-11-30T19:00:00.000Z')]);
  });

  it('refuses what would pass the budget', () => {
    const spent = [counted('a', 'invitee'), counted('b', 'invitee'), counted('c', 'invitee')];
    spec.given(spent).when(count('d', 'invitee')).then([counted('d', 'invitee')]);
    const state = [...spent, counted('d', 'invitee')].reduce(invitationProgrammeDecider.evolve, invitationProgrammeDecider.initialState());
    expect(codeOf(() => invitationProgrammeDecider.decide(count('e', 'invitee'), state))).toBe('budget_spent');
  });
});
