import { describe, expect, it } from 'vitest';
import type { UserEvent } from '@kamai/contracts';
import { fold } from '../decider.ts';
import { deciderSpec } from '../testing/spec.ts';
import { type AdjustWallet, decideAdjustWallet } from './adjustments.ts';
import { userEvolver } from './state.ts';

const now = '2026-11-21T10:00:00.000Z';
const spec = deciderSpec<ReturnType<typeof userEvolver.initialState>, UserEvent, AdjustWallet>(userEvolver, decideAdjustWallet);
const registered: UserEvent = {
  type: 'UserRegistered',
  data: { userId: 'u1', mobile: '9876543210', passwordHash: 'h', firstName: 'Asha', lastName: 'Rao', registeredAt: now },
};
const adjust = (direction: 'credit' | 'debit', amountPaise: number, by = 'fin-1'): AdjustWallet => ({
  type: 'AdjustWallet',
  data: { entryId: 'adj-1', notificationId: 'n-adj', amountPaise, direction, reason: 'Goodwill for a failed task', by },
  now,
});

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
});
