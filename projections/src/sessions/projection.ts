import type { Projection } from '../projection.ts';

/** sessions: the signed-in sessions that have not been ended. */
export const sessionsProjection: Projection = {
  name: 'sessions',
  version: 1,
  tables: {
    sessions: {
      columns: 'sid TEXT PRIMARY KEY, user_id TEXT NOT NULL, expires_at TEXT NOT NULL, started_at TEXT NOT NULL',
      indexes: { expires_at: 'expires_at', user_id: 'user_id' },
    },
  },
  handles: ['SessionStarted', 'SessionEnded'],
  async apply(db, event) {
    switch (event.type) {
      case 'SessionStarted':
        await db
          .insertInto('sessions')
          .values({
            sid: event.data.sessionId,
            user_id: event.data.userId,
            expires_at: event.data.expiresAt,
            started_at: event.data.startedAt,
          })
          .execute();
        return;
      case 'SessionEnded':
        await db.deleteFrom('sessions').where('sid', '=', event.data.sessionId).execute();
        return;
      default:
        return;
    }
  },
};
