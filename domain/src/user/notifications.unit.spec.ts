import { describe, it } from 'vitest';
import { deciderSpec } from '../testing/spec.ts';
import {
  type NotificationCommand,
  type NotificationEvent,
  decideNotifications,
  evolveNotifications,
  initialNotificationsState,
  notify,
} from './notifications.ts';

const now = '2026-11-21T10:00:00.000Z';
const spec = deciderSpec<ReturnType<typeof initialNotificationsState>, NotificationEvent, NotificationCommand>(
  { initialState: initialNotificationsState, evolve: evolveNotifications },
  decideNotifications,
);
const sent = (id: string) => notify({ notificationId: id, key: 'task_approved', params: { amountPaise: 2500, taskTitle: 'Rate PhonePe' }, kind: 'success', now });

describe('notifications', () => {
  it('marks one read once', () => {
    spec.given([sent('n1')]).when({ type: 'MarkNotificationRead', data: { notificationId: 'n1' }, now }).then([{ type: 'NotificationRead', data: { notificationId: 'n1', readAt: now } }]);
    spec.given([sent('n1'), { type: 'NotificationRead', data: { notificationId: 'n1', readAt: now } }]).when({ type: 'MarkNotificationRead', data: { notificationId: 'n1' }, now }).then([]);
  });
  it('refuses unknown or deleted notifications with not_found', () => {
    spec.given([]).when({ type: 'MarkNotificationRead', data: { notificationId: 'x' }, now }).thenFails('not_found');
    spec.given([sent('n1'), { type: 'NotificationDeleted', data: { notificationId: 'n1', deletedAt: now } }]).when({ type: 'DeleteNotification', data: { notificationId: 'n1' }, now }).thenFails('not_found');
  });
  it('marks all read only when something is unread', () => {
    spec.given([sent('n1'), sent('n2')]).when({ type: 'MarkAllNotificationsRead', now }).then([{ type: 'AllNotificationsRead', data: { readAt: now } }]);
    spec.given([sent('n1'), { type: 'AllNotificationsRead', data: { readAt: now } }]).when({ type: 'MarkAllNotificationsRead', now }).then([]);
  });
  it('deletes one', () => {
    spec.given([sent('n1')]).when({ type: 'DeleteNotification', data: { notificationId: 'n1' }, now }).then([{ type: 'NotificationDeleted', data: { notificationId: 'n1', deletedAt: now } }]);
  });
});
