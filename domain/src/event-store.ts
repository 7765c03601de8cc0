/**
 * The event-store port. Three adapters implement it (embedded SQLite, KurrentDB, PostgreSQL) in apps/api and all
 * pass one contract suite. Types only: the domain stays free of I/O.
 *
 * Revisions are 0-based per stream (the first event of a stream has revision 0, as in KurrentDB).
 * Positions are global, strictly increasing in commit order, and greater than 0; "after: 0" reads
 * from the very beginning.
 */

/** JSON-safe values, the only kind an event may carry. */
export type Json = string | number | boolean | null | Json[] | { [key: string]: Json };

export interface EventMetadata {
  /** Who caused the event: a user id, a staff user id, or a system name such as "cli". */
  actor?: string;
  /** Id of the command or request that caused the event, for tracing. */
  causationId?: string;
  [key: string]: Json | undefined;
}

export interface NewEvent<Type extends string = string, Data = Json> {
  /** A UUID. Appending an event id that is already in the stream is idempotent. */
  id: string;
  type: Type;
  data: Data;
  metadata?: EventMetadata;
}

export interface RecordedEvent<Type extends string = string, Data = Json> {
  id: string;
  streamId: string;
  revision: number;
  position: number;
  type: Type;
  data: Data;
  metadata: EventMetadata;
  /** ISO-8601 time the store recorded the event. Domain logic uses the time carried in `data`. */
  recordedAt: string;
}

/** Where an event is and what it is, without its payload: for followers that need no more. */
export type EventHeader = Pick<RecordedEvent, 'position' | 'streamId' | 'type'>;

/**
 * What the appender expects of the stream: `no_stream` (it must not exist), `stream_exists`,
 * `any`, or the exact revision of its last event.
 */
export type ExpectedRevision = 'no_stream' | 'stream_exists' | 'any' | number;

export interface AppendResult {
  /** Revision of the last event now in the stream. */
  nextExpectedRevision: number;
  /** Global position of the last event appended. */
  position: number;
}

/** The stream was not where the appender expected it; nothing was written. */
export class WrongExpectedRevisionError extends Error {
  override readonly name = 'WrongExpectedRevisionError';
  constructor(
    readonly streamId: string,
    readonly expected: ExpectedRevision,
    /** The stream's current last revision, or -1 when it does not exist. */
    readonly actual: number,
  ) {
    super(`stream ${streamId}: expected revision ${String(expected)}, found ${actual}`);
  }
}

/** A live feed of every event after a position; iterate it with `for await`, end it with close(). */
export interface AllSubscription extends AsyncIterable<RecordedEvent> {
  close(): Promise<void>;
}

/** A stream's state folded up to `revision`, saved so a cold start need not read every event. */
export interface StreamSnapshot {
  revision: number;
  /** The SnapshotCodec version that wrote it. */
  version: number;
  state: Json;
}

/** Keeps each stream's latest folded state, so a cold start need not read every event. */
export interface SnapshotStore {
  /** The latest snapshot kept for a stream, or null. */
  readSnapshot(streamId: string): Promise<StreamSnapshot | null>;
  /** Keeps the snapshot unless a newer one (higher revision) is already kept. */
  writeSnapshot(streamId: string, snapshot: StreamSnapshot): Promise<void>;
  /** Every snapshot kept, as stored (verify-ledger and the sealing audit read them). */
  listSnapshots(): Promise<Array<StreamSnapshot & { streamId: string }>>;
}

/**
 * What changed, said cheaply (the embedded SQLite store): followers (the command handler's stream
 * cache, the session cache) skip reads when nothing moved.
 */
export interface ChangeSignal {
  /**
   * Moves when another process (another connection) committed; this process's own appends never move
   * it (see localRevisionOf). It may be looked at once per turn of the event loop: another process's
   * commit is then seen from the next turn on (a decision made on a state that missed it fails the
   * append's revision check and is made again).
   */
  externalVersion(): number;
  /**
   * externalVersion for one stream: moves when another process appended to it. An adapter that cannot
   * tell which streams another process wrote answers externalVersion(), which moves for them all.
   */
  externalVersionOf(streamId: string): number;
  /** The last revision this process appended to a stream, or undefined when unknown since localRevisionsEpoch moved. */
  localRevisionOf(streamId: string): number | undefined;
  /** Moves whenever localRevisionOf forgot what it knew. */
  readonly localRevisionsEpoch: number;
  /** The highest position this process has appended (0: none). */
  readonly localHead: number;
  /** Calls `listener` with this process's head after each commit of its appends; returns the way to stop. */
  onAppended(listener: (position: number) => void): () => void;
}

/** Reads answered synchronously, for followers that must not wait a turn. */
export interface SyncReads {
  /** Synchronous headPosition. */
  headNow(): number;
  /**
   * The events of the given types in (after, upTo], in order. `sealed: true` leaves personal fields as
   * stored (a decorator that seals them does not open them): for followers that read only types,
   * streams, positions and fields that are not personal.
   */
  readTypesNow(after: number, upTo: number, types: readonly string[], options?: { sealed?: boolean }): RecordedEvent[];
  /** readTypesNow's events as headers only (nothing personal in them): no payload is read or parsed. */
  readHeadersNow(after: number, upTo: number, types: readonly string[]): EventHeader[];
}

/** A log in a file of this machine that another thread can open (to read ahead on a thread of its own). */
export interface EmbeddedFile {
  readonly file: string;
}

