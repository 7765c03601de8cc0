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
    add(decideWithdrawals({ type: 'MarkWithdrawalPaid', data: { withdrawalId: `w${r}`, reference: `UTR${r}`, by: 'f2', notificationId: `n${r}c` }, now }, state));
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

describe('waiting withdrawals (issue 39): what the state keeps of them costs O(1) per event', () => {
  const destination = { kind: 'upi', upiId: 'asha.rao@okhdfc' } as const;
  /** A user with `requests` withdrawals of ₹100 requested, none settled. */
  function waiting(requests: number) {
    const state = fold(userEvolver, [
      { type: 'UserRegistered', data: { userId: 'u1', mobile: '9876543210', passwordHash: 'h', firstName: 'Asha', lastName: 'Rao', registeredAt: now } },
    ]);
    const apply = (events: UserEvent[]) => events.forEach((event) => userEvolver.evolve(state, event));
    apply([credit({ entryId: 'c', amountPaise: requests * 10_000, kind: 'adjustment', params: { reason: 'float' }, by: 'f1', now })]);
    for (let i = 0; i < requests; i++) {
      apply(decideWithdrawals({ type: 'RequestWithdrawal', data: { withdrawalId: `w${i}`, entryId: `h${i}`, notificationId: `n${i}`, amountPaise: 10_000, destination }, now }, state));
    }
    return { state, apply };
  }

  it('counts the open requests and their sum as they are requested, batched, paid, rejected and failed', () => {
    const { state, apply } = waiting(500);
    expect(state.withdrawals.open).toEqual({ count: 500, amountPaise: 500 * 10_000 });
    apply(decideWithdrawals({ type: 'MarkWithdrawalProcessing', data: { withdrawalId: 'w1', batchId: 'b1', by: 'f2' }, now }, state));
    apply(decideWithdrawals({ type: 'MarkWithdrawalPaid', data: { withdrawalId: 'w0', reference: 'UTR0', by: 'f2', notificationId: 'p0' }, now }, state));
    apply(decideWithdrawals({ type: 'RejectWithdrawal', data: { withdrawalId: 'w2', reason: 'Wrong account', by: 'f2', entryId: 'r2', notificationId: 'q2' }, now }, state));
    apply(decideWithdrawals({ type: 'FailWithdrawal', data: { withdrawalId: 'w1', reason: 'Closed account', by: 'f2', entryId: 'r1', notificationId: 'q1', batchId: 'b1' }, now }, state));
    expect(state.withdrawals.open).toEqual({ count: 497, amountPaise: 497 * 10_000 });
    const restored = userSnapshot.load(JSON.parse(JSON.stringify(userSnapshot.save(state))));
    expect(restored.withdrawals.open).toEqual(state.withdrawals.open);
    expect([...restored.withdrawals.paid]).toEqual(['w0']);
  });

  it('keeps the newest paid ones by when they were paid, so a return of the last one paid is still booked', () => {
    const { state, apply } = waiting(30);
    // Paid newest request first: the oldest request is the last one paid.
    for (let i = 29; i >= 0; i--) {
      apply(decideWithdrawals({ type: 'MarkWithdrawalPaid', data: { withdrawalId: `w${i}`, reference: `UTR${i}`, by: 'f2', notificationId: `p${i}` }, now }, state));
    }
    expect(state.withdrawals.open).toEqual({ count: 0, amountPaise: 0 });
    expect(state.withdrawals.paid.size).toBe(20);
    expect(state.withdrawals.byId.has('w29')).toBe(false);
    const reversed = decideWithdrawals({ type: 'ReverseWithdrawal', data: { withdrawalId: 'w0', reason: 'Returned', by: 'f2', entryId: 'rv', notificationId: 'rn' }, now }, state);
    expect(reversed[0]?.type).toBe('WithdrawalReversed');
    apply(reversed);
    expect(state.withdrawals.paid.has('w0')).toBe(false);
  });
  it('keeps 500 pending requests in a snapshot of under 48 KB that loads back to the same records', () => {
    const { state, apply } = waiting(500);
    // One batched, one paid, one with tax withheld and a bank destination: every field a record can hold.
    apply(decideWithdrawals({ type: 'MarkWithdrawalProcessing', data: { withdrawalId: 'w1', batchId: 'b1', by: 'f2' }, now }, state));
    apply(decideWithdrawals({ type: 'MarkWithdrawalPaid', data: { withdrawalId: 'w0', reference: 'UTR0', by: 'f2', notificationId: 'p0' }, now }, state));
    const bank = { kind: 'bank', accountNumber: '123456784321', ifsc: 'HDFC0001234', holderName: 'Asha Rao' } as const;
    const rules = [{ code: 'T', label: 'T', rateWithPanBasisPoints: 100, rateWithoutPanBasisPoints: 100, perPaymentThresholdPaise: 1, perYearThresholdPaise: 1, appliesTo: ['adjustment' as const] }];
    apply([credit({ entryId: 'c2', amountPaise: 1_000_000, kind: 'adjustment', params: { reason: 'float' }, by: 'f1', now })]);
    apply(decideWithdrawals({ type: 'RequestWithdrawal', data: { withdrawalId: 'wt', entryId: 'ht', notificationId: 'nt', amountPaise: 1_000_000, destination: bank, taxRules: rules }, now }, state));
    expect(state.withdrawals.byId.get('wt')?.taxes?.length).toBe(1);
    const snapshot = JSON.stringify(userSnapshot.save(state));
    // As records with their property names and destination each, 500 pending ones took some 120 KB.
    expect(snapshot.length).toBeLessThan(48 * 1024);
    const restored = userSnapshot.load(JSON.parse(snapshot));
    expect([...restored.withdrawals.byId]).toEqual([...state.withdrawals.byId]);
    expect(restored.withdrawals.open).toEqual(state.withdrawals.open);
    expect(restored.withdrawals.lastDestination).toEqual(bank);
    expect(JSON.stringify(userSnapshot.save(restored))).toBe(snapshot);
  });
});
