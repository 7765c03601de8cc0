import { BALANCE_WARNING_NOTIFICATION, type MessageParams, type NotificationKey, balanceWarningNotificationId, notificationText } from '@kamai/contracts';
import { PARAM_PATHS, scrubPaths } from '../erasure.ts';
import type { Projection } from '../projection.ts';
import { userIdOf } from '../users/projection.ts';

/** notifications: the user's in-app notifications that have not been deleted. */
export const notificationsProjection: Projection = {
  name: 'notifications',
  // 2: an older notification's literal title and message (they may quote a reason) read as erased once its person is.
  // 3: those literal texts are no longer kept here: read from their event when listed (event-texts.ts).
  version: 3,
  tables: {
    notifications: {
      columns: `id TEXT PRIMARY KEY, user_id TEXT NOT NULL, title TEXT, message TEXT, message_key TEXT,
        params TEXT, type TEXT NOT NULL, is_read INTEGER NOT NULL, created_at TEXT NOT NULL, position INTEGER NOT NULL`,
      indexes: { user: 'user_id, position' },
    },
  },
  handles: ['NotificationSent', 'NotificationRead', 'AllNotificationsRead', 'NotificationDeleted', 'UserErased', 'BalanceWarningRaised'],
  // A text's parameters; an older notification's literal title and message stay sealed in its event.
  opens: ['NotificationSent:params.destination', 'NotificationSent:params.reason'],
  apply(rows, event) {
    switch (event.type) {
      case 'NotificationSent': {
        // An older notification's literal texts (null here) are its event's own: listNotifications reads them there.
        const text = event.data.key ? notificationText(event.data) : null;
        rows.insert('notifications', {
          id: event.data.notificationId,
          user_id: userIdOf(event.streamId),
          title: text?.title ?? null,
          message: text?.message ?? null,
          message_key: event.data.key ?? null,
          params: event.data.params ? JSON.stringify(event.data.params) : null,
          type: event.data.kind,
          is_read: 0,
          created_at: event.data.sentAt,
          position: event.position,
        });
        return;
      }
      case 'BalanceWarningRaised': {
        // A balance's warning tells each finance member named on it (docs/month-end.md#balances-that-warn).
        const key = BALANCE_WARNING_NOTIFICATION[event.data.balance];
        const params = { amountPaise: event.data.amountPaise, thresholdPaise: event.data.thresholdPaise };
        const text = notificationText({ key, params });
        for (const userId of event.data.notify) {
          rows.insert('notifications', {
            id: balanceWarningNotificationId(event.data.warningId, userId),
            user_id: userId,
            title: text.title,
            message: text.message,
            message_key: key,
            params: JSON.stringify(params),
            type: 'warning',
            is_read: 0,
            created_at: event.data.raisedAt,
            position: event.position,
          });
        }
        return;
      }
      case 'NotificationRead':
        rows.update('notifications', { id: event.data.notificationId, user_id: userIdOf(event.streamId) }, { set: { is_read: 1 } });
        return;
      case 'AllNotificationsRead':
        // Only those sent before: a replay applies this at the same point of the stream.
        rows.update('notifications', { user_id: userIdOf(event.streamId), position: { lt: event.position } }, { set: { is_read: 1 } });
        return;
      case 'NotificationDeleted':
        rows.delete('notifications', { id: event.data.notificationId, user_id: userIdOf(event.streamId) });
        return;
      case 'UserErased': {
        // Parameters that name a person's details (a payout destination) read as erased, texts re-rendered.
        // (An older notification's literal texts read as erased from its event: the person's key is gone.)
        for (const row of rows.all('notifications', { user_id: userIdOf(event.streamId) }, ['id', 'params', 'message_key'])) {
          if (row.params === null || row.message_key === null) continue;
          const params = JSON.parse(row.params) as MessageParams;
          if (!PARAM_PATHS.some((path) => Object.hasOwn(params, path))) continue;
          const scrubbed = scrubPaths(params, PARAM_PATHS) as MessageParams;
          const text = notificationText({ key: row.message_key as NotificationKey, params: scrubbed });
          rows.update('notifications', { id: row.id }, { set: { params: JSON.stringify(scrubbed), title: text.title, message: text.message } });
        }
        return;
      }
      default:
        return;
    }
  },
};
