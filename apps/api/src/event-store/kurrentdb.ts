/**
 * The event-store port on KurrentDB, through @kurrent/kurrentdb-client.
 *
 * - KurrentDB places an event in `$all` by a (commit, prepare) pair. Servers that write every event of
 *   an append as its own log record give each event commit = prepare; others (older EventStoreDB,
 *   explicit transactions) give every event of an append the append's one commit position and a
 *   prepare position of its own, below that commit and above the previous one. The port's number
 *   for an event is therefore its prepare position: unique per event, and increasing in `$all`
 *   order for appends (which never interleave). Resuming "after p" reads from (p, p): that takes in
 *   the rest of a commit whose prepares lie beyond p, and an event is kept only when its pair comes
 *   after the last pair this read or subscription delivered, so nothing is skipped mid-append and
 *   nothing is delivered twice. Never the commit number alone. Numbers are exact up to 2^53 bytes.
 * - Reads of `$all` are inclusive of their start position and subscriptions are exclusive; both
 *   drop anything at or before `after` so the port's "after" holds either way.
 * - System events ($-prefixed types, $-streams, link events) never reach callers: the server-side
 *   excludeSystemEvents filter drops the types, a client-side check the rest.
 */
import {
  BACKWARDS,
  END,
  FORWARDS,
  KurrentDBClient,
  NO_STREAM,
  START,
  StreamNotFoundError,
  WrongExpectedVersionError,
  excludeSystemEvents,
  type AllStreamResolvedEvent,
  type AllStreamSubscription,
  type AppendResult as KurrentAppendResult,
  type AppendStreamState,
  type CurrentStreamState,
  type EventData,
  type JSONType,
  type ReadPosition,
  type ResolvedEvent,
} from '@kurrent/kurrentdb-client';
import {
  WrongExpectedRevisionError,
  type AllSubscription,
  type AppendResult,
  type EventMetadata,
  type EventStore,
  type EventStoreCapabilities,
  type ExpectedRevision,
  type Json,
  type NewEvent,
  type RecordedEvent,
} from '@kamai/domain';
import { assertValidAppend } from './common.ts';
import {
  type ChainHead,
  type ChainSource,
  type ChainedEvent,
  type CheckpointStore,
  type LedgerCheckpoint,
  type LogLink,
  chainHash,
  computedLogHead,
} from './chain.ts';

/**
 * The metadata key that carries an event's chain link (chain.ts); stripped before callers see
 * metadata. KurrentDB reserves `$`-prefixed keys for itself, so the link is under our own name;
 * events written before carry it under LEGACY_CHAIN_KEY, still read.
 */
const CHAIN_KEY = 'kamai.chain';
/** A stream's last event: its revision and chain hash. */
type Link = { revision: number; hash: string | null; standIn?: true };
/** How many streams' last links one store keeps. */
const LINKS_KEPT = 10_000;
/** Tries of an 'any' append whose stream another process keeps appending to. */
const OTHER_WRITER_RETRIES = 5;
const LEGACY_CHAIN_KEY = '$kamaiChain';

/**
 * Where the signed checkpoints of the log's head are kept (chain.ts). Written and read with the
 * client alone: the port's readers never see this stream, so the log chain computed over `$all`
 * leaves the checkpoints out, as the embedded store's table does.
 */
const CHECKPOINT_STREAM = 'kamai-ledger-checkpoints';
const CHECKPOINT_TYPE = 'LedgerCheckpointed';

export class KurrentDbEventStore implements EventStore, ChainSource, CheckpointStore {
  /** No snapshots (streams fold from their first event), no change signal, no synchronous reads. */
  readonly capabilities: EventStoreCapabilities = { chain: this, checkpoints: this };
  readonly #client: KurrentDBClient;
  readonly #subscriptions = new Set<KurrentDbAllSubscription>();
  /** Streams' last links as this process last read or wrote them (a later append by another process is found by a refusal). */
  readonly #links = new Map<string, Link>();
  /** Per stream, the settling of the last 'any' or 'stream_exists' append queued. */
  readonly #turns = new Map<string, Promise<void>>();

