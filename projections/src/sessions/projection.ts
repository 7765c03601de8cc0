import type { Projection } from '../projection.ts';
import { userIdOf } from '../users/projection.ts';

/** sessions: the signed-in sessions that have not been ended, with device and last use. */
export const sessionsProjection: Projection = {
  name: 'sessions',
  // 2: device and last use (signed-in devices screen).
  version: 2,
  tables: {
    sessions: {
      columns: 'sid TEXT PRIMARY KEY, user_id TEXT NOT NULL, expires_at TEXT NOT NULL, started_at TEXT NOT NULL, device TEXT, last_seen_at TEXT',
      indexes: { expires_at: 'expires_at', user_id: 'user_id' },
    },
  },
  handles: ['SessionStarted', 'SessionSeen', 'SessionEnded', 'UserErased'],
  apply(rows, event) {
    switch (event.type) {
      case 'SessionStarted':
        rows.insert('sessions', {
          sid: event.data.sessionId,
          user_id: event.data.userId,
          expires_at: event.data.expiresAt,
          started_at: event.data.startedAt,
          device: event.data.device ?? null,
          last_seen_at: event.data.startedAt,
        });
        return;
      case 'SessionSeen':
        rows.update('sessions', { sid: event.data.sessionId }, { set: { last_seen_at: event.data.seenAt } });
        return;
      case 'SessionEnded':
        rows.delete('sessions', { sid: event.data.sessionId });
        return;
      case 'UserErased':
        // The erasure ends their sessions (SessionEnded removes the rows); until then no device line names them.
        rows.update('sessions', { user_id: userIdOf(event.streamId) }, { set: { device: null } });
        return;
      default:
        return;
    }
  },
};
