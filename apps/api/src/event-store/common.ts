/**
 * Rules both event-store adapters share: what a valid append looks like, and the one error the port
 * does not define.
 */
import type { ExpectedRevision, NewEvent } from '@kamai/domain';

/**
 * An event id is already stored somewhere other than where a retry of the same append would have put
 * it (another stream, another revision, or twice in one call). Nothing was written. Not a concurrency
 * conflict: reloading the stream and retrying with the same ids cannot succeed.
 */
export class DuplicateEventIdError extends Error {
  override readonly name = 'DuplicateEventIdError';
  constructor(
    readonly streamId: string,
    readonly eventId: string,
  ) {
    super(`stream ${streamId}: event id ${eventId} is already used elsewhere`);
  }
}

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/;

/** Throws a TypeError for an append no adapter should accept, before anything touches storage. */
export function assertValidAppend(streamId: string, events: readonly NewEvent[], expected: ExpectedRevision): void {
  if (typeof streamId !== 'string' || streamId.length === 0) throw new TypeError('stream id must be a non-empty string');
  // "$" streams are KurrentDB's system streams; refusing them here keeps both adapters alike.
  if (streamId.startsWith('$')) throw new TypeError(`stream id ${streamId} must not start with "$"`);
  if (events.length === 0) throw new TypeError(`stream ${streamId}: append needs at least one event`);
  if (typeof expected === 'number' && (!Number.isSafeInteger(expected) || expected < 0)) {
    throw new TypeError(`stream ${streamId}: expected revision ${expected} must be a non-negative integer`);
  }
  if (typeof expected === 'string' && !['no_stream', 'stream_exists', 'any'].includes(expected)) {
    throw new TypeError(`stream ${streamId}: unknown expected revision ${String(expected)}`);
  }
  for (const event of events) {
    // KurrentDB stores ids as UUIDs and hands them back in lower case; asking for that form up front
    // keeps ids round-tripping unchanged, which idempotent retries rely on.
    if (typeof event.id !== 'string' || !UUID.test(event.id)) {
      throw new TypeError(`stream ${streamId}: event id ${String(event.id)} must be a lower-case UUID`);
    }
    if (typeof event.type !== 'string' || event.type.length === 0) throw new TypeError(`stream ${streamId}: event ${event.id} has no type`);
    if (event.type.startsWith('$')) throw new TypeError(`stream ${streamId}: event type ${event.type} must not start with "$"`);
  }
}

/** Whether a stream whose last revision is `actual` (-1: no stream) satisfies `expected`. */
export function satisfiesExpected(expected: ExpectedRevision, actual: number): boolean {
  switch (expected) {
    case 'any':
      return true;
    case 'no_stream':
      return actual === -1;
    case 'stream_exists':
      return actual >= 0;
    default:
      return actual === expected;
  }
}

/** Where an event id is stored: its stream, revision and position. */
export interface StoredEventPlace {
  stream_id: string;
  revision: number;
  position: number;
}

/**
 * A retry of an append that was already written (same ids, same stream, in order, where that
 * expected revision put them) gets the original answer and writes nothing, as KurrentDB does.
 * Anything short of that is left to the concurrency check and the unique event id.
 */
export function retriedAppendResult(
  streamId: string,
  expected: ExpectedRevision,
  eventIds: readonly string[],
  find: (eventId: string) => StoredEventPlace | undefined,
): { nextExpectedRevision: number; position: number } | undefined {
  let first: StoredEventPlace | undefined;
  let last: StoredEventPlace | undefined;
  for (const [i, id] of eventIds.entries()) {
    const row = find(id);
    if (!row || row.stream_id !== streamId) return undefined;
    if (first && row.revision !== first.revision + i) return undefined;
    first ??= row;
    last = row;
  }
  if (!first || !last) return undefined;
  if (expected === 'no_stream' && first.revision !== 0) return undefined;
  if (typeof expected === 'number' && first.revision !== expected + 1) return undefined;
  return { nextExpectedRevision: last.revision, position: last.position };
}
