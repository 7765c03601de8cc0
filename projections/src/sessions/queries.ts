import type { ReadDbHandle } from '../db.ts';
import { hotReads } from '../hot-reads.ts';
import type { SessionsTable } from '../schema.ts';

export type LiveSession = Pick<SessionsTable, 'sid' | 'user_id' | 'expires_at' | 'started_at' | 'last_seen_at'>;

/** The session with this id if it exists and has not expired at `now`. */
export function findLiveSession(db: ReadDbHandle, sid: string, now: string): Promise<LiveSession | undefined> {
  // Every request with a cookie reads this: a cached prepared statement when the database has one.
  const hot = hotReads(db);
  if (hot) return Promise.resolve(hot.liveSession.get(sid, now) as LiveSession | undefined);
  return db
    .selectFrom('sessions')
    .select(['sid', 'user_id', 'expires_at', 'started_at', 'last_seen_at'])
    .where('sid', '=', sid)
    .where('expires_at', '>', now)
    .executeTakeFirst();
}

/** The user's sessions that have not ended or expired, most recently used first. */
export function listUserSessions(db: ReadDbHandle, userId: string, now: string) {
  return db
    .selectFrom('sessions')
    .select(['sid', 'device', 'started_at', 'last_seen_at', 'expires_at'])
    .where('user_id', '=', userId)
    .where('expires_at', '>', now)
    .orderBy('last_seen_at', 'desc')
    .orderBy('started_at', 'desc')
    .execute();
}

/** Every session row of the user, live or expired: the erasure ends them all. */
export async function listSessionIdsOf(db: ReadDbHandle, userId: string): Promise<string[]> {
  const rows = await db.selectFrom('sessions').select('sid').where('user_id', '=', userId).execute();
  return rows.map((row) => row.sid);
}
