import type { ReadDbHandle } from '../db.ts';

/** Invitations, newest first; of one status when given. */
export async function listInvitations(db: ReadDbHandle, status?: string) {
  let query = db.selectFrom('invitations').selectAll().orderBy('accepted_at', 'desc').orderBy('invitee_id').limit(1000);
  if (status !== undefined) query = query.where('status', '=', status);
  return query.execute();
}

/**
 * Invitations with a bonus due and not decided, oldest first (the award sweep's list): the invitee's
 * once their first task was approved, the inviter's once the invitee's first withdrawal was paid. An
 * invitation still waiting for either is not listed, so the sweep's work follows what is due, not
 * what is waiting.
 */
export async function dueInvitations(db: ReadDbHandle) {
  return db
    .selectFrom('invitations')
    .select(['invitee_id', 'inviter_id', 'invitee_status', 'inviter_status', 'approved_at', 'paid_at'])
    .where((eb) =>
      eb.or([
        eb.and([eb('invitee_status', '=', 'pending'), eb('approved_at', 'is not', null)]),
        eb.and([eb('inviter_status', '=', 'pending'), eb('paid_at', 'is not', null)]),
      ]),
    )
    .orderBy('position')
    .execute();
}
