import { streams } from '@kamai/contracts';
import { type CountMemberMoney, isCounted, staffLimitsDecider } from '@kamai/domain';
import { handleCommand } from '../commands/handle.ts';
import type { AppDeps } from '../deps.ts';

/**
 * Counts money a finance member is about to move alone against their limit across all users, on
 * their own `staff-limits-<id>` stream (domain/src/finance/staff-limits.ts): true when it is counted
 * and may move at once, false when a second member must approve it.
 *
 * Call it only for what would move money at once (ask the target's decider first, appending
 * nothing, so a refusal appends nothing), and before the money moves: a crash, or a refusal raced
 * in, between the count and the money leaves an amount counted that never moved, so the limit errs
 * on the side of counting and never lets money move uncounted. Under a keyed command a retry finds
 * its count (the same step) and does not count twice.
 */
export async function countMemberMoney(deps: AppDeps, by: string, data: CountMemberMoney['data'], now: string): Promise<boolean> {
  const { events } = await handleCommand(deps.store, streams.staffLimits(by), staffLimitsDecider, { type: 'CountMemberMoney', data, now }, { actor: by });
  return isCounted(events);
}
