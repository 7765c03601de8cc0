import { type EventStore, capability } from '@kamai/domain';

/**
 * Calls `react` soon after this process appends an event of one of `types` (read by header only:
 * nothing personal is opened). Needs a store that signals its own appends and reads headers
 * synchronously (SQLite); elsewhere it does nothing and the follower's periodic sweep catches up.
 * Answers the way to stop.
 */
export function onOwnAppendsOf(store: EventStore, types: readonly string[], react: () => void): () => void {
  const signal = capability(store, 'changeSignal');
  const reads = capability(store, 'syncReads');
  if (!signal || !reads) return () => {};
  // From the log's head now, not from this process's first append (0 before it): the first append
  // must not read every header of these types the log ever held.
  let seen = signal.localHead || reads.headNow();
  return signal.onAppended((position) => {
    if (position <= seen) return;
    const due = reads.readHeadersNow(seen, position, types).length > 0;
    seen = position;
    if (due) react();
  });
}
