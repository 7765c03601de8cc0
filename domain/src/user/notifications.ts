import type { EventsOf, MessageParams, NOTIFICATION_KINDS, NotificationKey, notificationEvents } from '@kamai/contracts';
import { DomainError, assertNever } from '../errors.ts';

export type NotificationEvent = EventsOf<typeof notificationEvents>;

/**
 * The notifications not deleted, and which of them are unread. Sets, so each event costs O(1) (even
 * "mark all read" costs only the unread ones). Evolve updates the state it is given: see Decider.
 */
export interface NotificationsState {
  ids: Set<string>;
  unread: Set<string>;
}

export const initialNotificationsState = (): NotificationsState => ({ ids: new Set(), unread: new Set() });

export function evolveNotifications(state: NotificationsState, event: NotificationEvent): NotificationsState {
  switch (event.type) {
    case 'NotificationSent':
      state.ids.add(event.data.notificationId);
      state.unread.add(event.data.notificationId);
      return state;
    case 'NotificationRead':
      state.unread.delete(event.data.notificationId);
      return state;
    case 'AllNotificationsRead':
      state.unread.clear();
      return state;
    case 'NotificationDeleted':
      state.ids.delete(event.data.notificationId);
      state.unread.delete(event.data.notificationId);
      return state;
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

/** Reading or deleting someone else's (or an unknown) notification is a 404, whoever asks. */
export function decideNotifications(command: NotificationCommand, state: NotificationsState): NotificationEvent[] {
  switch (command.type) {
    case 'MarkNotificationRead': {
      if (!state.ids.has(command.data.notificationId)) throw new DomainError('not_found', 'Notification not found');
      return !state.unread.has(command.data.notificationId) ? [] : [{ type: 'NotificationRead', data: { notificationId: command.data.notificationId, readAt: command.now } }];
    }
    case 'MarkAllNotificationsRead':
      return state.unread.size > 0 ? [{ type: 'AllNotificationsRead', data: { readAt: command.now } }] : [];
    case 'DeleteNotification':
      if (!state.ids.has(command.data.notificationId)) throw new DomainError('not_found', 'Notification not found');
      return [{ type: 'NotificationDeleted', data: { notificationId: command.data.notificationId, deletedAt: command.now } }];
    default:
      return assertNever(command);
  }
}
