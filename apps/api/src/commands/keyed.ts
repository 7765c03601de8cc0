import { AsyncLocalStorage } from 'node:async_hooks';
import { createHash, randomUUID } from 'node:crypto';
import { COMMAND_KEY_METADATA, COMMAND_STEP_METADATA, eventCodec } from '@kamai/contracts';
import type { EventStore, RecordedEvent } from '@kamai/domain';

/**
 * The keyed command a request is running (a POST with an Idempotency-Key): its token and a log
 * position before any of its events. Every append the request makes through handleCommand is tagged
 * with the token and its step, and before deciding, handleCommand looks for that step's events
 * appended after that position: a retry, or a second copy of the request running at once, then takes
 * the recorded events as its result instead of appending again.
 */
interface KeyedCommand {
  token: string;
  /** A global position before every event the command appended (its reservation's, or the head's when it began). */
  reservedAt: number;
  /** Appends made so far per stream, so each is found again by its number. */
  steps: Map<string, number>;
  /** Ids handed out so far (commandId). */
  ids: number;
  /**
   * Records the key's reservation, once, just before the command's first append (null: recorded
   * already, or nothing to record). A command refused before it appends leaves the log as it was.
   */
  reserve: (() => Promise<void>) | null;
  reserving: Promise<void> | null;
}

const current = new AsyncLocalStorage<KeyedCommand>();

/**
 * Runs `run` (the route) as the keyed command `token`, all of whose events come after log position
 * `reservedAt`; `reserve`, when given, is called once before the first append the command makes.
 */
export function runKeyed<T>(token: string, reservedAt: number, run: () => Promise<T>, reserve: (() => Promise<void>) | null = null): Promise<T> {
  return current.run({ token, reservedAt, steps: new Map(), ids: 0, reserve, reserving: null }, run);
}

/** Records the current keyed command's reservation if it has not been (handleCommand calls it before appending). */
export async function ensureReserved(): Promise<void> {
  const keyed = current.getStore();
  if (!keyed?.reserve) return;
  const reserve = keyed.reserve;
  keyed.reserving ??= outsideKeyed(reserve);
  await keyed.reserving;
}

/**
 * A new id for something a command creates (a withdrawal, a ledger entry, a notification). Under a
 * keyed command it is derived from the token and its place in the route, so a retry names the same
 * things the first attempt did and finds them; otherwise a random UUID.
 */
export function commandId(): string {
  const keyed = current.getStore();
  if (!keyed) return randomUUID();
  const hex = createHash('sha256').update(`${keyed.token}\n${keyed.ids++}`).digest('hex');
  // Shaped as a version-4 UUID, as the routes' id patterns expect.
  const variant = ((parseInt(hex[16]!, 16) & 0x3) | 0x8).toString(16);
  return `${hex.slice(0, 8)}-${hex.slice(8, 12)}-4${hex.slice(13, 16)}-${variant}${hex.slice(17, 20)}-${hex.slice(20, 32)}`;
}

/** The tag of the next append of the current keyed command to `streamId`, or null outside one. */
export function nextStep(streamId: string): { token: string; step: number; reservedAt: number } | null {
  const keyed = current.getStore();
  if (!keyed) return null;
  const step = (keyed.steps.get(streamId) ?? 0) + 1;
  keyed.steps.set(streamId, step);
  return { token: keyed.token, step, reservedAt: keyed.reservedAt };
}

/**
 * Whether the next append of the current keyed command to a stream whose last revision is
 * `lastRevision` already happened (a retry), without taking the step: for routes that must skip work
 * done outside the log once it did (an uploaded image is consumed by the first attempt).
 */
export async function nextStepDone(store: EventStore, streamId: string, lastRevision: number): Promise<boolean> {
  const keyed = current.getStore();
  if (!keyed || lastRevision < 0) return false;
  const tag = { token: keyed.token, step: (keyed.steps.get(streamId) ?? 0) + 1, reservedAt: keyed.reservedAt };
  return (await findStep(store, streamId, lastRevision, tag)).length > 0;
}

export function stepMetadata(tag: { token: string; step: number }) {
  return { [COMMAND_KEY_METADATA]: tag.token, [COMMAND_STEP_METADATA]: tag.step };
}

const LOOK_BACK_PAGE = 32;

/**
 * The events of one step of a keyed command in a stream whose last revision is `lastRevision`: read
 * from the end backwards, page by page, down to the first event older than the reservation. Usually
 * one short read that finds nothing.
 */
export async function findStep(
  store: EventStore,
  streamId: string,
  lastRevision: number,
  tag: { token: string; step: number; reservedAt: number },
): Promise<RecordedEvent[]> {
  const found: RecordedEvent[] = [];
  for (let end = lastRevision; end >= 0; end -= LOOK_BACK_PAGE) {
    const from = Math.max(0, end - LOOK_BACK_PAGE + 1);
    const page = await store.readStream(streamId, { fromRevision: from, maxCount: end - from + 1 });
    for (let i = page.length - 1; i >= 0; i--) {
      const event = page[i]!;
      if (event.position <= tag.reservedAt) return found;
      if (event.metadata[COMMAND_KEY_METADATA] === tag.token && event.metadata[COMMAND_STEP_METADATA] === tag.step) found.unshift(event);
    }
  }
  return found;
}

/** Recorded events of a step as the decider's events. */
export function decodeStep<Event>(recorded: RecordedEvent[]): Event[] {
  return recorded.map((event) => {
    const decoded = eventCodec.decode(event);
    if (!decoded) throw new Error(`stream ${event.streamId} holds an event of unknown type ${event.type}`);
    return decoded as unknown as Event;
  });
}

/**
 * Runs `run` outside any keyed command: what it appends is not tagged as a step of the request's
 * key. A workflow records its own steps (its stream says what happened), so it needs no tags there.
 */
export function outsideKeyed<T>(run: () => Promise<T>): Promise<T> {
  return current.exit(run);
}
