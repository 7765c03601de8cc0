import { describe, expect, it } from 'vitest';
import { FailureThrottle } from './throttle.ts';

describe('failed sign-in throttle', () => {
  const make = () => {
    let now = 1_000_000;
    const throttle = new FailureThrottle({ limit: 3, windowMs: 60_000, now: () => now });
    return { throttle, advance: (ms: number) => (now += ms) };
  };

  it('lets a key fail up to the limit, then refuses it until the window ends', () => {
    const { throttle, advance } = make();
    for (let i = 0; i < 3; i++) {
      expect(throttle.retryAfter('m:9876543210')).toBe(0);
      throttle.fail('m:9876543210');
    }
    expect(throttle.retryAfter('m:9876543210')).toBe(60_000);
    advance(59_000);
    expect(throttle.retryAfter('m:9876543210')).toBe(1_000);
    advance(1_000);
    expect(throttle.retryAfter('m:9876543210')).toBe(0);
  });

  it('counts keys apart, and a success clears its key', () => {
    const { throttle } = make();
    for (let i = 0; i < 3; i++) throttle.fail('a');
    throttle.fail('b');
    expect(throttle.retryAfter('a')).toBeGreaterThan(0);
    expect(throttle.retryAfter('b')).toBe(0);
    throttle.succeed('a');
    expect(throttle.retryAfter('a')).toBe(0);
  });
});
