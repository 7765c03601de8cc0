/**
 * The API's clock: the machine's time, but never earlier than a time it already handed out (nor the
 * log's last event at start-up). When the machine's clock is set back (an NTP correction, a VM
 * restored), commands keep their order: each carries the later of the clock and the last command's
 * time, so a stream's events never go back in time, and as-of balances and statements (which read
 * the events' own times) agree with the log's order. The time stands still until the clock catches up.
 */
export function monotonicClock(options: { read?: () => Date; floor?: Date | null; onBackwards?: (behindMs: number) => void } = {}): () => Date {
  const read = options.read ?? (() => new Date());
  let last = options.floor?.getTime() ?? 0;
  /** One report per jump back, not one per command while the clock catches up. */
  let behind = false;
  return () => {
    const now = read().getTime();
    if (now >= last) {
      last = now;
      behind = false;
    } else if (!behind && last - now > 1000) {
      behind = true;
      options.onBackwards?.(last - now);
    }
    return new Date(last);
  };
}
