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
  async apply(db, event) {
    switch (event.type) {
      case 'NotificationSent':
        await db
          .insertInto('notifications')
          .values({
            id: event.data.notificationId,
            user_id: userIdOf(event.streamId),
            ...notificationText(event.data),
            message_key: event.data.key ?? null,
            params: event.data.params ? JSON.stringify(event.data.params) : null,
            type: event.data.kind,
            is_read: 0,
            created_at: event.data.sentAt,
            position: event.position,
          })
          .execute();
        return;
      case 'NotificationRead':
        await db
          .updateTable('notifications')
          .set({ is_read: 1 })
          .where('id', '=', event.data.notificationId)
          .where('user_id', '=', userIdOf(event.streamId))
          .execute();
        return;
      case 'AllNotificationsRead':
        // Only those sent before: a replay applies this at the same point of the stream.
        await db
          .updateTable('notifications')
          .set({ is_read: 1 })
          .where('user_id', '=', userIdOf(event.streamId))
          .where('position', '<', event.position)
          .execute();
        return;
      case 'NotificationDeleted':
        await db
          .deleteFrom('notifications')
          .where('id', '=', event.data.notificationId)
          .where('user_id', '=', userIdOf(event.streamId))
          .execute();
        return;
      default:
        return;
    }
  },
};
