import { notificationText } from '@kamai/contracts';
import type { Projection } from '../projection.ts';
import { userIdOf } from '../users/projection.ts';

/** notifications: the user's in-app notifications that have not been deleted. */
export const notificationsProjection: Projection = {
  name: 'notifications',
  version: 1,
  tables: {
    notifications: {
      columns: `id TEXT PRIMARY KEY, user_id TEXT NOT NULL, title TEXT NOT NULL, message TEXT NOT NULL, message_key TEXT,
        params TEXT, type TEXT NOT NULL, is_read INTEGER NOT NULL, created_at TEXT NOT NULL, position INTEGER NOT NULL`,
      indexes: { user: 'user_id, position' },
    },
  },
  handles: ['NotificationSent', 'NotificationRead', 'AllNotificationsRead', 'NotificationDeleted'],
  apply(rows, event) {
    switch (event.type) {
      case 'NotificationSent': {
        const text = notificationText(event.data);
        rows.insert('notifications', {
          id: event.data.notificationId,
          user_id: userIdOf(event.streamId),
          title: text.title,
          message: text.message,
          message_key: event.data.key ?? null,
          params: event.data.params ? JSON.stringify(event.data.params) : null,
          type: event.data.kind,
          is_read: 0,
          created_at: event.data.sentAt,
          position: event.position,
        });
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
      default:
        return;
    }
  },
};
