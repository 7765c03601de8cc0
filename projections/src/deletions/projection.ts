import type { Projection } from '../projection.ts';
import { userIdOf } from '../users/projection.ts';

/** deletion_requests: the requests admins work through, by status. Ids and times only. */
export const deletionsProjection: Projection = {
  name: 'deletions',
  version: 1,
  tables: {
    deletion_requests: {
      columns: `id TEXT PRIMARY KEY, user_id TEXT NOT NULL, status TEXT NOT NULL, requested_at TEXT NOT NULL,
        cooling_off_ends_at TEXT NOT NULL, cancelled_at TEXT, erased_at TEXT, erased_by TEXT, position INTEGER NOT NULL`,
      indexes: { status: 'status, position', user: 'user_id, position' },
    },
  },
  handles: ['DeletionRequested', 'DeletionCancelled', 'UserErased'],
  apply(rows, event) {
    switch (event.type) {
      case 'DeletionRequested':
        rows.insert('deletion_requests', {
          id: event.data.requestId,
          user_id: userIdOf(event.streamId),
          status: 'pending',
          requested_at: event.data.requestedAt,
          cooling_off_ends_at: event.data.coolingOffEndsAt,
          cancelled_at: null,
          erased_at: null,
          erased_by: null,
          position: event.position,
        });
        return;
      case 'DeletionCancelled':
        rows.update('deletion_requests', { id: event.data.requestId }, { set: { status: 'cancelled', cancelled_at: event.data.cancelledAt } });
        return;
      case 'UserErased':
        rows.update(
          'deletion_requests',
          { id: event.data.requestId },
          { set: { status: 'erased', erased_at: event.data.erasedAt, erased_by: event.data.erasedBy } },
        );
        return;
      default:
        return;
    }
  },
};
