import { describe, expect, it } from 'vitest';
import type { UserEvent } from '@kamai/contracts';
import { fold } from '../decider.ts';
import { deciderSpec } from '../testing/spec.ts';
import { type AdjustWallet, decideAdjustWallet } from './adjustments.ts';
import { userEvolver, userSnapshot } from './state.ts';
import { credit } from './wallet.ts';
import { type WithdrawalCommand, decideWithdrawals } from './withdrawals.ts';

type State = ReturnType<typeof userEvolver.initialState>;
const t0 = '2026-11-21T10:00:00.000Z';
const hoursAfter = (hours: number) => new Date(Date.parse(t0) + hours * 3_600_000).toISOString();
const registered: UserEvent = {
  type: 'UserRegistered',
  data: { userId: 'u1', mobile: '9876543210', passwordHash: 'h', firstName: 'Asha', lastName: 'Rao', registeredAt: t0 },
};
const adjustSpec = deciderSpec<State, UserEvent, AdjustWallet>(userEvolver, decideAdjustWallet);
const withdrawalSpec = deciderSpec<State, UserEvent, WithdrawalCommand>(userEvolver, decideWithdrawals);

const adjust = (id: string, amountPaise: number, at: string, by = 'fin-1', direction: 'credit' | 'debit' = 'credit'): AdjustWallet => ({
  type: 'AdjustWallet',
  data: { entryId: id, notificationId: `n-${id}`, amountPaise, direction, reason: 'Goodwill', by, approvalThresholdPaise: 100_000 },
  now: at,
});
/** Folds each command's events onto the history, as the command handler would. */
const run = (history: UserEvent[], ...commands: AdjustWallet[]) =>
  commands.reduce((events, command) => [...events, ...decideAdjustWallet(command, fold(userEvolver, events))], history);

describe('cumulative four-eyes on adjustments', () => {
  it('sends the adjustment that takes one member past the threshold within 24 hours for approval', () => {
    // Ten ₹100 credits by one member add up to the ₹1,000 threshold: each moves money at once.
    const tenCredits = run([registered], ...Array.from({ length: 10 }, (_, i) => adjust(`a${i}`, 10_000, hoursAfter(i))));
    expect(fold(userEvolver, tenCredits).wallet.balance).toBe(100_000);
    // The eleventh crosses it: recorded pending, no money moves.
    adjustSpec
      .given(tenCredits)
      .when(adjust('a10', 100, hoursAfter(10)))
      .then([
        {
          type: 'AdjustmentRequested',
          data: { adjustmentId: 'a10', amountPaise: 100, direction: 'credit', reason: 'Goodwill', reasonCode: 'other', requestedBy: 'fin-1', requestedAt: hoursAfter(10) },
        },
      ]);
  });

  it('counts credits and debits alike, by the same member only, within a rolling 24 hours', () => {
    const history = run([registered], adjust('a1', 60_000, t0), adjust('a2', 30_000, hoursAfter(1), 'fin-1', 'debit'));
    // ₹600 + ₹300 + ₹200 > ₹1,000: pending.
    expect(decideAdjustWallet(adjust('a3', 20_000, hoursAfter(2)), fold(userEvolver, history))[0]?.type).toBe('AdjustmentRequested');
    // Another member starts from nothing.
    expect(decideAdjustWallet(adjust('a3', 20_000, hoursAfter(2), 'fin-2'), fold(userEvolver, history))[0]?.type).toBe('WalletCredited');
    // An hour counts while any of it is inside the window: 25 hours after the first, only the debit does (₹300 + ₹200).
    expect(decideAdjustWallet(adjust('a3', 20_000, hoursAfter(25)), fold(userEvolver, history))[0]?.type).toBe('WalletCredited');
  });

  it('does not count adjustments a second member approved or rejected', () => {
    const pending = run([registered], adjust('big', 150_000, t0));
    expect(pending.at(-1)?.type).toBe('AdjustmentRequested');
    const approved: UserEvent[] = [...pending, { type: 'AdjustmentApproved', data: { adjustmentId: 'big', approvedBy: 'fin-2', approvedAt: hoursAfter(1) } }];
    expect(decideAdjustWallet(adjust('small', 90_000, hoursAfter(2)), fold(userEvolver, approved))[0]?.type).toBe('WalletCredited');
  });
});

