import type { EventsOf, MessageParams, NOTIFICATION_KINDS, NotificationKey, notificationEvents } from '@kamai/contracts';
import { DomainError, assertNever } from '../errors.ts';

export type NotificationEvent = EventsOf<typeof notificationEvents>;

/** Notification id -> read, for the notifications not deleted. */
export interface NotificationsState {
  items: Readonly<Record<string, boolean>>;
}

export const initialNotificationsState = (): NotificationsState => ({ items: {} });

export function evolveNotifications(state: NotificationsState, event: NotificationEvent): NotificationsState {
  switch (event.type) {
    case 'NotificationSent':
      return { items: { ...state.items, [event.data.notificationId]: false } };
    case 'NotificationRead':
      if (!Object.hasOwn(state.items, event.data.notificationId)) return state;
      return { items: { ...state.items, [event.data.notificationId]: true } };
    case 'AllNotificationsRead':
      return { items: Object.fromEntries(Object.keys(state.items).map((id) => [id, true])) };
    case 'NotificationDeleted': {
      const { [event.data.notificationId]: _gone, ...items } = state.items;
      return { items };
    }
    default:
      return assertNever(event);
  }
}

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

export type NotificationCommand =
  | { type: 'MarkNotificationRead'; data: { notificationId: string }; now: string }
  | { type: 'MarkAllNotificationsRead'; now: string }
  | { type: 'DeleteNotification'; data: { notificationId: string }; now: string };

/**
 * Reading or deleting someone else's (or an unknown) notification is a 404, whoever asks. Ids come
 * from the path, so only own keys count: `constructor` or `__proto__` must not find Object.prototype.
 */
export function decideNotifications(command: NotificationCommand, state: NotificationsState): NotificationEvent[] {
  switch (command.type) {
    case 'MarkNotificationRead': {
      const read = Object.hasOwn(state.items, command.data.notificationId) ? state.items[command.data.notificationId] : undefined;
      if (read === undefined) throw new DomainError('not_found', 'Notification not found');
      return read ? [] : [{ type: 'NotificationRead', data: { notificationId: command.data.notificationId, readAt: command.now } }];
    }
    case 'MarkAllNotificationsRead':
      return Object.values(state.items).some((read) => !read) ? [{ type: 'AllNotificationsRead', data: { readAt: command.now } }] : [];
    case 'DeleteNotification':
      if (!Object.hasOwn(state.items, command.data.notificationId)) throw new DomainError('not_found', 'Notification not found');
      return [{ type: 'NotificationDeleted', data: { notificationId: command.data.notificationId, deletedAt: command.now } }];
    default:
      return assertNever(command);
  }
}
