import { describe, it } from 'vitest';
import type { StaffLimitEvent } from '@kamai/contracts';
import { deciderSpec } from '../testing/spec.ts';
import { type CountMemberMoney, type StaffLimitsState, staffLimitsDecider } from './staff-limits.ts';

const spec = deciderSpec<StaffLimitsState, StaffLimitEvent, CountMemberMoney>(staffLimitsDecider, staffLimitsDecider.decide);
const count = (entryId: string, amountPaise: number, now: string): CountMemberMoney => ({
  type: 'CountMemberMoney',
  data: { kind: 'adjustment', entryId, amountPaise, limitPaise: 500_000 },
  now,
});
const counted = (entryId: string, amountPaise: number, countedAt: string): StaffLimitEvent => ({
  type: 'MemberMoneyCounted',
  data: { kind: 'adjustment', entryId, amountPaise, countedAt },
});

describe("one finance member's daily limit across all users", () => {
  const day = ['a', 'b', 'c', 'd'].map((id, i) => counted(id, 100_000, `2026-11-20T0${i}:10:00.000Z`));

  it('counts what fits within the limit, and counts nothing past it (a second member must approve)', () => {
    spec.given(day).when(count('e', 100_000, '2026-11-20T05:00:00.000Z')).then([counted('e', 100_000, '2026-11-20T05:00:00.000Z')]);
    spec.given(day).when(count('e', 100_001, '2026-11-20T05:00:00.000Z')).then([]);
  });

  it('keeps fundings apart, against their own limit (the adjustment threshold by default)', () => {
    const funding = (amountPaise: number): CountMemberMoney => ({ type: 'CountMemberMoney', data: { kind: 'funding', entryId: 'f', amountPaise }, now: '2026-11-20T05:00:00.000Z' });
    const booked: StaffLimitEvent = { type: 'MemberMoneyCounted', data: { kind: 'funding', entryId: 'f', amountPaise: 100_000, countedAt: '2026-11-20T05:00:00.000Z' } };
    spec.given(day).when(funding(100_000)).then([booked]);
    spec.given([...day, booked]).when(funding(1)).then([]);
    spec.given([booked]).when(count('e', 100_000, '2026-11-20T05:00:00.000Z')).then([counted('e', 100_000, '2026-11-20T05:00:00.000Z')]);
  });

  it('forgets an hour only once all of it is older than 24 hours: the sum is never short', () => {
    // 00:10 is in the hour 00:00-01:00, which still counts at 00:30 the next day, and not at 01:00.
    spec.given(day).when(count('e', 200_000, '2026-11-21T00:30:00.000Z')).then([]);
    spec.given(day).when(count('e', 200_000, '2026-11-21T01:00:00.000Z')).then([counted('e', 200_000, '2026-11-21T01:00:00.000Z')]);
  });
});
