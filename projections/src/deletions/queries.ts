import { type AdminDeletionBody, type DeletionRequestBody, type DeletionStatus, maskMobile } from '@kamai/contracts';
import type { ReadDbHandle } from '../db.ts';
import type { DeletionRequestsTable } from './schema.ts';

function toOwnBody(row: DeletionRequestsTable): DeletionRequestBody {
  return {
    id: row.id,
    status: row.status,
    requestedAt: row.requested_at,
    coolingOffEndsAt: row.cooling_off_ends_at,
    cancelledAt: row.cancelled_at,
  };
}

/** The user's latest deletion request, or null. */
export async function latestDeletionOf(db: ReadDbHandle, userId: string): Promise<DeletionRequestBody | null> {
  const row = await db.selectFrom('deletion_requests').selectAll().where('user_id', '=', userId).orderBy('position', 'desc').executeTakeFirst();
  return row ? toOwnBody(row) : null;
}

/** One request, as the erasure route needs it. */
export function findDeletion(db: ReadDbHandle, id: string): Promise<DeletionRequestsTable | undefined> {
  return db.selectFrom('deletion_requests').selectAll().where('id', '=', id).executeTakeFirst();
}

/** The requests of one status (or the one with this id), oldest first, with the masked mobile while the person is not erased. */
export async function listDeletions(db: ReadDbHandle, filter: { status: DeletionStatus } | { id: string }): Promise<AdminDeletionBody[]> {
  let query = db.selectFrom('deletion_requests as d').leftJoin('users as u', 'u.id', 'd.user_id').selectAll('d').select('u.mobile');
  query = 'id' in filter ? query.where('d.id', '=', filter.id) : query.where('d.status', '=', filter.status);
  const rows = await query.orderBy('d.position').execute();
  return rows.map((row) => ({
    ...toOwnBody(row),
    userId: row.user_id,
    erasedAt: row.erased_at,
    erasedBy: row.erased_by,
    mobile: row.mobile ? maskMobile(row.mobile) : null,
  }));
}
