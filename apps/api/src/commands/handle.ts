import { SCHEMA_VERSION_KEY, eventCodec } from '@kamai/contracts';
import {
  type ChangeSignal,
  type Decider,
  type Evolver,
  type EventMetadata,
  type EventStore,
  type Json,
  type RecordedEvent,
  type SnapshotCodec,
  WrongExpectedRevisionError,
  capability,
} from '@kamai/domain';
import { newEventId } from '../event-store/event-id.ts';
import { decodeStep, ensureReserved, findStep, nextStep, stepMetadata } from './keyed.ts';

export interface Decided<Event, View = undefined> {
  /**
   * What the caller's `view` took from the stream's state right after the decision (undefined
   * without one). Taken synchronously, before a later command moves the handler's cached state on
   * in place; a view must copy what it takes unless that part is replaced, never changed. Not a
   * copy of the whole state: that grew with the stream's open items on every command.
   */
  view: View;
  events: Event[];
  /** The stream's revision after the decision (-1: the stream has no events); a task's ETag. */
  revision: number;
  /** Global position of the last appended event, or of nothing (0) when the decision added none. */
  position: number;
}

/** One stream's folded state and the revision of the last event folded into it (-1: no events). */
interface CacheEntry {
  /** The evolve function the state was folded with; another one folds from scratch. */
  evolve: (state: unknown, event: unknown) => unknown;
  state: unknown;
  revision: number;
  /** Revision of the newest snapshot kept of this state (-1: none). */
  snapshotRevision: number;
  /**
   * The store's external version (see ChangeSignal) when the state was last read up to the store's
   * end; -1: not since. While it has not moved, only this process can have appended, and its
   * commands fold their own events into this entry: the catch-up read is skipped.
   */
  readAtVersion: number;
  /** The store's localRevisionsEpoch at that read. */
  readAtEpoch: number;
}

/** Nothing was appended to the stream since the entry last read it: no other process, no other path. */
function isCurrent(signal: ChangeSignal, streamId: string, entry: CacheEntry, version: number): boolean {
  if (entry.readAtVersion !== version || entry.readAtEpoch !== signal.localRevisionsEpoch) return false;
  return (signal.localRevisionOf(streamId) ?? -1) <= entry.revision;
}

/** How many streams' states a process keeps; each costs what its stream's decisions need (kilobytes). */
export const COMMAND_CACHE_ENTRIES = 10_000;
/**
 * A snapshot is kept once this many events were folded since the last one (read back or appended by
 * this process), or as many as the state holds records when that is more (SnapshotCodec.records).
 * It bounds what the first command on a stream after a restart folds: the snapshot plus at most that
 * many events, each unsealed. A decision state is usually a few kilobytes, so keeping one this often
 * costs little; a large one is kept less often, so its cost per event stays the same.
 */
export const SNAPSHOT_EVERY = 100;

/** Events folded between two snapshots of this state. */
function snapshotInterval(codec: SnapshotCodec<unknown>, state: unknown): number {
  return Math.max(SNAPSHOT_EVERY, codec.records?.(state) ?? 0);
}

/** A catch-up reads this many events at a time. */
const FOLD_PAGE = 500;
/**
 * A catch-up lets other requests run once it has folded for this long. One request of another user
 * needs a few turns of the event loop (read, handle, write), so each turn must stay short for that
 * request to wait well under 50 ms behind a long stream's first fold.
 */
const FOLD_SLICE_MS = 4;

/**
 * Decision state per stream, least recently used first out. A Map keeps insertion order, so moving a
 * key to the end on use and dropping the first key when full is an LRU in a dozen lines: no library.
 */
export class StreamStateCache {
  readonly #entries = new Map<string, CacheEntry>();
  constructor(readonly maxEntries = COMMAND_CACHE_ENTRIES) {}

  get size(): number {
    return this.#entries.size;
  }

