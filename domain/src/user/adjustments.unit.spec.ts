import { describe, expect, it } from 'vitest';
import { MAX_MONEY_PAISE, type UserEvent } from '@kamai/contracts';
import { fold } from '../decider.ts';
import { deciderSpec } from '../testing/spec.ts';
import { type AdjustWallet, type AdjustmentDecision, decideAdjustWallet, decideAdjustmentDecision } from './adjustments.ts';
import { userEvolver } from './state.ts';

const now = '2026-11-21T10:00:00.000Z';
const spec = deciderSpec<ReturnType<typeof userEvolver.initialState>, UserEvent, AdjustWallet>(userEvolver, decideAdjustWallet);
const registered: UserEvent = {
  type: 'UserRegistered',
  data: { userId: 'u1', mobile: '9876543210', passwordHash: 'h', firstName: 'Asha', lastName: 'Rao', registeredAt: now },
};
const adjust = (direction: 'credit' | 'debit', amountPaise: number, by = 'fin-1', approvalThresholdPaise?: number): AdjustWallet => ({
  type: 'AdjustWallet',
  data: {
    entryId: 'adj-1',
    notificationId: 'n-adj',
    amountPaise,
    direction,
    reason: 'Goodwill for a failed task',
    by,
    ...(approvalThresholdPaise !== undefined && { approvalThresholdPaise }),
  },
  now,
});
const decisionSpec = deciderSpec<ReturnType<typeof userEvolver.initialState>, UserEvent, AdjustmentDecision>(userEvolver, decideAdjustmentDecision);
const later = '2026-11-21T11:00:00.000Z';
const requested: UserEvent = {
  type: 'AdjustmentRequested',
  data: { adjustmentId: 'adj-1', amountPaise: 150_000, direction: 'credit', reason: 'Goodwill for a failed task', reasonCode: 'other', requestedBy: 'fin-1', requestedAt: now },
};
const approve = (by: string): AdjustmentDecision => ({ type: 'ApproveAdjustment', data: { adjustmentId: 'adj-1', by, notificationId: 'n-adj' }, now: later });

