import { describe, expect, it } from 'vitest';
import { moneyInFlight, withdrawalFor } from './moneyStatus.ts';

describe('withdrawalFor', () => {
  const withdrawals = [
    { id: 'w1', requestedAt: '2026-11-20T10:00:00.000Z', amount: '150.50', status: 'pending' },
    { id: 'w2', requestedAt: '2026-11-21T10:00:00.000Z', amount: '100.00', status: 'paid' },
  ];

  it('finds the request a withdrawal debit paid out, by the id the entry carries', () => {
    const row = { kind: 'withdrawal', direction: 'debit' as const, withdrawalId: 'w2' };
    expect(withdrawalFor(row, withdrawals)?.id).toBe('w2');
    expect(withdrawalFor({ ...row, withdrawalId: 'w9' }, withdrawals)).toBeNull();
  });

  it('gives nothing for other entries or before the requests are read', () => {
    const row = { kind: 'withdrawal_refund', direction: 'credit' as const, withdrawalId: 'w1' };
    expect(withdrawalFor(row, withdrawals)).toBeNull();
    expect(withdrawalFor({ ...row, kind: 'withdrawal', direction: 'debit' }, undefined)).toBeNull();
    expect(withdrawalFor({ kind: 'withdrawal', direction: 'debit' }, withdrawals)).toBeNull();
  });
});

describe('moneyInFlight', () => {
  it('adds the rewards of proofs under review, and takes the pending payout as the server counts it', () => {
    const tasks = [
      { status: 'submitted' as const, rupeeReward: '25.00' },
      { status: 'submitted' as const, rupeeReward: '10.50' },
      { status: 'approved' as const, rupeeReward: '40.00' },
    ];
    expect(moneyInFlight(tasks, '150.00')).toEqual({ underReviewPaise: 3550, onItsWayPaise: 15000 });
    expect(moneyInFlight(undefined, undefined)).toEqual({ underReviewPaise: 0, onItsWayPaise: 0 });
  });
});