  /** Takes ownership of the client: close() disposes it. */
  constructor(client: KurrentDBClient) {
    this.#client = client;
  }

  async append(streamId: string, events: NewEvent[], expected: ExpectedRevision): Promise<AppendResult> {
    assertValidAppend(streamId, events, expected);
    // The chain links each event to the stream's last one, so an append must land right after the
    // event it was hashed against. 'any' and 'stream_exists' name no revision: they are made exact
    // from the last link, one at a time per stream in this process so they never race each other.
    if (expected === 'any' || expected === 'stream_exists') return this.#inTurn(streamId, () => this.#appendPinned(streamId, events, expected));
    // A known revision: its link is known when this process read or wrote the stream up to it (the
    // command handler loads a stream before it appends), so the append is one round trip.
    const last = expected === 'no_stream' ? null : await this.#linkAt(streamId, expected);
    const appended = await this.#write(streamId, events, last, expected === 'no_stream' ? NO_STREAM : BigInt(expected), expected);
    return this.#answer(streamId, events, appended);
  }

  /**
   * 'any' or 'stream_exists': at the stream's last link. Another process may append in between; its
   * events are real progress, so the append is tried again on the new last link, a few times.
   */
  async #appendPinned(streamId: string, events: NewEvent[], expected: 'any' | 'stream_exists'): Promise<AppendResult> {
    for (let attempt = 1; ; attempt++) {
      const last = this.#links.get(streamId) ?? (await this.#lastLink(streamId));
      if (expected === 'stream_exists' && !last) throw new WrongExpectedRevisionError(streamId, expected, -1);
      try {
        const appended = await this.#write(streamId, events, last, last ? BigInt(last.revision) : NO_STREAM, expected);
        return await this.#answer(streamId, events, appended);
      } catch (error) {
        if (!(error instanceof WrongExpectedRevisionError)) throw error;
        if (await this.#alreadyAppended(streamId, events)) {
          const found = await this.#lastLink(streamId);
          return { nextExpectedRevision: found?.revision ?? -1, position: await this.#positionOfRevision(streamId, found?.revision ?? 0) };
        }
        if (attempt >= OTHER_WRITER_RETRIES) throw error;
      }
    }
  }