  /** The revision the cached state of a stream is at, or undefined when it is not cached. */
  revisionOf(streamId: string): number | undefined {
    return this.#entries.get(streamId)?.revision;
  }

  get(streamId: string): CacheEntry | undefined {
    const entry = this.#entries.get(streamId);
    if (entry) {
      this.#entries.delete(streamId);
      this.#entries.set(streamId, entry);
    }
    return entry;
  }

  set(streamId: string, entry: CacheEntry): void {
    this.#entries.delete(streamId);
    this.#entries.set(streamId, entry);
    if (this.#entries.size > this.maxEntries) {
      const oldest = this.#entries.keys().next();
      if (!oldest.done) this.#entries.delete(oldest.value);
    }
  }

  /** Forgets the stream, if this very entry is still the one cached (a newer one stays). */
  drop(streamId: string, entry: CacheEntry): void {
    if (this.#entries.get(streamId) === entry) this.#entries.delete(streamId);
  }

  clear(): void {
    this.#entries.clear();
  }
}

/**
 * One cache of states by stream per view of a log. Tests (and the CLI) open several stores in one
 * process with the same stream names, and a raw adapter folds sealed events where its sealed wrapper
 * folds opened ones, so a stream id alone is not enough. A view is named by its capabilities object
 * (see EventStore.capabilities): a proxy that hands it on (the metrics one) shares the cache with no
 * patching; a hand-made store without one is its own view.
 */
const caches = new WeakMap<object, StreamStateCache>();

/** The decision-state cache of this store's view of its log, in this process. */
export function streamStateCache(store: EventStore): StreamStateCache {
  const view: object = (store.capabilities as object | undefined) ?? store;
  let cache = caches.get(view);
  if (!cache) {
    cache = new StreamStateCache();
    caches.set(view, cache);
  }
  return cache;
}

/** A stored event through the upcasters and its contract; a type this code cannot fold stops the decision. */
function decodeForFold<Event>(recorded: RecordedEvent): Event {
  const event = eventCodec.decode(recorded);
  if (!event) throw new Error(`stream ${recorded.streamId} holds an event of unknown type ${recorded.type}; refusing to decide on it`);
  return event as unknown as Event;
}

/**
 * The cache entry of a stream: the cached one, or a new one started from the stream's snapshot (when
 * the store keeps one of this codec's version) or from the initial state.
 */
async function entryFor<State, Event>(store: EventStore, streamId: string, evolver: Evolver<State, Event>): Promise<CacheEntry> {
  const cache = streamStateCache(store);
  const evolve = evolver.evolve as CacheEntry['evolve'];
  const cached = cache.get(streamId);
  if (cached && cached.evolve === evolve) return cached;
  let start: CacheEntry = { evolve, state: evolver.initialState(), revision: -1, snapshotRevision: -1, readAtVersion: -1, readAtEpoch: -1 };
  const codec = evolver.snapshot;
  const snapshots = codec ? capability(store, 'snapshots') : undefined;
  const snapshot = snapshots ? await snapshots.readSnapshot(streamId).catch(() => null) : null;
  if (codec && snapshot && snapshot.version === codec.version) {
    try {
      start = { evolve, state: codec.load(snapshot.state), revision: snapshot.revision, snapshotRevision: snapshot.revision, readAtVersion: -1, readAtEpoch: -1 };
    } catch {
      // An unreadable snapshot only costs the full fold.
    }
  }
  // Another command may have started an entry while the snapshot was read: keep the one further on.
  const now = cache.get(streamId);
  if (now && now.evolve === evolve && now.revision >= start.revision) return now;
  cache.set(streamId, start);
  return start;
}

/** Keeps a snapshot when enough events were folded since the last one; failures only cost speed. */
function maybeSnapshot(store: EventStore, streamId: string, entry: CacheEntry, codec: SnapshotCodec<unknown> | undefined) {
  const snapshots = codec && capability(store, 'snapshots');
  if (!codec || !snapshots || entry.revision - entry.snapshotRevision < snapshotInterval(codec, entry.state)) return;
  const snapshot = { revision: entry.revision, version: codec.version, state: codec.save(entry.state) };
  entry.snapshotRevision = entry.revision;
  snapshots.writeSnapshot(streamId, snapshot).catch(() => {
    entry.snapshotRevision = -1;
  });
}

/**
 * Brings the cached state of a stream up to the store: reads only the events after the cached
 * revision and folds them in. Between the read and the fold another command of this process may
 * have folded some of them already; those are skipped by revision. A long catch-up reads in pages
 * and lets other requests run every few milliseconds, so they are not held up. A fold that throws leaves a state nobody can trust, so
 * the entry is dropped and the next command folds from scratch.
 */
async function catchUp<State, Event>(store: EventStore, streamId: string, evolver: Evolver<State, Event>): Promise<CacheEntry> {
  const entry = await entryFor(store, streamId, evolver);
  const signal = capability(store, 'changeSignal');
  // Read before the events: a commit by another process after this moves it for next time.
  const version = signal ? signal.externalVersionOf(streamId) : -1;
  const epoch = signal ? signal.localRevisionsEpoch : -1;
  if (signal && isCurrent(signal, streamId, entry, version)) return entry;
  try {
    // Other requests run between slices: a stream with no snapshot yet never holds them up for long.
    let sliceStarted = performance.now();
    const yieldWhenDue = async () => {
      if (performance.now() - sliceStarted < FOLD_SLICE_MS) return;
      await new Promise((resolve) => setImmediate(resolve));
      sliceStarted = performance.now();
    };
    for (;;) {
      const recorded = await store.readStream(streamId, { fromRevision: entry.revision + 1, maxCount: FOLD_PAGE });
      for (let i = 0; i < recorded.length; i++) {
        const event = recorded[i]!;
        // Another catch-up of this process may have folded it while this one let others run.
        if (event.revision <= entry.revision) continue;
        if (event.revision !== entry.revision + 1) {
          throw new Error(`stream ${streamId}: read revision ${event.revision} after ${entry.revision}`);
        }
        entry.state = entry.evolve(entry.state, decodeForFold<Event>(event));
        entry.revision = event.revision;
        if ((i & 63) === 63) await yieldWhenDue();
      }
      if (recorded.length < FOLD_PAGE) break;
      await yieldWhenDue();
    }
    entry.readAtVersion = version;
    entry.readAtEpoch = epoch;
  } catch (err) {
    streamStateCache(store).drop(streamId, entry);
    throw err;
  }
  maybeSnapshot(store, streamId, entry, evolver.snapshot as SnapshotCodec<unknown> | undefined);
  return entry;
}

/**
 * A stream folded into its state, with the revision to expect when appending after it. The state is
 * the cached one: read it before the next `await`, never change it.
 */
export async function loadStream<State, Event>(
  store: EventStore,
  streamId: string,
  evolver: Evolver<State, Event>,
): Promise<{ state: State; revision: number | 'no_stream' }> {
  const entry = await catchUp(store, streamId, evolver);
  return { state: entry.state as State, revision: entry.revision < 0 ? 'no_stream' : entry.revision };
}

/**
 * The one way a command changes the system: bring the stream's state up to date (from the cache,
 * reading only newer events), let the decider's pure `decide` turn the command into events (or throw
 * a DomainError), check each event against its contract, and append them expecting the revision the
 * decision was made on. When another writer got there first the cycle runs again on the new state,
 * so every decision is made on the latest facts of its stream.
 *
 * Why the shared cached state is safe: `decide` is synchronous and never changes the state, and the
 * state is only changed in synchronous stretches (folding events read from the store, or our own
 * events after a successful append while the cache is still at the revision we decided on). A
 * refused decision, a failed append or an event that breaks its contract leaves the cache as it was.
 */
export interface CommandOptions<State, View> {
  /** Reads what the route answers with from the state after the decision (see `Decided.view`). */
  view?: (state: State) => View;
  /** Decisions tried when other writers append first. */
  maxAttempts?: number;
  /**
   * The revision the caller saw (an If-Match): the decision is made only on that revision and the
   * append expects it. Checked before deciding, so an edit that would change nothing is refused too
   * (a stream with no events is left to the decider, which knows what a command on nothing means);
   * a stream that moved throws WrongExpectedRevisionError, never retried (a retry would decide on
   * what the caller has not seen).
   */
  expectedRevision?: number;
}

export async function handleCommand<State, Command, Event extends { type: string; data: unknown }, View = undefined>(
  store: EventStore,
  streamId: string,
  decider: Decider<State, Command, Event>,
  command: Command,
  metadata: EventMetadata = {},
  options: CommandOptions<State, View> = {},
): Promise<Decided<Event, View>> {
  const { expectedRevision } = options;
  const maxAttempts = expectedRevision === undefined ? (options.maxAttempts ?? 20) : 1;
  const view = (state: unknown) => (options.view ? options.view(state as State) : undefined) as View;
  // Under a keyed command (an Idempotency-Key), this append is tagged, and one that already happened is found.
  const tag = nextStep(streamId);
  for (let attempt = 1; ; attempt++) {
    const entry = await catchUp(store, streamId, decider);
    if (tag && entry.revision >= 0) {
      const checked = entry.revision;
      const done = await findStep(store, streamId, checked, tag);
      if (done.length > 0) {
        return { view: view(entry.state), events: decodeStep<Event>(done), position: done[done.length - 1]!.position, revision: entry.revision };
      }
      // Another command of this process appended while we looked: look again.
      if (entry.revision !== checked) continue;
    }
    const expected = entry.revision;
    // On a stream that does not exist the decider says what the command means there (not found).
    if (expectedRevision !== undefined && expected >= 0 && expected !== expectedRevision) throw new WrongExpectedRevisionError(streamId, expectedRevision, expected);
    const events = decider.decide(command, entry.state as State);
    if (events.length === 0) return { view: view(entry.state), events, position: 0, revision: entry.revision };
    // An event that breaks its contract is a bug: this command fails (500) and nothing is stored.
    const encoded = events.map((event) => eventCodec.encode(event));
    // A keyed command's key is reserved only now that it appends: a refusal leaves nothing behind.
    if (tag) await ensureReserved();
    try {
      const result = await store.append(
        streamId,
        encoded.map(({ type, data, schemaVersion }) => ({
          id: newEventId(),
          type,
          data: data as Json,
          metadata: { ...metadata, ...(tag ? stepMetadata(tag) : {}), [SCHEMA_VERSION_KEY]: schemaVersion },
        })),
        expected < 0 ? 'no_stream' : expected,
      );
      // Fold our own events unless a concurrent catch-up of this process already read them back.
      if (entry.revision === expected) {
        try {
          for (const event of events) entry.state = entry.evolve(entry.state, event);
          entry.revision = result.nextExpectedRevision;
        } catch (err) {
          streamStateCache(store).drop(streamId, entry);
          throw err;
        }
        // A stream that only this process writes is never read back: its snapshots come from here.
        maybeSnapshot(store, streamId, entry, decider.snapshot as SnapshotCodec<unknown> | undefined);
      }
      return { view: view(entry.state), events, position: result.position, revision: result.nextExpectedRevision };
    } catch (err) {
      if (!(err instanceof WrongExpectedRevisionError) || attempt >= maxAttempts) throw err;
      // Something this entry has not seen was appended (another process, or an append that did
      // not go through this handler): read the stream next time, whatever the signal says.
      entry.readAtVersion = -1;
      // Back off a little, with jitter, so writers racing on one stream stop colliding.
      await new Promise((resolve) => setTimeout(resolve, Math.random() * 2 * attempt));
    }
  }
}