/** Subscriptions that can be told to look at the log now rather than at their next poll. */
export interface SubscriptionWake {
  wakeSubscriptions(): void;
}

// ---- the chain: tamper evidence (apps/api/src/event-store/chain.ts computes and verifies it) ----

/** The bytes hashed: stored JSON texts, so what is verified is exactly what was written. */
export interface ChainContent {
  streamId: string;
  revision: number;
  type: string;
  data: string;
  metadata: string;
}

/** An event as the verifier reads it: its stored content and chain fields. */
export interface ChainedEvent extends ChainContent {
  position: number;
  hash: string | null;
  /**
   * The stream's previous hash as stored beside the event: null for its first event, and where the
   * store keeps none (the embedded store: the hash covers it).
   */
  prevHash: string | null;
  /**
   * The stored log link: the position of the previous link in the log (0: none) and the log hash.
   * Null on a group commit's rows before its last, whose link covers them all (the embedded store).
   * Absent when the store keeps no log link (KurrentDB, PostgreSQL: the log chain is computed).
   */
  logPrev?: number | null;
  logHash?: string | null;
  /** When it was recorded (ISO). Not chained: it only says how old an event no checkpoint covers is. */
  recordedAt?: string;
}

/** A place in the log's chain: an event's position and its log hash. */
export interface LogLink {
  position: number;
  hash: string;
}

/** A signed record of the log's head: whoever holds the key vouches the log ran to here with this hash. */
export interface LedgerCheckpoint extends LogLink {
  /** HMAC-SHA256 of the head with LEDGER_SIGNING_KEY (checkpointMac). */
  mac: string;
  recordedAt: string;
}

export interface ChainHead {
  streamId: string;
  revision: number;
  hash: string;
}

/** The log's newest event as the store recorded it with the append that wrote it. */
export interface RecordedLogEnd extends LogLink {
  streamId: string;
  revision: number;
}

/**
 * A store the verifier can walk: the per-stream chains as stored, and where they must end: each
 * stream's recorded head, or, where every event keeps a log link (the embedded store), the log's
 * recorded end, which with the links pins every stream's end.
 */
export interface ChainSource {
  readChain(after: number, limit: number): Promise<ChainedEvent[]>;
  /** Each stream's head as recorded with its appends; null where the store records the log's end instead (recordedLogEnd). */
  chainHeads(): Promise<ChainHead[] | null>;
  /** The log's end as recorded with the last append (null: none recorded); present where chainHeads answers null. */
  recordedLogEnd?(): Promise<RecordedLogEnd | null>;
  /** Where a stream's event with this revision is in the log, if anywhere. */
  positionOf(streamId: string, revision: number): Promise<number | null>;
}

/** A store that keeps signed checkpoints and can say where its log chain ends. */
export interface CheckpointStore {
  /** The newest event's position and log hash; null for an empty log. */
  logHead(): Promise<LogLink | null>;
  listCheckpoints(): Promise<LedgerCheckpoint[]>;
  /** Keeps a checkpoint; one already kept for that position stays as it is. */
  recordCheckpoint(checkpoint: LedgerCheckpoint): Promise<void>;
}

/**
 * What an adapter offers beyond the port, each present exactly when it has it. The app asks for them
 * once at start (`capability(store, 'snapshots')`) and falls back to plain reads when one is missing.
 */
export interface EventStoreCapabilities {
  snapshots?: SnapshotStore;
  changeSignal?: ChangeSignal;
  syncReads?: SyncReads;
  wake?: SubscriptionWake;
  chain?: ChainSource;
  checkpoints?: CheckpointStore;
  embeddedFile?: EmbeddedFile;
}

/**
 * The port: what every adapter must have. Everything else is a capability.
 */
export interface EventStore {
  /**
   * What this adapter offers beyond the port. A wrapper that changes nothing about what events look
   * like (a metrics proxy) hands on this very object, so it also identifies a view of the log: the
   * command handler keeps one decision cache per capabilities object.
   */
  readonly capabilities: EventStoreCapabilities;
  append(streamId: string, events: NewEvent[], expected: ExpectedRevision): Promise<AppendResult>;
  /**
   * The events of one stream from `fromRevision` (default 0), oldest first, at most `maxCount` of them
   * (default all); an empty array when the stream does not exist.
   */
  readStream(streamId: string, options?: { fromRevision?: number; maxCount?: number }): Promise<RecordedEvent[]>;
  /**
   * Up to `limit` events with a position greater than `after`, in commit order. `sealed: true` (as
   * SyncReads.readTypesNow's) leaves personal fields as stored: for followers that use only types,
   * streams, positions and fields that are not personal, so a decorator that seals skips opening.
   */
  readAll(options: { after: number; limit: number; sealed?: boolean }): Promise<RecordedEvent[]>;
  /** Position of the newest event in the store, or 0 when it is empty. */
  headPosition(): Promise<number>;
  /**
   * Catch up from `after`, then live: every later event once, in order, including other processes'
   * appends. `sealed` as readAll's.
   */
  subscribeToAll(options: { after: number; sealed?: boolean }): AllSubscription;
  close(): Promise<void>;
}

/** A capability of a store, or undefined when its adapter does not offer it. */
export function capability<K extends keyof EventStoreCapabilities>(store: EventStore, name: K): EventStoreCapabilities[K] | undefined {
  // Optional chaining: hand-made stores in tests may carry no capabilities at all.
  return (store.capabilities as EventStoreCapabilities | undefined)?.[name];
}