describe('manual adjustments', () => {
  it('credits with the reason as description and the staff member as author', () => {
    spec
      .given([registered])
      .when(adjust('credit', 50_000))
      .then([
        {
          type: 'WalletCredited',
          data: { entryId: 'adj-1', amountPaise: 50_000, kind: 'adjustment', params: { reason: 'Goodwill for a failed task' }, by: 'fin-1', creditedAt: now },
        },
        {
          type: 'NotificationSent',
          data: { notificationId: 'n-adj', key: 'wallet_credited', params: { amountPaise: 50_000, reason: 'Goodwill for a failed task' }, kind: 'success', sentAt: now },
        },
      ]);
  });

  it('keeps the code of a reason the app wrote beside it, on the entry, its notification and a pending request', () => {
    const seeded: AdjustWallet = { ...adjust('credit', 25_000, 'seed'), data: { ...adjust('credit', 25_000, 'seed').data, reason: 'Welcome bonus (demo data)', reasonCode: 'demo_welcome' } };
    const params = { reason: 'Welcome bonus (demo data)', reasonCode: 'demo_welcome' };
    const events = decideAdjustWallet(seeded, fold(userEvolver, [registered]));
    expect(events).toMatchObject([
      { type: 'WalletCredited', data: { kind: 'adjustment', params } },
      { type: 'NotificationSent', data: { key: 'wallet_credited', params: { amountPaise: 25_000, ...params } } },
    ]);
    // Above the threshold: requested with the code, and the approved entry still carries it.
    const large = { ...seeded, data: { ...seeded.data, amountPaise: 150_000, approvalThresholdPaise: 100_000 } };
    const asked = decideAdjustWallet(large, fold(userEvolver, [registered]));
    expect(asked).toMatchObject([{ type: 'AdjustmentRequested', data: { reasonCode: 'demo_welcome' } }]);
    const approved = decideAdjustmentDecision(approve('fin-2'), fold(userEvolver, [registered, ...asked]));
    expect(approved[1]).toMatchObject({ type: 'WalletCredited', data: { params } });
    // A staff member's own words: no code beside them.
    expect(decideAdjustWallet(adjust('credit', 100), fold(userEvolver, [registered]))[0]).toMatchObject({ data: { params: { reason: 'Goodwill for a failed task' } } });
    expect(decideAdjustWallet(adjust('credit', 100), fold(userEvolver, [registered]))[0]!.data).not.toHaveProperty('params.reasonCode');
  });

  it('carries a correction\'s effective day and what it corrects to its entry, through a pending request and its approval', () => {
    const correction: AdjustWallet = { ...adjust('debit', 150_000, 'fin-1', 100_000), data: { ...adjust('debit', 150_000, 'fin-1', 100_000).data, effectiveDate: '2026-10-31', corrects: 'entry-9' } };
    const funded: UserEvent[] = [registered, ...decideAdjustWallet(adjust('credit', 200_000, 'fin-3', 1_000_000), fold(userEvolver, [registered]))];
    const asked = decideAdjustWallet(correction, fold(userEvolver, funded));
    expect(asked).toMatchObject([{ type: 'AdjustmentRequested', data: { effectiveDate: '2026-10-31', corrects: 'entry-9' } }]);
    const approved = decideAdjustmentDecision(approve('fin-2'), fold(userEvolver, [...funded, ...asked]));
    expect(approved[1]).toMatchObject({ type: 'WalletDebited', data: { kind: 'adjustment', effectiveDate: '2026-10-31', corrects: 'entry-9', debitedAt: later } });
    // Below the threshold, at once; an entry without them takes effect the day it is recorded.
    const small = decideAdjustWallet({ ...correction, data: { ...correction.data, amountPaise: 100, approvalThresholdPaise: 1_000_000 } }, fold(userEvolver, funded));
    expect(small[0]).toMatchObject({ type: 'WalletDebited', data: { effectiveDate: '2026-10-31', corrects: 'entry-9' } });
    expect(funded[1]!.data).not.toHaveProperty('effectiveDate');
  });

  it('debits down to exactly zero, never below', () => {
    const credited = [registered, ...decideAdjustWallet(adjust('credit', 50_000), fold(userEvolver, [registered]))];
    const debited = decideAdjustWallet(adjust('debit', 50_000), fold(userEvolver, credited));
    expect(debited[0]).toMatchObject({ type: 'WalletDebited', data: { amountPaise: 50_000, kind: 'adjustment', by: 'fin-1' } });
    expect(fold(userEvolver, [...credited, ...debited]).wallet.balance).toBe(0);
    spec.given(credited).when(adjust('debit', 50_001)).thenFails('conflict', /below zero: the balance is ₹500.00/);
  });

  it('refuses unknown users and staff adjusting their own wallet', () => {
    spec.given([]).when(adjust('credit', 100)).thenFails('not_found');
    spec.given([registered]).when(adjust('credit', 100, 'u1')).thenFails('forbidden');
  });

  it('records an adjustment above the threshold (₹1,000 by default) as pending, moving no money', () => {
    spec
      .given([registered])
      .when(adjust('credit', 150_000))
      .then([requested]);
    expect(decideAdjustWallet(adjust('credit', 100_000), fold(userEvolver, [registered]))[0]?.type).toBe('WalletCredited');
    expect(decideAdjustWallet(adjust('credit', 20_001, 'fin-1', 20_000), fold(userEvolver, [registered]))[0]?.type).toBe('AdjustmentRequested');
  });

  it('moves the money when a different finance member approves, never when the requester does', () => {
    decisionSpec.given([registered, requested]).when(approve('fin-1')).thenFails('forbidden', /Another finance member/);
    decisionSpec.given([registered, requested]).when(approve('u1')).thenFails('forbidden');
    decisionSpec
      .given([registered, requested])
      .when(approve('fin-2'))
      .then([
        { type: 'AdjustmentApproved', data: { adjustmentId: 'adj-1', approvedBy: 'fin-2', approvedAt: later } },
        {
          type: 'WalletCredited',
          data: { entryId: 'adj-1', amountPaise: 150_000, kind: 'adjustment', params: { reason: 'Goodwill for a failed task' }, by: 'fin-1', reference: 'adj-1', creditedAt: later },
        },
        {
          type: 'NotificationSent',
          data: { notificationId: 'n-adj', key: 'wallet_credited', params: { amountPaise: 150_000, reason: 'Goodwill for a failed task' }, kind: 'success', sentAt: later },
        },
      ]);
  });

  it('decides a pending adjustment once; a rejected one moves nothing', () => {
    const approved: UserEvent = { type: 'AdjustmentApproved', data: { adjustmentId: 'adj-1', approvedBy: 'fin-2', approvedAt: later } };
    decisionSpec.given([registered, requested, approved]).when(approve('fin-3')).thenFails('conflict', /already approved/);
    decisionSpec
      .given([registered, requested])
      .when({ type: 'RejectAdjustment', data: { adjustmentId: 'adj-1', by: 'fin-1' }, now: later })
      .then([{ type: 'AdjustmentRejected', data: { adjustmentId: 'adj-1', rejectedBy: 'fin-1', rejectedAt: later } }]);
    decisionSpec.given([registered]).when(approve('fin-2')).thenFails('not_found');
  });

  it('refuses a credit that would take the balance past what a money column holds', () => {
    const big: UserEvent = {
      type: 'WalletCredited',
      data: { entryId: 'e0', amountPaise: MAX_MONEY_PAISE - 50, kind: 'adjustment', params: { reason: 'x' }, by: 'fin-0', creditedAt: now },
    };
    spec.given([registered, big]).when(adjust('credit', 100)).thenFails('conflict', /most a wallet can hold/);
    expect(decideAdjustWallet(adjust('credit', 50), fold(userEvolver, [registered, big]))[0]?.type).toBe('WalletCredited');
  });
});
