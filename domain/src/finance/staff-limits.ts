import { DEFAULT_LIMITS, type Paise, type StaffLimitEvent } from '@kamai/contracts';
import type { Decider } from '../decider.ts';
import { assertNever } from '../errors.ts';
import { hourCounts, hourOf, sumInWindow } from '../user/adjustments.ts';

export type MemberMoneyKind = 'adjustment' | 'funding';

/**
 * `staff-limits-<memberId>`: what one finance member moved alone, per kind and per hour of the
 * four-eyes window (ISO hour start -> paise; older hours are forgotten, so the state stays a day long).
 */
export interface StaffLimitsState {
  hours: Record<MemberMoneyKind, [string, Paise][]>;
}

/**
 * Counts money a member is about to move alone (an adjustment, or a funding booked without a second
 * member) against their daily limit across all users. `kind` and `entryId` name what is counted.
 */
export interface CountMemberMoney {
  type: 'CountMemberMoney';
  /** The limit for this kind: adjustments across all users (memberDailyAdjustmentLimit, its default when absent), fundings (the adjustment threshold). */
  data: { kind: MemberMoneyKind; entryId: string; amountPaise: Paise; limitPaise?: Paise };
  now: string;
}

/**
 * Within the limit: the amount is counted (one event) and the caller moves the money alone. Past it:
 * nothing is counted and the caller asks for a second member instead (no event; `isCounted` tells
 * which). Decided on the member's own stream, so two adjustments of one member to two users at once
 * are counted one after the other and cannot both pass. The count is appended before the money moves:
 * a crash between the two leaves it counted (the limit errs on the side of counting), never the
 * money moved uncounted.
 */
export const staffLimitsDecider: Decider<StaffLimitsState, CountMemberMoney, StaffLimitEvent> = {
  initialState: () => ({ hours: { adjustment: [], funding: [] } }),
  evolve: (state, event) => {
    switch (event.type) {
      case 'MemberMoneyCounted': {
        const { kind, countedAt, amountPaise } = event.data;
        const hour = hourOf(countedAt);
        const now = Date.parse(countedAt);
        const hours = state.hours[kind].filter(([h]) => hourCounts(h, now));
        const bucket = hours.find(([h]) => h === hour);
        if (bucket) bucket[1] += amountPaise;
        else hours.push([hour, amountPaise]);
        return { hours: { ...state.hours, [kind]: hours } };
      }
      default:
        return assertNever(event.type);
    }
  },
  decide: (command, state) => {
    const { kind, entryId, amountPaise, limitPaise } = command.data;
    const limit = limitPaise ?? (kind === 'adjustment' ? DEFAULT_LIMITS.memberDailyAdjustmentLimitPaise : DEFAULT_LIMITS.adjustmentApprovalThresholdPaise);
    if (sumInWindow(state.hours[kind], Date.parse(command.now)) + amountPaise > limit) return [];
    return [{ type: 'MemberMoneyCounted', data: { kind, entryId, amountPaise, countedAt: command.now } }];
  },
};

/** Whether a CountMemberMoney decision counted the amount (the member may move it alone). */
export const isCounted = (events: readonly StaffLimitEvent[]): boolean => events.length > 0;
