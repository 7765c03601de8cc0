import { describe, it } from 'vitest';
import type { UserEvent } from '@kamai/contracts';
import type { UserCommand } from './decider.ts';
import { registeredAt, userSpec as spec } from './fixtures.ts';
import type { TaskSnapshot } from './tasks.ts';

const t0 = '2026-11-21T10:00:00.000Z';
const t1 = '2026-11-21T11:00:00.000Z';
const t2 = '2026-11-21T12:00:00.000Z';

const registered = registeredAt(t0);
const credited: UserEvent = {
  type: 'WalletCredited',
  data: { entryId: 'e0', amountPaise: 50_000, kind: 'task_reward', params: { taskTitle: 'Rate' }, creditedAt: t0 },
} as UserEvent;
const suspended: UserEvent = { type: 'AccountSuspended', data: { reason: 'Same screenshot on five accounts', suspendedBy: 'admin', suspendedAt: t1 } };
const unsuspended: UserEvent = { type: 'AccountUnsuspended', data: { unsuspendedBy: 'admin', unsuspendedAt: t2 } };
const suspend = (by = 'admin', reason = '  Same screenshot on five accounts '): UserCommand => ({
  type: 'SuspendUser',
  data: { reason, by, notificationId: 'n1' },
  now: t1,
});
const unsuspend: UserCommand = { type: 'UnsuspendUser', data: { by: 'admin', notificationId: 'n2' }, now: t2 };
const task: TaskSnapshot = { taskId: 't1', title: 'Rate PhonePe', rewardPaise: 2500, isActive: true, requiresProof: true, expiresAt: null };

describe('account suspension', () => {
  it('suspends with the reason and tells the user', () => {
    spec.given([registered]).when(suspend()).then([
      suspended,
      { type: 'NotificationSent', data: { notificationId: 'n1', key: 'account_suspended', params: { reason: 'Same screenshot on five accounts' }, kind: 'warning', sentAt: t1 } },
    ]);
  });

  it('unsuspends a suspended account and tells the user', () => {
    spec.given([registered, suspended]).when(unsuspend).then([
      unsuspended,
      { type: 'NotificationSent', data: { notificationId: 'n2', key: 'account_unsuspended', params: {}, kind: 'success', sentAt: t2 } },
    ]);
  });

  it('refuses a change that changes nothing, an empty reason, an unknown user and suspending oneself', () => {
    spec.given([registered, suspended]).when(suspend()).thenFails('conflict', /already suspended/);
    spec.given([registered]).when(unsuspend).thenFails('conflict', /not suspended/);
    spec.given([registered]).when(suspend('admin', '  ')).thenFails('invalid', /reason/);
    spec.given([]).when(suspend()).thenFails('not_found');
    spec.given([registered]).when(suspend('u1')).thenFails('forbidden', /own account/);
  });

  it('a suspended account cannot submit proof, start a task or withdraw (account_suspended)', () => {
    const given = spec.given([registered, credited, suspended]);
    given
      .when({ type: 'SubmitProof', data: { taskId: 't1', task, submissionId: 's1', proofImageUrl: '/objects/x', proofDescription: 'Done' }, now: t2 })
      .thenFails('forbidden', /suspended/);
    given.when({ type: 'StartTask', data: { taskId: 't1', task }, now: t2 }).thenFails('forbidden', /suspended/);
    given
      .when({
        type: 'RequestWithdrawal',
        data: { withdrawalId: 'w1', entryId: 'e1', notificationId: 'n3', amountPaise: 20_000, destination: { kind: 'upi', upiId: 'asha@okaxis' } },
        now: t2,
      } as UserCommand)
      .thenFails('forbidden', /suspended/);
  });

  it('once unsuspended, the account earns again', () => {
    spec.given([registered, suspended, unsuspended]).when({ type: 'StartTask', data: { taskId: 't1', task }, now: t2 }).then([
      { type: 'TaskStarted', data: { taskId: 't1', startedAt: t2 } },
    ]);
  });
});

describe('starting a task', () => {
  const start: UserCommand = { type: 'StartTask', data: { taskId: 't1', task }, now: t1 };
  const started: UserEvent = { type: 'TaskStarted', data: { taskId: 't1', startedAt: t1 } };

  it('records the first tap only', () => {
    spec.given([registered]).when(start).then([started]);
    spec.given([registered, started]).when(start).then([]);
  });

  it('refuses an unknown or ended task', () => {
    spec.given([registered]).when({ type: 'StartTask', data: { taskId: 't1', task: null }, now: t1 }).thenFails('not_found');
    spec.given([registered]).when({ type: 'StartTask', data: { taskId: 't1', task: { ...task, expiresAt: t0 } }, now: t1 }).thenFails('conflict', /ended/);
  });
});
