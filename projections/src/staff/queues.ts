import type { StaffQueue, StaffQueuesBody } from '@kamai/contracts';
import { sql } from 'kysely';
import type { ReadDbHandle } from '../db.ts';

/**
 * How much work waits in each of `queues` (GET /api/admin/queues): one count query per queue,
 * each on an indexed status column, so a staff member's Home costs no list reads.
 * `now` decides which deletions are due; `lateBefore` which payouts are late.
 */
export async function countStaffQueues(
  db: ReadDbHandle,
  queues: readonly StaffQueue[],
  at: { now: string; lateBefore: string },
): Promise<StaffQueuesBody> {
  const count = sql<number>`count(*)`.as('n');
  const counters: Record<StaffQueue, () => Promise<{ n: number } | undefined>> = {
    proofs: () => db.selectFrom('proof_submissions').select(count).where('status', '=', 'submitted').executeTakeFirst(),
    kyc: () => db.selectFrom('kyc_documents').select(count).where('status', '=', 'pending').executeTakeFirst(),
    withdrawalsPending: () => db.selectFrom('withdrawal_requests').select(count).where('status', '=', 'pending').executeTakeFirst(),
    payoutsLate: () =>
      db.selectFrom('withdrawal_requests').select(count).where('status', '=', 'processing').where('processing_at', '<', at.lateBefore).executeTakeFirst(),
    // A batch is open while one of its payouts is still processing (the bank has not answered).
    batchesOpen: () =>
      db
        .selectFrom('payout_batch_items as i')
        .innerJoin('withdrawal_requests as w', 'w.id', 'i.withdrawal_id')
        .select(sql<number>`count(distinct i.batch_id)`.as('n'))
        .where('w.status', '=', 'processing')
        .executeTakeFirst(),
    adjustmentsPending: () => db.selectFrom('adjustments').select(count).where('status', '=', 'pending').executeTakeFirst(),
    deletionsDue: () =>
      db.selectFrom('deletion_requests').select(count).where('status', '=', 'pending').where('cooling_off_ends_at', '<=', at.now).executeTakeFirst(),
    settingsRequests: () => db.selectFrom('settings_requests').select(count).where('status', '=', 'pending').executeTakeFirst(),
  };
  const body: StaffQueuesBody = {};
  for (const queue of queues) body[queue] = (await counters[queue]())?.n ?? 0;
  return body;
}