  /** One append at the given link; the link it leaves is kept, a refusal forgets the stream's. */
  async #write(streamId: string, events: NewEvent[], last: Link | null, streamState: AppendStreamState, expected: ExpectedRevision): Promise<KurrentAppendResult> {
    const chained = chainEvents(streamId, events, last);
    try {
      const appended = await this.#client.appendToStream(streamId, chained, { streamState });
      // A stand-in link was answered as a retry: the stream's real last link is not these events'.
      if (last?.standIn) this.#links.delete(streamId);
      else this.#remember(streamId, { revision: Number(appended.nextExpectedRevision), hash: chainOf(chained.at(-1)?.metadata)?.hash ?? null });
      return appended;
    } catch (error) {
      this.#links.delete(streamId);
      if (error instanceof WrongExpectedVersionError) throw new WrongExpectedRevisionError(streamId, expected, fromCurrentState(error.actualState));
      throw error;
    }
  }

  /**
   * The link of the event at `revision`: remembered, or read. A stream at another revision refuses the
   * append, or answers it as the retry of one already written: either way nothing is chained to the
   * stand-in link returned then.
   */
  async #linkAt(streamId: string, revision: number): Promise<Link> {
    const known = this.#links.get(streamId);
    if (known?.revision === revision) return known;
    const last = await this.#lastLink(streamId);
    return last?.revision === revision ? last : { revision, hash: null, standIn: true };
  }

  /** Runs appends to one stream one after another. */
  async #inTurn<T>(streamId: string, run: () => Promise<T>): Promise<T> {
    const before = this.#turns.get(streamId) ?? Promise.resolve();
    const mine = before.then(run, run);
    const settled = mine.then(
      () => undefined,
      () => undefined,
    );
    this.#turns.set(streamId, settled);
    try {
      return await mine;
    } finally {
      if (this.#turns.get(streamId) === settled) this.#turns.delete(streamId);
    }
  }

  /** Keeps a stream's last link, the most recent LINKS_KEPT streams' only. */
  #remember(streamId: string, link: Link): void {
    this.#links.delete(streamId);
    this.#links.set(streamId, link);
    if (this.#links.size > LINKS_KEPT) this.#links.delete(this.#links.keys().next().value!);
  }

  async #answer(streamId: string, events: NewEvent[], appended: KurrentAppendResult): Promise<AppendResult> {
    const nextExpectedRevision = Number(appended.nextExpectedRevision);
    const at = appended.position;
    // The answer's position is the write's; it names the last event only when that event is its own
    // log record (commit = prepare, and a single event). Otherwise, and for a retried (idempotent)
    // append answered without a position, read back where the last event landed.
    const position =
      at !== undefined && at.commit === at.prepare && events.length === 1 && at.prepare <= BigInt(Number.MAX_SAFE_INTEGER)
        ? Number(at.prepare)
        : await this.#positionOfRevision(streamId, nextExpectedRevision);
    return { nextExpectedRevision, position };
  }

  async readStream(streamId: string, options: { fromRevision?: number; maxCount?: number } = {}): Promise<RecordedEvent[]> {
    const from = options.fromRevision ?? 0;
    if (!Number.isSafeInteger(from) || from < 0) throw new TypeError(`fromRevision ${from} must be a non-negative integer`);
    const { maxCount } = options;
    if (maxCount !== undefined && (!Number.isSafeInteger(maxCount) || maxCount < 1)) throw new TypeError(`maxCount ${maxCount} must be a positive integer`);
    const events: RecordedEvent[] = [];
    let lastLink: Link | undefined;
    try {
      const read = this.#client.readStream(streamId, { fromRevision: BigInt(from), direction: FORWARDS, ...(maxCount === undefined ? {} : { maxCount }) });
      for await (const resolved of read) {
        const recorded = toRecordedEvent(resolved);
        if (recorded) events.push(recorded);
        if (resolved.event) lastLink = { revision: Number(resolved.event.revision), hash: chainOf(resolved.event.metadata)?.hash ?? null };
      }
    } catch (error) {
      if (error instanceof StreamNotFoundError) return [];
      throw error;
    }
    // Read to its end: the next append to the stream needs no read of its last link.
    if (lastLink && (maxCount === undefined || events.length < maxCount)) this.#remember(streamId, lastLink);
    return events;
  }

  async readAll(options: { after: number; limit: number }): Promise<RecordedEvent[]> {
    const { after, limit } = options;
    assertPosition(after);
    if (!Number.isSafeInteger(limit) || limit < 1) throw new TypeError(`limit ${limit} must be a positive integer`);
    const events: RecordedEvent[] = [];
    // No maxCount: the client-side filter may drop some, so read on until `limit` are kept.
    const read = this.#client.readAll({ fromPosition: toReadPosition(after), direction: FORWARDS, filter: excludeSystemEvents() });
    const order = new AllOrder(after);
    for await (const resolved of read) {
      const recorded = toRecordedEvent(resolved);
      if (!recorded || !order.admits(resolved)) continue;
      events.push(recorded);
      if (events.length >= limit) break;
    }
    return events;
  }

  async headPosition(): Promise<number> {
    const read = this.#client.readAll({ fromPosition: END, direction: BACKWARDS, filter: excludeSystemEvents() });
    for await (const resolved of read) {
      const recorded = toRecordedEvent(resolved);
      if (recorded) return recorded.position;
    }
    return 0;
  }

  subscribeToAll(options: { after: number }): AllSubscription {
    assertPosition(options.after);
    const source = this.#client.subscribeToAll({ fromPosition: toReadPosition(options.after), filter: excludeSystemEvents() });
    const subscription = new KurrentDbAllSubscription(source, options.after, () => this.#subscriptions.delete(subscription));
    this.#subscriptions.add(subscription);
    return subscription;
  }

  async close(): Promise<void> {
    await Promise.all([...this.#subscriptions].map((subscription) => subscription.close()));
    await this.#client.dispose();
  }

  /** The stream's last revision and chain hash, or null when it does not exist. */
  async #lastLink(streamId: string): Promise<Link | null> {
    try {
      for await (const resolved of this.#client.readStream(streamId, { fromRevision: END, direction: BACKWARDS, maxCount: 1 })) {
        if (!resolved.event) continue;
        return { revision: Number(resolved.event.revision), hash: chainOf(resolved.event.metadata)?.hash ?? null };
      }
    } catch (error) {
      if (error instanceof StreamNotFoundError) return null;
      throw error;
    }
    return null;
  }

  /** Whether a retried append's events are already in the stream (KurrentDB's idempotence by id). */
  async #alreadyAppended(streamId: string, events: NewEvent[]): Promise<boolean> {
    const ids = new Set(events.map((e) => e.id));
    try {
      for await (const resolved of this.#client.readStream(streamId, { fromRevision: END, direction: BACKWARDS, maxCount: events.length + 50 })) {
        if (resolved.event && ids.has(resolved.event.id)) return true;
      }
    } catch (error) {
      if (error instanceof StreamNotFoundError) return false;
      throw error;
    }
    return false;
  }

  async readChain(after: number, limit: number): Promise<ChainedEvent[]> {
    assertPosition(after);
    const out: ChainedEvent[] = [];
    const read = this.#client.readAll({ fromPosition: toReadPosition(after), direction: FORWARDS, filter: excludeSystemEvents() });
    for await (const resolved of read) {
      const recorded = toRecordedEvent(resolved);
      if (!recorded || recorded.position <= after) continue;
      const link = chainOf(resolved.event?.metadata);
      out.push({
        position: recorded.position,
        streamId: recorded.streamId,
        revision: recorded.revision,
        type: recorded.type,
        data: JSON.stringify(recorded.data),
        metadata: JSON.stringify(recorded.metadata),
        hash: link?.hash ?? null,
        prevHash: link?.prev ?? null,
        recordedAt: recorded.recordedAt,
      });
      if (out.length >= limit) break;
    }
    return out;
  }

  /**
   * KurrentDB keeps every stream's head itself and offers no way to drop an event but truncating or
   * deleting the stream, which its own metadata records; the heads are the streams' last events.
   */
  async chainHeads(): Promise<ChainHead[]> {
    const heads = new Map<string, ChainHead>();
    for (let after = 0; ; ) {
      const batch = await this.readChain(after, 2000);
      if (batch.length === 0) break;
      for (const e of batch) if (e.hash) heads.set(e.streamId, { streamId: e.streamId, revision: e.revision, hash: e.hash });
      after = batch.at(-1)?.position ?? after;
    }
    return [...heads.values()];
  }

  /**
   * KurrentDB keeps no per-event log link (appends from many nodes interleave in `$all`, which no
   * append can be made conditional on), so the log chain is computed over the `$all` order: from the
   * newest checkpoint on, or from the start.
   */
  logHead(): Promise<LogLink | null> {
    return computedLogHead(this);
  }

  async listCheckpoints(): Promise<LedgerCheckpoint[]> {
    const found: LedgerCheckpoint[] = [];
    try {
      for await (const resolved of this.#client.readStream(CHECKPOINT_STREAM, { fromRevision: START, direction: FORWARDS })) {
        const data = resolved.event?.type === CHECKPOINT_TYPE ? (resolved.event.data as Partial<LedgerCheckpoint>) : null;
        if (data && typeof data.position === 'number' && typeof data.hash === 'string' && typeof data.mac === 'string' && typeof data.recordedAt === 'string') {
          found.push({ position: data.position, hash: data.hash, mac: data.mac, recordedAt: data.recordedAt });
        }
      }
    } catch (error) {
      if (error instanceof StreamNotFoundError) return [];
      throw error;
    }
    return found.sort((a, b) => a.position - b.position);
  }

  async recordCheckpoint(checkpoint: LedgerCheckpoint): Promise<void> {
    const data: JSONType = { position: checkpoint.position, hash: checkpoint.hash, mac: checkpoint.mac, recordedAt: checkpoint.recordedAt };
    await this.#client.appendToStream(CHECKPOINT_STREAM, [{ id: crypto.randomUUID(), contentType: 'application/json', type: CHECKPOINT_TYPE, data, metadata: {} }]);
  }

  async positionOf(streamId: string, revision: number): Promise<number | null> {
    try {
      return await this.#positionOfRevision(streamId, revision);
    } catch {
      return null;
    }
  }

  async #positionOfRevision(streamId: string, revision: number): Promise<number> {
    for await (const resolved of this.#client.readStream(streamId, { fromRevision: BigInt(revision), maxCount: 1 })) {
      const recorded = toRecordedEvent(resolved);
      if (recorded) return recorded.position;
    }
    throw new Error(`stream ${streamId}: event ${revision} was acknowledged but cannot be read back`);
  }
}

