import * as v from 'valibot';
import type { Role } from './auth.ts';

/**
 * The staff queues a staff member's Home counts, and the role that works on each: the server counts
 * only the queues of the caller's roles, and the web shows a card for each count it gets.
 * - proofs: proofs waiting for review; kyc: KYC documents waiting for review.
 * - withdrawalsPending: withdrawals nobody paid, rejected or batched yet; payoutsLate: payouts in a
 *   batch for longer than the late-payout limit; batchesOpen: batches with payouts not settled;
 *   adjustmentsPending: adjustments waiting for a second finance member.
 * - deletionsDue: deletion requests whose cooling-off has ended (an admin may erase them now);
 *   settingsRequests: changes to control settings waiting for a second admin.
 */
export const STAFF_QUEUE_ROLES = {
  proofs: 'reviewer',
  kyc: 'reviewer',
  withdrawalsPending: 'finance',
  payoutsLate: 'finance',
  batchesOpen: 'finance',
  adjustmentsPending: 'finance',
  deletionsDue: 'admin',
  settingsRequests: 'admin',
} as const satisfies Record<string, Role>;
export type StaffQueue = keyof typeof STAFF_QUEUE_ROLES;
export const STAFF_QUEUES = Object.keys(STAFF_QUEUE_ROLES) as StaffQueue[];

/** The queues whose role is among `roles`. */
export function staffQueuesOf(roles: readonly Role[]): StaffQueue[] {
  return STAFF_QUEUES.filter((queue) => roles.includes(STAFF_QUEUE_ROLES[queue]));
}

const Count = v.pipe(v.number(), v.integer(), v.minValue(0));

/** GET /api/admin/queues: a count per queue of the caller's roles; the others are absent. */
export const StaffQueuesBody = v.partial(v.object(Object.fromEntries(STAFF_QUEUES.map((queue) => [queue, Count])) as Record<StaffQueue, typeof Count>));
export type StaffQueuesBody = v.InferOutput<typeof StaffQueuesBody>;
