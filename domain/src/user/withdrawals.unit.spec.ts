import { describe, expect, it } from 'vitest';
import { MIN_WITHDRAWAL_PAISE, type UserEvent, type WithdrawalDestination } from '@kamai/contracts';
import { fold } from '../decider.ts';
import { deciderSpec } from '../testing/spec.ts';
import { userEvolver } from './state.ts';
import { credit } from './wallet.ts';
import { type WithdrawalCommand, decideWithdrawals, maskDestination } from './withdrawals.ts';

const now = '2026-11-21T10:00:00.000Z';
const later = '2026-11-22T09:30:00.000Z';
const spec = deciderSpec<ReturnType<typeof userEvolver.initialState>, UserEvent, WithdrawalCommand>(userEvolver, decideWithdrawals);

const registered: UserEvent = {
  type: 'UserRegistered',
  data: { userId: 'u1', mobile: '9876543210', passwordHash: 'h', firstName: 'Asha', lastName: 'Rao', registeredAt: now },
};
const earned = (paise: number, entryId = 'e0'): UserEvent =>
  credit({ entryId, amountPaise: paise, kind: 'task_reward', params: { taskTitle: 'Rate PhonePe' }, taskId: 't1', now });
const upi: WithdrawalDestination = { kind: 'upi', upiId: 'asha.rao@okhdfc' };
const bank: WithdrawalDestination = { kind: 'bank', accountNumber: '001234567894321', ifsc: 'HDFC0001234', holderName: 'Asha Rao' };

/** `null`: the request names no destination. */
const request = (amountPaise: number, destination: WithdrawalDestination | null = upi, withdrawalId = 'w1'): WithdrawalCommand => ({
  type: 'RequestWithdrawal',
  data: { withdrawalId, entryId: `hold-${withdrawalId}`, notificationId: `n-${withdrawalId}`, amountPaise, ...(destination && { destination }) },
  now,
});

/** The events an accepted request of `amountPaise` to `destination` appends, in one append. */
function requested(amountPaise: number, destination: WithdrawalDestination = upi, withdrawalId = 'w1'): UserEvent[] {
  const label = maskDestination(destination);
  return [
    { type: 'WithdrawalRequested', data: { withdrawalId, amountPaise, destination, requestedAt: now } },
    {
      type: 'WalletDebited',
      data: { entryId: `hold-${withdrawalId}`, amountPaise, kind: 'withdrawal', params: { destination: label }, reference: withdrawalId, debitedAt: now },
    },
    {
      type: 'NotificationSent',
      data: {
        notificationId: `n-${withdrawalId}`,
        key: 'withdrawal_requested',
        params: { amountPaise, destination: label },
        kind: 'info',
        sentAt: now,
      },
    },
  ];
}

const pay = (by = 'finance-1', withdrawalId = 'w1'): WithdrawalCommand => ({
  type: 'MarkWithdrawalPaid',
  data: { withdrawalId, reference: 'UTR123456789', by, notificationId: 'n-paid' },
  now: later,
});
const reject = (by = 'finance-1', withdrawalId = 'w1'): WithdrawalCommand => ({
  type: 'RejectWithdrawal',
  data: { withdrawalId, reason: 'Bank account closed', by, entryId: 'refund-1', notificationId: 'n-rejected' },
  now: later,
});

describe('requesting a withdrawal', () => {
  it('uses the one minimum of the spec: ₹100', () => {
    expect(MIN_WITHDRAWAL_PAISE).toBe(10_000);
  });

  it('refuses less than ₹100 with the spec message on the amount', () => {
    spec.given([registered, earned(50_000)]).when(request(9_999)).thenFails('invalid', /^Minimum withdrawal amount is ₹100$/);
    spec.given([registered, earned(50_000)]).when(request(0)).thenFails('invalid', /Minimum withdrawal/);
  });

  it('holds exactly ₹100 at once: the request, the debit and a notification in one decision', () => {
    spec.given([registered, earned(10_000)]).when(request(10_000)).then(requested(10_000));
  });

  it('allows the exact balance and leaves zero', () => {
    const events = [registered, earned(25_050)];
    spec.given(events).when(request(25_050)).then(requested(25_050));
    const after = fold(userEvolver, [...events, ...requested(25_050)]);
    expect(after.wallet.balance).toBe(0);
    expect(after.wallet.totalWithdrawn).toBe(25_050);
    expect(after.withdrawals.byId.get('w1')?.status).toBe('pending');
  });

  it('refuses one paisa over the balance as insufficient_balance', () => {
    let caught: unknown;
    try {
      decideWithdrawals(request(25_051), fold(userEvolver, [registered, earned(25_050)]));
    } catch (err) {
      caught = err;
    }
    expect(caught).toMatchObject({
      kind: 'conflict',
      code: 'insufficient_balance',
      message: "You don't have enough rupees for this withdrawal",
      ref: { key: 'withdrawal.insufficient' },
      fields: { amount: { key: 'withdrawal.insufficient' } },
    });
  });

  it('counts pending holds: a second request cannot spend rupees already held', () => {
    spec.given([registered, earned(15_000), ...requested(10_000)]).when(request(10_000, upi, 'w2')).thenFails('conflict', /enough rupees/);
    spec.given([registered, earned(20_000), ...requested(10_000)]).when(request(10_000, upi, 'w2')).then(requested(10_000, upi, 'w2'));
  });

  it('pays to the last destination when the request names none', () => {
    spec.given([registered, earned(30_000), ...requested(10_000, bank)]).when(request(10_000, null, 'w2')).then(requested(10_000, bank, 'w2'));
  });

  it('asks for a destination when there is none and none saved', () => {
    let caught: unknown;
    try {
      decideWithdrawals(request(10_000, null), fold(userEvolver, [registered, earned(30_000)]));
    } catch (err) {
      caught = err;
    }
    expect(caught).toMatchObject({ kind: 'invalid', code: 'destination_required', fields: { destination: { key: 'withdrawal.destinationRequired' } } });
  });

  it('refuses a user that does not exist', () => {
    spec.given([]).when(request(10_000)).thenFails('not_found');
  });
});

