import { describe, expect, it } from 'vitest';
import { estimatedSeconds, hammingDistance, isDifferenceHash, isFastWork } from './proof-flags.ts';

describe('the proof flags rules', () => {
  it('reads a task estimate as seconds, a range as its lower end, and nothing from text without a time', () => {
    expect(estimatedSeconds('5 min')).toBe(300);
    expect(estimatedSeconds('30 seconds')).toBe(30);
    expect(estimatedSeconds('1-2 hours')).toBe(3600);
    expect(estimatedSeconds('1.5 hr')).toBe(5400);
    expect(estimatedSeconds('2 to 3 Minutes')).toBe(120);
    expect(estimatedSeconds('a short while')).toBeNull();
    expect(estimatedSeconds('5 parsecs')).toBeNull();
  });

  it('is fast under a quarter of the estimate, never without a start or an estimate', () => {
    expect(isFastWork(74, 300)).toBe(true);
    expect(isFastWork(75, 300)).toBe(false);
    expect(isFastWork(null, 300)).toBe(false);
    expect(isFastWork(10, null)).toBe(false);
  });

  it('counts differing bits and knows a hash from an erased one', () => {
    expect(hammingDistance('ffffffff00000000', '00000000ffffffff')).toBe(64);
    expect(hammingDistance('0000000000000003', '0000000000000000')).toBe(2);
    expect(isDifferenceHash('3e8e8e8e8e8e8e8e')).toBe(true);
    expect(isDifferenceHash('[erased]')).toBe(false);
  });
});
