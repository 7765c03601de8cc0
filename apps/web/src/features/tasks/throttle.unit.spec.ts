import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { throttle } from './throttle.ts';

beforeEach(() => {
  vi.useFakeTimers();
});

afterEach(() => {
  vi.useRealTimers();
});

describe('throttle', () => {
  it('runs the first call at once and at most one call per interval after that', () => {
    const seen: number[] = [];
    const update = throttle((percent: number) => seen.push(percent), 500);

    update(1);
    expect(seen).toEqual([1]);
    update(20);
    update(35);
    vi.advanceTimersByTime(499);
    expect(seen).toEqual([1]);
    vi.advanceTimersByTime(1);
    expect(seen).toEqual([1, 35]);

    // Inside the next interval again: held, then the latest one runs.
    update(60);
    vi.advanceTimersByTime(200);
    update(80);
    expect(seen).toEqual([1, 35]);
    vi.advanceTimersByTime(300);
    expect(seen).toEqual([1, 35, 80]);
  });

  it('runs a call at once when the interval has passed', () => {
    const seen: number[] = [];
    const update = throttle((percent: number) => seen.push(percent), 500);
    update(1);
    vi.advanceTimersByTime(600);
    update(50);
    expect(seen).toEqual([1, 50]);
  });

  it('never runs calls closer than the interval', () => {
    const times: number[] = [];
    const update = throttle(() => times.push(Date.now()), 500);
    for (let step = 0; step < 100; step += 1) {
      update();
      vi.advanceTimersByTime(37);
    }
    vi.runAllTimers();
    const gaps = times.slice(1).map((time, index) => time - (times[index] ?? 0));
    expect(Math.min(...gaps)).toBeGreaterThanOrEqual(500);
  });

  it('flushes a held call now, and cancel drops it', () => {
    const seen: number[] = [];
    const update = throttle((percent: number) => seen.push(percent), 500);
    update(1);
    update(99);
    update.flush();
    expect(seen).toEqual([1, 99]);
    update(100);
    update.cancel();
    vi.runAllTimers();
    expect(seen).toEqual([1, 99]);
  });
});
