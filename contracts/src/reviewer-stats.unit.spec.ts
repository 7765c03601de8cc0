import * as v from 'valibot';
import { describe, expect, it } from 'vitest';
import {
  MAX_REJECTIONS_COUNTED_PER_DAY,
  REVIEWER_ALERT_MIN_DECISIONS,
  ReviewerStatsQuery,
  medianOf,
  rejectionRateAlert,
  reviewerStatsRange,
  workerApprovalRate,
} from './reviewer-stats.ts';

describe('workerApprovalRate', () => {
  it('counts at most ten rejections from one IST day', () => {
    expect(MAX_REJECTIONS_COUNTED_PER_DAY).toBe(10);
    // 10 approved; 25 rejected on one bad day and 2 on another: 10 + 2 rejections count.
    expect(workerApprovalRate(10, 27, [25, 2])).toBe(10 / 22);
    // Passing only the days over the cap answers the same.
    expect(workerApprovalRate(10, 27, [25])).toBe(10 / 22);
  });

  it('counts every rejection of a day at or under the cap, and is null with nothing decided', () => {
    expect(workerApprovalRate(3, 10, [10])).toBe(3 / 13);
    expect(workerApprovalRate(1, 1, [])).toBe(0.5);
    expect(workerApprovalRate(0, 0, [])).toBeNull();
    expect(workerApprovalRate(0, 30, [30])).toBe(0);
  });
});

describe('rejectionRateAlert', () => {
  const many = REVIEWER_ALERT_MIN_DECISIONS;
  it('marks a reviewer rejecting more than twice the team rate, over enough decisions', () => {
    expect(rejectionRateAlert({ decisions: many, rejections: Math.ceil(many * 0.5) }, 0.2)).toBe(true);
    expect(rejectionRateAlert({ decisions: many, rejections: Math.floor(many * 0.4) }, 0.2)).toBe(false);
  });
  it('stays quiet below the minimum number of decisions or with no team rate', () => {
    expect(rejectionRateAlert({ decisions: many - 1, rejections: many - 1 }, 0.1)).toBe(false);
    expect(rejectionRateAlert({ decisions: many, rejections: many }, null)).toBe(false);
  });
});

describe('reviewer stats range', () => {
  const now = new Date('2026-11-29T20:00:00.000Z'); // 30 November in India
  it('defaults to the last 30 IST days ending today', () => {
    expect(reviewerStatsRange({}, now)).toEqual({ from: '2026-11-01', to: '2026-11-30' });
    expect(reviewerStatsRange({ to: '2026-02-28' }, now)).toEqual({ from: '2026-01-30', to: '2026-02-28' });
    expect(reviewerStatsRange({ from: '2026-10-01' }, now)).toEqual({ from: '2026-10-01', to: '2026-11-30' });
  });
  it('refuses a bad day and an end before the start, on the field', () => {
    const issues = (input: unknown) => v.safeParse(ReviewerStatsQuery, input).issues?.map((i) => v.getDotPath(i));
    expect(issues({ from: '2026-02-30' })).toEqual(['from']);
    expect(issues({ from: '2026-03-02', to: '2026-03-01' })).toEqual(['to']);
    expect(v.safeParse(ReviewerStatsQuery, { from: '2026-03-01', to: '2026-03-01' }).success).toBe(true);
  });
});

describe('medianOf', () => {
  it('is the middle value, or the mean of the middle two', () => {
    expect(medianOf([5, 1, 3])).toBe(3);
    expect(medianOf([4, 1, 3, 10])).toBe(3.5);
    expect(medianOf([])).toBeNull();
  });
});
