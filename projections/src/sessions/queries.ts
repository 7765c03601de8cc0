import type { ReadDbHandle } from '../db.ts';

/** The session with this id if it exists and has not expired at `now`. */
export function findLiveSession(db: ReadDbHandle, sid: string, now: string) {
  return db
    .selectFrom('sessions')
    .select(['sid', 'user_id', 'expires_at'])
    .where('sid', '=', sid)
    .where('expires_at', '>', now)
    .executeTakeFirst();
}
