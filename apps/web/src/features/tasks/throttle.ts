/**
 * Calls `fn` at most once per `intervalMs` (upload progress updates are throttled to
 * 500 ms). The first call runs at once; calls inside the interval are held and the latest of them
 * runs when it ends, so the last value is never lost. `flush` runs a held call now; `cancel` drops it.
 */
export interface Throttled<Args extends unknown[]> {
  (...args: Args): void;
  flush: () => void;
  cancel: () => void;
}

export function throttle<Args extends unknown[]>(fn: (...args: Args) => void, intervalMs: number): Throttled<Args> {
  let lastRun = -Infinity;
  let held: Args | null = null;
  let timer: ReturnType<typeof setTimeout> | null = null;

  const run = (args: Args) => {
    lastRun = Date.now();
    held = null;
    fn(...args);
  };

  const throttled = (...args: Args) => {
    const wait = lastRun + intervalMs - Date.now();
    if (wait <= 0 && timer === null) {
      run(args);
      return;
    }
    held = args;
    timer ??= setTimeout(() => {
      timer = null;
      if (held) run(held);
    }, Math.max(wait, 0));
  };

  throttled.flush = () => {
    if (timer !== null) clearTimeout(timer);
    timer = null;
    if (held) run(held);
  };
  throttled.cancel = () => {
    if (timer !== null) clearTimeout(timer);
    timer = null;
    held = null;
  };
  return throttled;
}
