import { describe, expect, it } from 'vitest';
import { type NotificationCommand, decideNotifications } from './notifications.ts';

const now = '2026-11-21T10:00:00.000Z';
const when = (command: NotificationCommand) => decideNotifications(command);

describe('notifications: decided on what the read model says of the caller\'s own', () => {
  it('marks one read only while it is unread', () => {
    expect(when({ type: 'MarkNotificationRead', data: { notificationId: 'n1', unread: true }, now })).toEqual([
      { type: 'NotificationRead', data: { notificationId: 'n1', readAt: now } },
    ]);
    expect(when({ type: 'MarkNotificationRead', data: { notificationId: 'n1', unread: false }, now })).toEqual([]);
  });
  it('marks all read only when something is unread', () => {
    expect(when({ type: 'MarkAllNotificationsRead', data: { unread: 2 }, now })).toEqual([{ type: 'AllNotificationsRead', data: { readAt: now } }]);
    expect(when({ type: 'MarkAllNotificationsRead', data: { unread: 0 }, now })).toEqual([]);
  });
  it('deletes one', () => {
    expect(when({ type: 'DeleteNotification', data: { notificationId: 'n1' }, now })).toEqual([
      { type: 'NotificationDeleted', data: { notificationId: 'n1', deletedAt: now } },
    ]);
  });
});