const bank = { kind: 'upi' as const, upiId: 'asha@okhdfc' };
const withRequest = (history: UserEvent[], at: string) => [
  ...history,
  ...decideWithdrawals(
    { type: 'RequestWithdrawal', data: { withdrawalId: 'w1', entryId: 'hold', notificationId: 'n-w', amountPaise: 10_000, destination: bank }, now: at },
    fold(userEvolver, history),
  ),
];
const pay = (by: string, at: string): WithdrawalCommand => ({ type: 'MarkWithdrawalPaid', data: { withdrawalId: 'w1', reference: 'UTR123456789', by, notificationId: 'n-p' }, now: at });
const reject = (by: string, at: string): WithdrawalCommand => ({
  type: 'RejectWithdrawal',
  data: { withdrawalId: 'w1', reason: 'Wrong account', by, entryId: 'refund', notificationId: 'n-r' },
  now: at,
});
const batch = (by: string, at: string): WithdrawalCommand => ({ type: 'MarkWithdrawalProcessing', data: { withdrawalId: 'w1', batchId: 'b1', by }, now: at });
const reverse = (by: string, at: string): WithdrawalCommand => ({
  type: 'ReverseWithdrawal',
  data: { withdrawalId: 'w1', reason: 'Returned', by, entryId: 'back', notificationId: 'n-b' },
  now: at,
});

describe('conflict of duties: who adjusted a wallet does not settle its withdrawals', () => {
  const adjusted = run([registered, credit({ entryId: 'e0', amountPaise: 50_000, kind: 'task_reward', params: { taskTitle: 'Rate' }, taskId: 't1', now: t0 })], adjust('a1', 10_000, t0));
  const requested = withRequest(adjusted, hoursAfter(1));

  it('refuses the member who adjusted the user within 30 days to pay, reject or batch their withdrawal', () => {
    for (const command of [pay('fin-1', hoursAfter(2)), reject('fin-1', hoursAfter(2)), batch('fin-1', hoursAfter(2))]) {
      withdrawalSpec.given(requested).when(command).thenFails('forbidden', /adjusted this user’s wallet in the last 30 days/);
      try {
        decideWithdrawals(command, fold(userEvolver, requested));
      } catch (err) {
        expect((err as { code?: string }).code).toBe('conflict_of_duties');
      }
    }
  });

  it('refuses them to reverse a paid one', () => {
    const paid = [...requested, ...decideWithdrawals(pay('fin-2', hoursAfter(2)), fold(userEvolver, requested))];
    withdrawalSpec.given(paid).when(reverse('fin-1', hoursAfter(3))).thenFails('forbidden', /another finance member/);
    expect(decideWithdrawals(reverse('fin-2', hoursAfter(3)), fold(userEvolver, paid))[0]?.type).toBe('WithdrawalReversed');
  });

  it('lets another member settle it, and the same member once 30 days have passed', () => {
    expect(decideWithdrawals(pay('fin-2', hoursAfter(2)), fold(userEvolver, requested))[0]?.type).toBe('WithdrawalPaid');
    expect(decideWithdrawals(pay('fin-1', hoursAfter(30 * 24 + 1)), fold(userEvolver, requested))[0]?.type).toBe('WithdrawalPaid');
  });

  it('counts a pending adjustment the member asked for, not one that was rejected', () => {
    const pendingBig = withRequest(run([registered, credit({ entryId: 'e0', amountPaise: 50_000, kind: 'task_reward', params: { taskTitle: 'Rate' }, taskId: 't1', now: t0 })], adjust('big', 150_000, t0)), hoursAfter(1));
    withdrawalSpec.given(pendingBig).when(pay('fin-1', hoursAfter(2))).thenFails('forbidden');
    const rejected: UserEvent[] = [...pendingBig, { type: 'AdjustmentRejected', data: { adjustmentId: 'big', rejectedBy: 'fin-2', rejectedAt: hoursAfter(1) } }];
    expect(decideWithdrawals(pay('fin-1', hoursAfter(2)), fold(userEvolver, rejected))[0]?.type).toBe('WithdrawalPaid');
  });

  it('keeps what it needs across a snapshot', () => {
    const state = userSnapshot.load(JSON.parse(JSON.stringify(userSnapshot.save(fold(userEvolver, requested)))));
    expect(() => decideWithdrawals(pay('fin-1', hoursAfter(2)), state)).toThrow(/30 days/);
  });
});
