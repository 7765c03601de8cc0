import { istDayOf } from '@kamai/contracts';
import { describe, expect, it } from 'vitest';
import { effectiveDayOf } from './accounts.ts';

describe("a journal entry's effective day", () => {
  it('is the IST day of its instant, across the day boundary (18:30 UTC) and asked in any order', () => {
    const instants = [
      '2026-11-29T18:29:59.999Z',
      '2026-11-29T18:30:00.000Z',
      '2026-11-29T18:29:00.000Z',
      '2026-11-29T18:30:59.999Z',
      '2026-11-29T18:31:00.000Z',
      '2026-11-29T12:00:00+05:30',
      '2026-11-30T00:00:00.000Z',
    ];
    const days = [...instants, ...instants.toReversed()].map(effectiveDayOf);
    expect(days).toEqual([...instants, ...instants.toReversed()].map((instant) => istDayOf(instant)));
    expect(days.slice(0, 2)).toEqual(['2026-11-29', '2026-11-30']);
  });
});
