import type { MessageParams, NotificationBody } from '@kamai/contracts';
import type { ReadDbHandle } from '../db.ts';
import { eventTexts } from '../event-texts.ts';
import { hotReads } from '../hot-reads.ts';

/** The user's notifications, newest first (GET /api/notifications). */
export async function listNotifications(db: ReadDbHandle, userId: string, limit = 200): Promise<NotificationBody[]> {
  const rows = await db
    .selectFrom('notifications')
    .selectAll()
    .where('user_id', '=', userId)
    .orderBy('position', 'desc')
    .limit(limit)
    .execute();
  const literal = await eventTexts(
    db,
    rows.filter((row) => row.title === null).map((row) => row.position),
    ['title', 'message'],
  );
  return rows.map((row) => ({
    id: row.id,
    userId: row.user_id,
    title: row.title ?? literal.get(row.position)!.title,
    message: row.message ?? literal.get(row.position)!.message,
    ...(row.message_key !== null && { key: row.message_key }),
    ...(row.params !== null && { params: JSON.parse(row.params) as MessageParams }),
    type: row.type,
    isRead: row.is_read === 1,
    createdAt: row.created_at,
  }));
}

export async function countUnreadNotifications(db: ReadDbHandle, userId: string): Promise<number> {
  const hot = hotReads(db);
  if (hot) return hot.unreadCount.get(userId) ?? 0;
  const row = await db
    .selectFrom('notifications')
    .select((eb) => eb.fn.countAll<number>().as('n'))
    .where('user_id', '=', userId)
    .where('is_read', '=', 0)
    .executeTakeFirst();
  return row?.n ?? 0;
}

/** One of the user's notifications (not deleted), and whether it is unread; undefined when it is not theirs. */
export async function findNotification(db: ReadDbHandle, userId: string, id: string): Promise<{ unread: boolean } | undefined> {
  const row = await db.selectFrom('notifications').select('is_read').where('id', '=', id).where('user_id', '=', userId).executeTakeFirst();
  return row && { unread: row.is_read === 0 };
}
