import { describe, expect, it } from 'vitest';
import type { UserEvent } from '@kamai/contracts';
import { fold } from '../decider.ts';
import { deciderSpec } from '../testing/spec.ts';
import { userEvolver } from './state.ts';
import { credit } from './wallet.ts';
import { type WithdrawalCommand, decideWithdrawals } from './withdrawals.ts';

const now = '2026-11-21T10:00:00.000Z';
const later = '2026-11-22T09:30:00.000Z';
const spec = deciderSpec<ReturnType<typeof userEvolver.initialState>, UserEvent, WithdrawalCommand>(userEvolver, decideWithdrawals);

const pending: UserEvent[] = [
  { type: 'UserRegistered', data: { userId: 'u1', mobile: '9876543210', passwordHash: 'h', firstName: 'Asha', lastName: 'Rao', registeredAt: now } },
  credit({ entryId: 'e0', amountPaise: 40_000, kind: 'task_reward', params: { taskTitle: 'Rate PhonePe' }, taskId: 't1', now }),
  ...decideWithdrawals(
    { type: 'RequestWithdrawal', data: { withdrawalId: 'w1', entryId: 'hold', notificationId: 'n0', amountPaise: 10_000, destination: { kind: 'upi', upiId: 'asha@okhdfc' } }, now },
    fold(userEvolver, [
      { type: 'UserRegistered', data: { userId: 'u1', mobile: '9876543210', passwordHash: 'h', firstName: 'Asha', lastName: 'Rao', registeredAt: now } },
      credit({ entryId: 'e0', amountPaise: 40_000, kind: 'task_reward', params: { taskTitle: 'Rate PhonePe' }, taskId: 't1', now }),
    ]),
  ),
];

const processing = (batchId = 'b1', by = 'finance-1'): WithdrawalCommand => ({ type: 'MarkWithdrawalProcessing', data: { withdrawalId: 'w1', batchId, by }, now: later });
const pay = (batchId: string | null = 'b1'): WithdrawalCommand => ({
  type: 'MarkWithdrawalPaid',
  data: { withdrawalId: 'w1', reference: 'UTR123456789', by: 'finance-1', notificationId: 'n-paid', ...(batchId !== null && { batchId }) },
  now: later,
});
const fail = (): WithdrawalCommand => ({
  type: 'FailWithdrawal',
  data: { withdrawalId: 'w1', reason: 'Account closed', by: 'finance-1', entryId: 'back-1', notificationId: 'n-failed' },
  now: later,
});
const reverse = (): WithdrawalCommand => ({
  type: 'ReverseWithdrawal',
  data: { withdrawalId: 'w1', reason: 'Returned by the bank', by: 'finance-2', entryId: 'back-2', notificationId: 'n-reversed' },
  now: later,
});
const after = (events: UserEvent[], command: WithdrawalCommand) => [...events, ...decideWithdrawals(command, fold(userEvolver, events))];

describe('the payout lifecycle: requested -> processing -> paid | failed; paid -> reversed', () => {
  it('marks a pending withdrawal processing in a batch, once (again for the same batch: nothing)', () => {
    spec.given(pending).when(processing()).then([{ type: 'WithdrawalProcessing', data: { withdrawalId: 'w1', batchId: 'b1', by: 'finance-1', processingAt: later } }]);
    const sent = after(pending, processing());
    spec.given(sent).when(processing()).then([]);
    // One open batch per withdrawal: a second batch would list it in a second bank file.
    spec.given(sent).when(processing('b2')).thenFails('conflict', /one open batch/);
    spec.given(pending).when(processing('b1', 'u1')).thenFails('forbidden');
  });

  it('pays a processing withdrawal from the results of its own batch only; by hand it is with the bank, and it is not rejected', () => {
    const sent = after(pending, processing());
    expect(decideWithdrawals(pay(), fold(userEvolver, sent))[0]).toMatchObject({ type: 'WithdrawalPaid', data: { withdrawalId: 'w1', amountPaise: 10_000 } });
    spec.given(sent).when(pay(null)).thenFails('conflict', /in a payout batch/);
    spec.given(sent).when(pay('b2')).thenFails('conflict', /not in this batch/);
    // A batch's result for a withdrawal never claimed by that batch.
    spec.given(pending).when(pay('b1')).thenFails('conflict', /not in this batch/);
    spec
      .given(sent)
      .when({ type: 'RejectWithdrawal', data: { withdrawalId: 'w1', reason: 'No', by: 'finance-1', entryId: 'r', notificationId: 'n' }, now: later })
      .thenFails('conflict', /in a payout batch/);
  });

  it('a failure returns the held amount to the wallet and tells the user why', () => {
    const sent = after(pending, processing());
    spec
      .given(sent)
      .when(fail())
      .then([
        { type: 'WithdrawalFailed', data: { withdrawalId: 'w1', reason: 'Account closed', by: 'finance-1', failedAt: later } },
        {
          type: 'WalletCredited',
          data: { entryId: 'back-1', amountPaise: 10_000, kind: 'payout_failed', params: { reason: 'Account closed' }, reference: 'w1', by: 'finance-1', creditedAt: later },
        },
        {
          type: 'NotificationSent',
          data: { notificationId: 'n-failed', key: 'withdrawal_failed', params: { amountPaise: 10_000, reason: 'Account closed' }, kind: 'error', sentAt: later },
        },
      ]);
    const state = fold(userEvolver, after(sent, fail()));
    expect(state.wallet).toEqual({ balance: 40_000, totalEarned: 40_000, totalWithdrawn: 0 });
    // A failed payout is finished with: it leaves the decision state.
    expect(state.withdrawals.byId.has('w1')).toBe(false);
    spec.given(after(sent, fail())).when(fail()).thenFails('conflict', /already been settled/);
    spec.given(pending).when(fail()).thenFails('conflict', /not been paid or sent/);
  });

  it('a reversal of a paid withdrawal gives the money back, naming the transfer; only once', () => {
    const paid = after(after(pending, processing()), pay());
    const events = decideWithdrawals(reverse(), fold(userEvolver, paid));
    expect(events.map((e) => e.type)).toEqual(['WithdrawalReversed', 'WalletCredited', 'NotificationSent']);
    expect(events[1]).toMatchObject({ data: { kind: 'payout_reversal', amountPaise: 10_000, reference: 'w1' } });
    expect(events[2]).toMatchObject({ data: { key: 'withdrawal_reversed', params: { reference: 'UTR123456789', amountPaise: 10_000 } } });
    const state = fold(userEvolver, [...paid, ...events]);
    expect(state.wallet.balance).toBe(40_000);
    expect(state.withdrawals.byId.has('w1')).toBe(false);
    spec.given([...paid, ...events]).when(reverse()).thenFails('conflict', /already been settled/);
    spec.given(after(pending, processing())).when(reverse()).thenFails('conflict', /with the bank/);
  });
});
