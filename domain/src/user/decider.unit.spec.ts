import { describe, it } from 'vitest';
import type { UserEvent } from '@kamai/contracts';
import { deciderSpec } from '../testing/spec.ts';
import { type UserCommand, userDecider } from './decider.ts';

const now = '2026-11-23T10:00:00.000Z';
const spec = deciderSpec<ReturnType<typeof userDecider.initialState>, UserEvent, UserCommand>(userDecider, userDecider.decide);

const registered: UserEvent = {
  type: 'UserRegistered',
  data: { userId: 'u1', mobile: '9876543210', passwordHash: 'h', firstName: 'Asha', lastName: 'Rao', registeredAt: now },
};
const submitted: UserEvent = {
  type: 'ProofSubmitted',
  data: { submissionId: 's1', taskId: 't1', taskTitle: 'Rate PhonePe', rewardPaise: 2500, proofImageUrl: '/objects/uploads/u1/i', proofDescription: 'Done', submittedAt: now },
};
const credited: UserEvent = {
  type: 'WalletCredited',
  data: { entryId: 'e0', amountPaise: 50_000, kind: 'adjustment', params: { reason: 'x' }, by: 'fin-1', creditedAt: now },
};
const requested: UserEvent[] = [
  { type: 'WithdrawalRequested', data: { withdrawalId: 'w1', amountPaise: 10_000, destination: { kind: 'upi', upiId: 'asha@okhdfc' }, requestedAt: now } },
  { type: 'WalletDebited', data: { entryId: 'e1', amountPaise: 10_000, kind: 'withdrawal', params: { destination: 'UPI as***@okhdfc' }, reference: 'w1', debitedAt: now } },
];

describe('the user-<id> decider: one decide over every command of the stream', () => {
  it('routes each area\'s command to that area\'s rules', () => {
    spec.given([registered]).when({ type: 'GrantRole', data: { role: 'reviewer', by: 'cli' }, now }).then([
      { type: 'RoleGranted', data: { role: 'reviewer', grantedBy: 'cli', grantedAt: now } },
    ]);
    spec.given([registered]).when({ type: 'MarkAllNotificationsRead', data: { unread: 0 }, now }).then([]);
    spec
      .given([registered, credited])
      .when({ type: 'RequestWithdrawal', data: { withdrawalId: 'w1', entryId: 'e1', notificationId: 'n1', amountPaise: 60_000, destination: { kind: 'upi', upiId: 'asha@okhdfc' } }, now })
      .thenFails('conflict', /enough rupees/);
  });

  it('four eyes: staff cannot review their own proof, settle their own withdrawal or adjust their own wallet', () => {
    spec
      .given([registered, submitted])
      .when({ type: 'ApproveProof', data: { submissionId: 's1', reviewerId: 'u1', entryId: 'e9', notificationId: 'n9' }, now })
      .thenFails('forbidden', /your own submission/);
    spec
      .given([registered, submitted])
      .when({ type: 'RejectProof', data: { submissionId: 's1', reviewerId: 'u1', reason: 'Blurry', notificationId: 'n9' }, now })
      .thenFails('forbidden', /your own submission/);
    spec
      .given([registered, credited, ...requested])
      .when({ type: 'MarkWithdrawalPaid', data: { withdrawalId: 'w1', reference: 'UTR1', by: 'u1', notificationId: 'n9' }, now })
      .thenFails('forbidden', /your own withdrawal/);
    spec
      .given([registered])
      .when({ type: 'AdjustWallet', data: { entryId: 'e9', notificationId: 'n9', amountPaise: 100, direction: 'credit', reason: 'x', by: 'u1' }, now })
      .thenFails('forbidden', /your own wallet/);
  });

  it('another reviewer may approve, and the reward is credited with the approval', () => {
    spec
      .given([registered, submitted])
      .when({ type: 'ApproveProof', data: { submissionId: 's1', reviewerId: 'rev-1', entryId: 'e9', notificationId: 'n9' }, now })
      .then([
        { type: 'ProofApproved', data: { submissionId: 's1', taskId: 't1', reviewedBy: 'rev-1', rewardPaise: 2500, approvedAt: now } },
        {
          type: 'WalletCredited',
          data: { entryId: 'e9', amountPaise: 2500, kind: 'task_reward', params: { taskTitle: 'Rate PhonePe' }, taskId: 't1', reference: 's1', by: 'rev-1', creditedAt: now },
        },
        { type: 'NotificationSent', data: { notificationId: 'n9', key: 'task_approved', params: { amountPaise: 2500, taskTitle: 'Rate PhonePe', taskId: 't1' }, kind: 'success', sentAt: now } },
      ]);
  });
});
