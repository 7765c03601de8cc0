import { describe, it } from 'vitest';
import type { UserEvent, WithdrawalDestination } from '@kamai/contracts';
import { type DeletionCommand } from './deletion.ts';
import { registeredAt, userSpec as spec } from './fixtures.ts';
import { credit, debit } from './wallet.ts';

const now = '2026-11-21T10:00:00.000Z';
const inCoolingOff = '2026-11-22T10:00:00.000Z';
const afterCoolingOff = '2026-11-23T10:00:00.000Z';

const registered = registeredAt(now);
const requested: UserEvent = {
  type: 'DeletionRequested',
  data: { requestId: 'd1', requestedAt: now, coolingOffEndsAt: '2026-11-23T10:00:00.000Z' },
};
const erased: UserEvent = { type: 'UserErased', data: { requestId: 'd1', erasedBy: 'admin1', erasedAt: afterCoolingOff } };
const request: DeletionCommand = { type: 'RequestDeletion', data: { requestId: 'd1', notificationId: 'n1', coolingOffHours: 48 }, now };
const erase = (at = afterCoolingOff): DeletionCommand => ({ type: 'EraseUser', data: { requestId: 'd1', by: 'admin1' }, now: at });
const upi: WithdrawalDestination = { kind: 'upi', upiId: 'asha.rao@okhdfc' };
const earned = credit({ entryId: 'e1', amountPaise: 10_000, kind: 'task_reward', params: { taskTitle: 'Rate' }, taskId: 't1', now });

describe('deletion decider', () => {
  it('records a request with the end of its cooling-off, and tells the user', () => {
    spec
      .given([registered])
      .when(request)
      .then([
        requested,
        { type: 'NotificationSent', data: { notificationId: 'n1', key: 'deletion_requested', params: {}, kind: 'warning', sentAt: now } },
      ]);
  });

  it('a cooling-off of 0 hours ends when the request is made', () => {
    spec
      .given([registered])
      .when({ ...request, data: { ...request.data, coolingOffHours: 0 } })
      .then([
        { type: 'DeletionRequested', data: { requestId: 'd1', requestedAt: now, coolingOffEndsAt: now } },
        { type: 'NotificationSent', data: { notificationId: 'n1', key: 'deletion_requested', params: {}, kind: 'warning', sentAt: now } },
      ]);
  });

  it('asking again while a request is pending changes nothing', () => {
    spec.given([registered, requested]).when({ ...request, data: { ...request.data, requestId: 'd2' } }).then([]);
  });

  it('cancels the pending request and tells the user', () => {
    spec
      .given([registered, requested])
      .when({ type: 'CancelDeletion', data: { notificationId: 'n2' }, now: inCoolingOff })
      .then([
        { type: 'DeletionCancelled', data: { requestId: 'd1', cancelledAt: inCoolingOff } },
        { type: 'NotificationSent', data: { notificationId: 'n2', key: 'deletion_cancelled', params: {}, kind: 'info', sentAt: inCoolingOff } },
      ]);
  });

  it('refuses to cancel when nothing is pending', () => {
    spec.given([registered]).when({ type: 'CancelDeletion', data: { notificationId: 'n2' }, now }).thenFails('not_found');
  });

  it('erases once the cooling-off has ended and nothing is owed', () => {
    spec.given([registered, requested]).when(erase()).then([erased]);
  });

  it('refuses erasure during the cooling-off (deletion_cooling_off)', () => {
    spec.given([registered, requested]).when(erase(inCoolingOff)).thenFails('conflict', /cooling-off/);
  });

  it('refuses erasure while the user has an available balance (balance_not_settled)', () => {
    spec.given([registered, earned, requested]).when(erase()).thenFails('conflict', /balance/);
  });

  it('refuses erasure while a payout is pending (balance_not_settled)', () => {
    const hold = debit({ balance: 10_000, totalEarned: 10_000, totalWithdrawn: 0 }, { entryId: 'h1', amountPaise: 10_000, kind: 'withdrawal', params: { destination: 'UPI' }, reference: 'w1', now });
    const withdrawal: UserEvent = { type: 'WithdrawalRequested', data: { withdrawalId: 'w1', amountPaise: 10_000, destination: upi, requestedAt: now } };
    spec.given([registered, earned, withdrawal, hold, requested]).when(erase()).thenFails('conflict', /payout/);
  });

  it('refuses erasure while a payout is with the bank in a batch (balance_not_settled)', () => {
    const hold = debit({ balance: 10_000, totalEarned: 10_000, totalWithdrawn: 0 }, { entryId: 'h1', amountPaise: 10_000, kind: 'withdrawal', params: { destination: 'UPI' }, reference: 'w1', now });
    const withdrawal: UserEvent = { type: 'WithdrawalRequested', data: { withdrawalId: 'w1', amountPaise: 10_000, destination: upi, requestedAt: now } };
    const batched: UserEvent = { type: 'WithdrawalProcessing', data: { withdrawalId: 'w1', batchId: 'b1', by: 'finance-1', processingAt: now } };
    spec.given([registered, earned, withdrawal, hold, batched, requested]).when(erase()).thenFails('conflict', /payout/);
  });

  it('refuses erasure of a cancelled request', () => {
    const cancelled: UserEvent = { type: 'DeletionCancelled', data: { requestId: 'd1', cancelledAt: inCoolingOff } };
    spec.given([registered, requested, cancelled]).when(erase()).thenFails('conflict', /not pending/);
  });

  it('erasing again changes nothing, so a half-done erasure can be retried', () => {
    spec.given([registered, requested, erased]).when(erase()).then([]);
  });

  it('an erased user can do nothing', () => {
    spec.given([registered, requested, erased]).when({ type: 'UpdateProfile', data: { firstName: 'Asha' }, now }).thenFails('conflict', /deleted/);
    spec.given([registered, requested, erased]).when(request).thenFails('conflict', /deleted/);
    spec
      .given([registered, requested, erased])
      .when({ type: 'RequestWithdrawal', data: { withdrawalId: 'w1', entryId: 'h1', notificationId: 'n1', amountPaise: 10_000, destination: upi }, now })
      .thenFails('conflict', /deleted/);
  });
});
