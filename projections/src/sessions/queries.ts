import type { ReadDbHandle } from '../db.ts';
import { hotReads } from '../hot-reads.ts';
import type { SessionsTable } from '../schema.ts';

export type LiveSession = Pick<SessionsTable, 'sid' | 'user_id' | 'expires_at'>;

/** The session with this id if it exists and has not expired at `now`. */
export function findLiveSession(db: ReadDbHandle, sid: string, now: string): Promise<LiveSession | undefined> {
  // Every request with a cookie reads this: a cached prepared statement when the database has one.
  const hot = hotReads(db);
  if (hot) return Promise.resolve(hot.liveSession.get(sid, now) as LiveSession | undefined);
  return db
    .selectFrom('sessions')
    .select(['sid', 'user_id', 'expires_at'])
    .where('sid', '=', sid)
    .where('expires_at', '>', now)
    .executeTakeFirst();
}
