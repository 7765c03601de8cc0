import { v7 } from 'uuid';

/**
 * A new event's id: a time-ordered UUID (version 7, RFC 9562), so ids minted one after another sort
 * one after another. The embedded store keeps a unique index of event ids; with random (version 4)
 * ids every insert landed on a random page of it, and each commit wrote dozens of those pages to the
 * WAL (and the checkpointer copied them again). In time order the inserts share the index's last
 * pages. The ms timestamp it carries is the event's own time, already in the log beside it.
 */
export function newEventId(): string {
  return v7();
}
