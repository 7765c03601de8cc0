import type { ReadDbHandle } from '../db.ts';

/** Invitations, newest first; of one status when given. */
export async function listInvitations(db: ReadDbHandle, status?: string) {
  let query = db.selectFrom('invitations').selectAll().orderBy('accepted_at', 'desc').orderBy('invitee_id').limit(1000);
  if (status !== undefined) query = query.where('status', '=', status);
  return query.execute();
}

/** Invitations with a bonus still to decide, oldest first (the award sweep's list). */
export async function undecidedInvitations(db: ReadDbHandle) {
  return db
    .selectFrom('invitations')
    .select(['invitee_id', 'inviter_id', 'invitee_status', 'inviter_status'])
    .where((eb) => eb.or([eb('invitee_status', '=', 'pending'), eb('inviter_status', '=', 'pending')]))
    .orderBy('position')
    .execute();
}
