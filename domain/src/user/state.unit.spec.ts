import { describe, expect, it } from 'vitest';
import type { UserEvent } from '@kamai/contracts';
import { fold } from '../decider.ts';
import { notify } from './notifications.ts';
import { userEvolver, userSnapshot } from './state.ts';
import { credit } from './wallet.ts';
import { decideWithdrawals } from './withdrawals.ts';

const now = '2026-11-21T10:00:00.000Z';

/**
 * A busy user's history: per round of ten events, a credit and its notification, a withdrawal
 * requested (request, hold, notification) and paid (settlement, notification), a notice left
 * unread, one more, and a read: five notifications in every ten events.
 */
function history(rounds: number): UserEvent[] {
  const events: UserEvent[] = [
    { type: 'UserRegistered', data: { userId: 'u1', mobile: '9876543210', passwordHash: 'h', firstName: 'Asha', lastName: 'Rao', registeredAt: now } },
  ];
  const state = fold(userEvolver, events);
  const add = (more: UserEvent[]) => {
    for (const event of more) {
      events.push(event);
      userEvolver.evolve(state, event);
    }
  };
  const note = (id: string) => notify({ notificationId: id, key: 'wallet_credited', params: { amountPaise: 20_000, reason: 'bench' }, kind: 'success', now });
  for (let r = 0; r < rounds; r++) {
    add([credit({ entryId: `c${r}`, amountPaise: 20_000, kind: 'adjustment', params: { reason: 'bench' }, by: 'f1', now }), note(`n${r}a`)]);
    const destination = { kind: 'upi', upiId: 'asha.rao@okhdfc' } as const;
    add(decideWithdrawals({ type: 'RequestWithdrawal', data: { withdrawalId: `w${r}`, entryId: `h${r}`, notificationId: `n${r}b`, amountPaise: 10_000, destination }, now }, state));
    add(decideWithdrawals({ type: 'MarkWithdrawalPaid', data: { withdrawalId: `w${r}`, reference: `UTR${r}`, by: 'f1', notificationId: `n${r}c` }, now }, state));
    add([note(`n${r}d`), note(`n${r}e`), { type: 'NotificationRead', data: { notificationId: `n${r}a`, readAt: now } }]);
  }
  return events;
}

describe('the user decision state is bounded, whatever the history', () => {
  it('keeps a 50,000-event stream with 25,000 notifications (20,000 unread) in a snapshot under 16 KB', () => {
    const events = history(5_000);
    expect(events.length).toBe(50_001);
    expect(events.filter((e) => e.type === 'NotificationSent').length).toBe(25_000);
    const state = fold(userEvolver, events);
    expect(state.wallet.balance).toBe(5_000 * 10_000);
    const snapshot = JSON.stringify(userSnapshot.save(state));
    expect(snapshot.length).toBeLessThan(16 * 1024);
    expect(JSON.stringify(userSnapshot.save(userSnapshot.load(JSON.parse(snapshot))))).toBe(snapshot);
  });
});
