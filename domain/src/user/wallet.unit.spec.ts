import { describe, expect, it } from 'vitest';
import { DomainError } from '../errors.ts';
import { fold } from '../decider.ts';
import { credit, debit, evolveWallet, initialWalletState, type LedgerEvent } from './wallet.ts';

const now = '2026-11-21T10:00:00.000Z';
const wallet = (events: LedgerEvent[]) => fold({ initialState: initialWalletState, evolve: evolveWallet }, events);

describe('wallet ledger', () => {
  const reward = credit({ entryId: 'e1', amountPaise: 2500, kind: 'task_reward', params: { taskTitle: 'Rate PhonePe' }, taskId: 't1', now });

  it('a credit raises the balance and, for earnings, the total earned', () => {
    expect(reward).toEqual({
      type: 'WalletCredited',
      data: { entryId: 'e1', amountPaise: 2500, kind: 'task_reward', params: { taskTitle: 'Rate PhonePe' }, taskId: 't1', creditedAt: now },
    });
    expect(wallet([reward])).toEqual({ balance: 2500, totalEarned: 2500, totalWithdrawn: 0 });
  });

  it('a withdrawal debit lowers the balance and a refund restores it', () => {
    const hold = debit(wallet([reward]), { entryId: 'e2', amountPaise: 2000, kind: 'withdrawal', params: { destination: 'UPI ra***@okaxis' }, now });
    expect(wallet([reward, hold])).toEqual({ balance: 500, totalEarned: 2500, totalWithdrawn: 2000 });
    const refund = credit({ entryId: 'e3', amountPaise: 2000, kind: 'withdrawal_refund', params: { reason: 'Bank account closed' }, now });
    expect(wallet([reward, hold, refund])).toEqual({ balance: 2500, totalEarned: 2500, totalWithdrawn: 0 });
  });

  it('a debit of exactly the balance is allowed, one paisa more is refused', () => {
    expect(debit(wallet([reward]), { entryId: 'e2', amountPaise: 2500, kind: 'adjustment', params: { reason: 'x' }, now }).type).toBe('WalletDebited');
    expect(() => debit(wallet([reward]), { entryId: 'e2', amountPaise: 2501, kind: 'withdrawal', params: { reason: 'x' }, now })).toThrow(DomainError);
  });

  it('refuses amounts that are not a positive whole number of paise', () => {
    for (const amountPaise of [0, -100, 1.5, Number.NaN]) {
      expect(() => credit({ entryId: 'e', amountPaise, kind: 'adjustment', params: { reason: 'x' }, now })).toThrow(DomainError);
    }
  });
});