describe('settling a withdrawal', () => {
  const pending = [registered, earned(30_000), ...requested(10_000, bank)];

  it('pays: the hold is settled, no rupees move, the user is told with the reference', () => {
    spec
      .given(pending)
      .when(pay())
      .then([
        { type: 'WithdrawalPaid', data: { withdrawalId: 'w1', reference: 'UTR123456789', paidBy: 'finance-1', paidAt: later, amountPaise: 10_000 } },
        {
          type: 'NotificationSent',
          data: {
            notificationId: 'n-paid',
            key: 'withdrawal_paid',
            params: { amountPaise: 10_000, destination: 'A/c XXXXXX4321 · HDFC0001234', reference: 'UTR123456789' },
            kind: 'success',
            sentAt: later,
          },
        },
      ]);
    const after = fold(userEvolver, [...pending, ...decideWithdrawals(pay(), fold(userEvolver, pending))]);
    expect(after.wallet).toEqual({ balance: 20_000, totalEarned: 30_000, totalWithdrawn: 10_000 });
    expect(after.withdrawals.byId.get('w1')?.status).toBe('paid');
  });

  it('rejects with a refund credit naming the withdrawal, and tells the user why', () => {
    spec
      .given(pending)
      .when(reject())
      .then([
        { type: 'WithdrawalRejected', data: { withdrawalId: 'w1', reason: 'Bank account closed', reasonCode: 'other', rejectedBy: 'finance-1', rejectedAt: later } },
        {
          type: 'WalletCredited',
          data: {
            entryId: 'refund-1',
            amountPaise: 10_000,
            kind: 'withdrawal_refund',
            params: { reason: 'Bank account closed' },
            reference: 'w1',
            by: 'finance-1',
            creditedAt: later,
          },
        },
        {
          type: 'NotificationSent',
          data: {
            notificationId: 'n-rejected',
            key: 'withdrawal_rejected',
            params: { amountPaise: 10_000, reason: 'Bank account closed' },
            kind: 'error',
            sentAt: later,
          },
        },
      ]);
    const after = fold(userEvolver, [...pending, ...decideWithdrawals(reject(), fold(userEvolver, pending))]);
    expect(after.wallet).toEqual({ balance: 30_000, totalEarned: 30_000, totalWithdrawn: 0 });
  });

  it('settles once: a second decision, either way, is a conflict', () => {
    const paid = [...pending, ...decideWithdrawals(pay(), fold(userEvolver, pending))];
    spec.given(paid).when(pay()).thenFails('conflict', /already been paid/);
    spec.given(paid).when(reject()).thenFails('conflict', /already been paid/);
    const rejected = [...pending, ...decideWithdrawals(reject(), fold(userEvolver, pending))];
    spec.given(rejected).when(reject()).thenFails('conflict', /already been settled/);
    spec.given(rejected).when(pay()).thenFails('conflict', /already been settled/);
  });

  it('settles only a pending request (the route 404s ids it does not know), and never staff\'s own', () => {
    spec.given(pending).when(pay('finance-1', 'w-unknown')).thenFails('conflict', /already been settled/);
    spec.given(pending).when(reject('u1')).thenFails('forbidden');
  });
});

describe('masking destinations for display', () => {
  it('shows only the last four digits of an account and a little of a UPI ID', () => {
    expect(maskDestination(bank)).toBe('A/c XXXXXX4321 · HDFC0001234');
    expect(maskDestination({ kind: 'upi', upiId: 'ravi.k@okhdfc' })).toBe('UPI ra***@okhdfc');
    expect(maskDestination({ kind: 'upi', upiId: 'ab@ybl' })).toBe('UPI a***@ybl');
  });
});