/** Connects lazily: the client dials KurrentDB on its first call. */
export function openKurrentDbEventStore(connectionString: string): KurrentDbEventStore {
  return new KurrentDbEventStore(KurrentDBClient.connectionString(connectionString));
}

const CLOSED = Symbol('closed');

/**
 * Wraps the client's subscription (a Node readable) so that close() ends the caller's for-await
 * loop at once: cancelling the gRPC call does not reliably end the readable, so the loop races each
 * read against close().
 */
class KurrentDbAllSubscription implements AllSubscription {
  readonly #source: AllStreamSubscription;
  readonly #order: AllOrder;
  readonly #forget: () => void;
  #started = false;
  #closed = false;
  #unsubscribed: Promise<void> | undefined;
  #markClosed: () => void = () => {};
  readonly #closedSignal = new Promise<typeof CLOSED>((resolve) => {
    this.#markClosed = () => resolve(CLOSED);
  });

  constructor(source: AllStreamSubscription, after: number, forget: () => void) {
    this.#source = source;
    this.#order = new AllOrder(after);
    this.#forget = forget;
    // Errors reach the loop through the iterator's next(); this listener only keeps an error that
    // comes before iteration starts, or from the cancellation in close(), from crashing the process.
    source.on('error', () => {});
  }

  [Symbol.asyncIterator](): AsyncIterator<RecordedEvent> {
    if (this.#started) throw new Error('a subscription can be iterated only once');
    this.#started = true;
    return this.#run();
  }

  async *#run(): AsyncGenerator<RecordedEvent> {
    const iterator = this.#source[Symbol.asyncIterator]();
    try {
      while (!this.#closed) {
        const pending = iterator.next();
        pending.catch(() => {}); // may settle after close(), when nobody listens
        const next = await Promise.race([pending, this.#closedSignal]);
        if (next === CLOSED || next.done) return;
        const recorded = toRecordedEvent(next.value);
        if (recorded && this.#order.admits(next.value) && !this.#closed) yield recorded;
      }
    } finally {
      await this.close();
    }
  }

  close(): Promise<void> {
    if (!this.#closed) {
      this.#closed = true;
      this.#markClosed();
      this.#forget();
      this.#unsubscribed = this.#source
        .unsubscribe()
        .catch(() => {})
        .finally(() => this.#source.destroy());
    }
    return this.#unsubscribed ?? Promise.resolve();
  }
}

function chainOf(metadata: unknown): { hash: string; prev: string | null } | undefined {
  if (!metadata || typeof metadata !== 'object' || Array.isArray(metadata) || metadata instanceof Uint8Array) return undefined;
  const link = (metadata as Record<string, unknown>)[CHAIN_KEY] ?? (metadata as Record<string, unknown>)[LEGACY_CHAIN_KEY];
  if (!link || typeof link !== 'object') return undefined;
  const { hash, prev } = link as { hash?: unknown; prev?: unknown };
  return typeof hash === 'string' ? { hash, prev: typeof prev === 'string' ? prev : null } : undefined;
}

/** The events as written: each with its chain link in the metadata, hashed as readChain reads it back. */
function chainEvents(streamId: string, events: NewEvent[], last: Link | null): EventData[] {
  let prev = last?.hash ?? null;
  return events.map((event, i) => {
    const revision = (last?.revision ?? -1) + 1 + i;
    const metadata = event.metadata ?? {};
    const hash = chainHash(prev, { streamId, revision, type: event.type, data: JSON.stringify(event.data), metadata: JSON.stringify(metadata) });
    const data = toEventData(event);
    const link = { hash, prev };
    prev = hash;
    return { ...data, metadata: { ...metadata, [CHAIN_KEY]: link } };
  });
}

function toEventData(event: NewEvent): EventData {
  return {
    id: event.id,
    contentType: 'application/json',
    type: event.type,
    // The client JSON.stringifies data as is, so numbers, booleans and null round-trip too,
    // although its type only admits objects, arrays and strings.
    data: event.data as JSONType,
    metadata: event.metadata ?? {},
  };
}

function fromCurrentState(state: CurrentStreamState | undefined): number {
  return typeof state === 'bigint' ? Number(state) : -1;
}

/** An event's place in `$all` as the server gives it. */
function fullPosition(resolved: ResolvedEvent | AllStreamResolvedEvent): { commit: bigint; prepare: bigint } {
  const position = resolved.event?.position;
  if (position) return { commit: position.commit, prepare: position.prepare };
  const commit = resolved.commitPosition;
  if (commit === undefined) throw new Error(`KurrentDB sent event ${resolved.event?.id} without its position; the adapter needs KurrentDB 22.6 or later`);
  return { commit, prepare: commit };
}

/**
 * What a read or subscription from "after p" keeps: events whose prepare is beyond p (the port's
 * numbers), each strictly after the last one kept in (commit, prepare) order, so a server that
 * re-sends an event (a reconnect, an inclusive start) never delivers it twice.
 */
class AllOrder {
  #last: { commit: bigint; prepare: bigint } | null = null;
  readonly #after: bigint;
  constructor(after: number) {
    this.#after = BigInt(after);
  }

  admits(resolved: ResolvedEvent | AllStreamResolvedEvent): boolean {
    const position = fullPosition(resolved);
    if (position.prepare <= this.#after) return false;
    const last = this.#last;
    if (last && (position.commit < last.commit || (position.commit === last.commit && position.prepare <= last.prepare))) return false;
    this.#last = position;
    return true;
  }
}

function toReadPosition(after: number): ReadPosition {
  return after === 0 ? START : { commit: BigInt(after), prepare: BigInt(after) };
}

function assertPosition(after: number): void {
  if (!Number.isSafeInteger(after) || after < 0) throw new TypeError(`position ${after} must be a non-negative integer`);
}

/** Our view of a KurrentDB event, or undefined for what the port does not carry (system events, links). */
function toRecordedEvent(resolved: ResolvedEvent | AllStreamResolvedEvent): RecordedEvent | undefined {
  const event = resolved.event;
  if (!event || event.type.startsWith('$') || event.streamId.startsWith('$') || event.streamId === CHECKPOINT_STREAM) return undefined;
  const { prepare } = fullPosition(resolved);
  if (!event.isJson) throw new TypeError(`event ${event.id} in ${event.streamId} is not JSON`);
  const metadata = event.metadata;
  return {
    id: event.id,
    streamId: event.streamId,
    revision: Number(event.revision),
    position: Number(prepare),
    type: event.type,
    data: event.data as Json,
    metadata:
      metadata && typeof metadata === 'object' && !Array.isArray(metadata) && !(metadata instanceof Uint8Array)
        ? withoutChain(metadata as EventMetadata)
        : {},
    recordedAt: event.created.toISOString(),
  };
}

/** Callers see the metadata they appended; the chain link is the store's own. */
function withoutChain(metadata: EventMetadata): EventMetadata {
  if (!Object.hasOwn(metadata, CHAIN_KEY) && !Object.hasOwn(metadata, LEGACY_CHAIN_KEY)) return metadata;
  const { [CHAIN_KEY]: _link, [LEGACY_CHAIN_KEY]: _legacy, ...rest } = metadata;
  return rest;
}
