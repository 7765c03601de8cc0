import type { EventsOf, MessageParams, NOTIFICATION_KINDS, NotificationKey, notificationEvents } from '@kamai/contracts';
import { assertNever } from '../errors.ts';

export type NotificationEvent = EventsOf<typeof notificationEvents>;

/**
 * A notification to the user; deciders add it to the events of what it tells about. It records a
 * key of NOTIFICATION_TEXTS and the facts to fill in, never a sentence: the reader's language is
 * chosen when it is shown.
 */
export function notify(notification: {
  notificationId: string;
  key: NotificationKey;
  params: MessageParams;
  kind: (typeof NOTIFICATION_KINDS)[number];
  now: string;
}): Extract<NotificationEvent, { type: 'NotificationSent' }> {
  const { now, ...data } = notification;
  return { type: 'NotificationSent', data: { ...data, sentAt: now } };
}

/**
 * What the caller's notifications read model says about the notification named (or all of them).
 * The route finds the notification among the caller's own (an unknown one, or someone else's, is a
 * 404 there), so the user's decision state keeps nothing per notification: a stream's history of
 * notifications would otherwise be folded, snapshotted and loaded on every cold start.
 */
export type NotificationCommand =
  | { type: 'MarkNotificationRead'; data: { notificationId: string; unread: boolean }; now: string }
  | { type: 'MarkAllNotificationsRead'; data: { unread: number }; now: string }
  | { type: 'DeleteNotification'; data: { notificationId: string }; now: string };

/**
 * No rule about money or identity depends on these events, and each is idempotent in the read model,
 * so deciding on a read that two requests made at once at worst records the same fact twice.
 */
export function decideNotifications(command: NotificationCommand): NotificationEvent[] {
  switch (command.type) {
    case 'MarkNotificationRead':
      return command.data.unread ? [{ type: 'NotificationRead', data: { notificationId: command.data.notificationId, readAt: command.now } }] : [];
    case 'MarkAllNotificationsRead':
      return command.data.unread > 0 ? [{ type: 'AllNotificationsRead', data: { readAt: command.now } }] : [];
    case 'DeleteNotification':
      return [{ type: 'NotificationDeleted', data: { notificationId: command.data.notificationId, deletedAt: command.now } }];
    default:
      return assertNever(command);
  }
}
