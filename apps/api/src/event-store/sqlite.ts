/**
 * The embedded event store: one SQLite file behind the event-store port.
 *
 * - One table; its rowid is the global position. SQLite lets one writer in at a time, so rowids are
 *   handed out in commit order and a reader never sees a later position before an earlier one.
 * - Every write runs in `BEGIN IMMEDIATE`, which takes the file's write lock before the stream's
 *   revision is read. Two processes (or two connections) can therefore never both pass the same
 *   concurrency check, including for the first append to a new stream; the unique
 *   (stream_id, revision) pair is the backstop.
 * - WAL with `synchronous=FULL`: a commit returns only after the WAL is fsynced, so an acknowledged
 *   append survives power loss.
 * - Group commit (on by default): appends made in the same tick share one transaction and so one
 *   fsync; each runs inside its own SAVEPOINT, so it keeps its own concurrency check and is written
 *   entirely or not at all, whatever its neighbours do.
 *
 * better-sqlite3 is synchronous: on the store's own connection a write holds the event loop for its
 * fsync (another process's lock is waited for with timers). With `writerThread` the batches are
 * committed by a thread with a connection of its own (sqlite-writer-thread.ts), one at a time, while
 * the next batch gathers; reads stay on this connection. KurrentDB is the adapter for many API nodes.
 */
import type Database from 'better-sqlite3';
import {
  type AllSubscription,
  type AppendResult,
  type ChangeSignal,
  type EventStore,
  type EventStoreCapabilities,
  type SnapshotStore,
  type SubscriptionWake,
  type SyncReads,
  type EventHeader,
  type ExpectedRevision,
  type Json,
  type NewEvent,
  type RecordedEvent,
  type StreamSnapshot,
} from '@kamai/domain';
import type { Worker } from 'node:worker_threads';
import { OncePerTurn } from '../once-per-turn.ts';
import { startTsThread } from '../ts-thread.ts';
import { assertValidAppend } from './common.ts';
import { type EventHeaderRow, type EventRow, HEADER_COLUMNS, READ_ALL_SQL, READ_COLUMNS, toRecordedEvent } from './sqlite-rows.ts';
import { SqliteChain, addChains } from './sqlite-chain.ts';
import { chainRest } from './chain.ts';
import { AppendFailure, type AppendRequest, AppendWriter, type Outcome, SNAPSHOT_UPSERT_SQL, type SerializedEvent, fromWire, openAppendingConnection } from './sqlite-writer.ts';
import type { FromWriter, ToWriter, WriterThreadData } from './sqlite-writer-thread.ts';

export interface SqliteEventStoreOptions {
  /** Batch appends made in the same tick into one transaction, one SAVEPOINT each. Default true. */
  groupCommit?: boolean;
  /** How often a subscription looks for other processes' appends, in ms. Default 50. */
  pollIntervalMs?: number;
  /** How long to wait for another connection's write lock before failing, in ms. Default 5000. */
  busyTimeoutMs?: number;
  /**
   * SQLite's automatic checkpoint threshold, in WAL pages (SQLite's default 1000). Raised by a process
   * that runs a WAL checkpointer thread (projections/src/wal-checkpointer.ts), so checkpoints
   * do not run inside its commits on the event loop.
   */
  walAutocheckpointPages?: number;
  /**
   * Commit on a worker thread with a connection of its own (group commit only): the inserts, the
   * chain hashes and the commit's fsync leave the event loop, which keeps serving while a batch is
   * committed and gathers the next one meanwhile. Default false.
   */
  writerThread?: boolean;
  /**
   * How often a waiting subscription checks for other processes' commits, in ms (default 2). A
   * follower that this process's own appends wake by other means (the projection thread) can look
   * less often.
   */
  changeCheckMs?: number;
}

/** The events table. Exported so the append benchmark's plain-SQLite ceiling writes the same rows. */
export const EVENTS_TABLE_SQL = `
  CREATE TABLE IF NOT EXISTS events (
    position    INTEGER PRIMARY KEY,
    event_id    TEXT    NOT NULL UNIQUE,
    stream_id   TEXT    NOT NULL,
    revision    INTEGER NOT NULL,
    type        TEXT    NOT NULL,
    data        TEXT    NOT NULL,
    metadata    TEXT    NOT NULL,
    recorded_at TEXT    NOT NULL,
    UNIQUE (stream_id, revision)
  ) STRICT;
  -- Followers of a few event types (the session cache) read those alone, however far behind they
  -- are: without it, catching up on another process's 50,000 appends scanned them all (18 ms).
  CREATE INDEX IF NOT EXISTS events_by_type ON events (type, position);
`;

/**
 * Snapshots of long streams' decision state (the command handler's cold starts). Not events: any
 * row may be deleted at any time, and the stream is then folded from its events.
 */
const SNAPSHOTS_TABLE_SQL = `
  CREATE TABLE IF NOT EXISTS snapshots (
    stream_id TEXT    PRIMARY KEY,
    revision  INTEGER NOT NULL,
    version   INTEGER NOT NULL,
    state     TEXT    NOT NULL
  ) STRICT;
`;

/** Appends per group-commit transaction, so one batch cannot hold the write lock for long. */
const MAX_GROUP = 512;
/** Streams whose last local revision is remembered (localRevisionOf). */
const MAX_LOCAL_REVISIONS = 100_000;
/** How often a waiting subscription looks at the change signal for other processes' commits, in ms. */
const CHANGE_CHECK_MS = 2;
/** Rows a subscription reads per query. */
const SUBSCRIPTION_BATCH = 256;

interface PendingAppend extends AppendRequest {
  resolve: (result: AppendResult) => void;
  reject: (error: unknown) => void;
}

export class SqliteEventStore implements EventStore, SnapshotStore, ChangeSignal, SyncReads, SubscriptionWake {
  /** The chain and its checkpoints live in sqlite-chain.ts; the rest is this class's own. */
  readonly capabilities: EventStoreCapabilities;
  readonly file: string;
  /** See SqliteEventStoreOptions.changeCheckMs. @internal */
  readonly changeCheckMs: number;
  readonly #db: Database.Database;
  readonly #groupCommit: boolean;
  readonly #pollIntervalMs: number;
  readonly #queue: PendingAppend[] = [];
  readonly #subscriptions = new Set<SqliteAllSubscription>();
  readonly #appendListeners = new Set<(position: number) => void>();
  /** Statements reading given event types in a position range, one per set of types: whole events, and headers. */
  readonly #typedReads = new Map<string, Database.Statement<unknown[], EventRow>>();
  readonly #headerReads = new Map<string, Database.Statement<unknown[], EventHeaderRow>>();
  #localHead = 0;
  /** The last revision this process appended per stream (bounded: cleared when full, see localRevisionOf). */
  readonly #localRevisions = new Map<string, number>();
  #localRevisionsCleared = 0;
  #flushScheduled = false;
  /** Set while a batch waits, off the event loop, for another process's write lock. */
  #lockWait: { since: number; timer: NodeJS.Timeout; attempt: number } | null = null;
  readonly #busyTimeoutMs: number;
  #closed = false;
  readonly #writer: AppendWriter;
  /** The writer thread, when asked for (options.writerThread). */
  #thread: Worker | null = null;
  /** The batch the writer thread is committing; the next one gathers meanwhile. */
  #inFlight: { id: number; batch: PendingAppend[] } | null = null;
  #nextBatchId = 0;
  #nextSnapshotId = 0;
  /**
   * Snapshots waiting to be written by the next group commit on the event loop, newest per stream:
   * written in that transaction, they cost no fsync of their own (each alone did, one per hundred
   * events of a stream).
   */
  readonly #pendingSnapshots = new Map<string, { revision: number; version: number; state: string; settle: Array<(error?: unknown) => void> }>();
  readonly #snapshotCalls = new Map<number, (error?: string) => void>();
  #threadFailure: Error | null = null;
  #threadClosed: Promise<void> | null = null;
  /** With a writer thread: externalVersion's counter, and the data_version it last looked at. */
  #external = { counter: 0, dataVersion: -1 };
  /** externalVersion's answer this turn (see OncePerTurn). */
  readonly #versionTurn = new OncePerTurn();
  #version = 0;
  /** Written by the writer thread (see WriterThreadData.shared). */
  #shared: BigInt64Array | null = null;

  readonly #sql: {
    readStream: Database.Statement<[string, number, number], EventRow>;
    readAll: Database.Statement<[number, number], EventRow>;
    dataVersion: Database.Statement<[], number>;
    readSnapshot: Database.Statement<[string], { revision: number; version: number; state: string }>;
    writeSnapshot: Database.Statement<[string, number, number, string]>;
  };

  constructor(file: string, options: SqliteEventStoreOptions = {}) {
    this.file = file;
    this.#groupCommit = options.groupCommit ?? true;
    this.#pollIntervalMs = options.pollIntervalMs ?? 50;
    this.changeCheckMs = Math.max(1, options.changeCheckMs ?? CHANGE_CHECK_MS);
    this.#busyTimeoutMs = Math.max(0, Math.trunc(options.busyTimeoutMs ?? 5000));
    const db = openAppendingConnection(file, this.#busyTimeoutMs, options.walAutocheckpointPages);
    this.#db = db;
    try {
      db.transaction(() => {
        db.exec(EVENTS_TABLE_SQL + SNAPSHOTS_TABLE_SQL);
        addChains(db);
      }).immediate();
    } catch (err) {
      db.close();
      throw err;
    }
    this.#writer = new AppendWriter(db, this.#busyTimeoutMs);
    const chain = new SqliteChain(db, () => this.#assertOpen());
    this.capabilities = { snapshots: this, changeSignal: this, syncReads: this, wake: this, chain, checkpoints: chain, embeddedFile: this };
    this.#sql = {
      readStream: db.prepare<[string, number, number], EventRow>(
        `SELECT ${READ_COLUMNS} FROM events WHERE stream_id = ? AND revision >= ? ORDER BY revision LIMIT ?`,
      ),
      readAll: db.prepare<[number, number], EventRow>(READ_ALL_SQL),
      dataVersion: db.prepare<[], number>('PRAGMA data_version').pluck(),
      readSnapshot: db.prepare('SELECT revision, version, state FROM snapshots WHERE stream_id = ?'),
      writeSnapshot: db.prepare(SNAPSHOT_UPSERT_SQL),
    };
    if (options.writerThread && this.#groupCommit) this.#startWriterThread(options);
  }

  #startWriterThread(options: SqliteEventStoreOptions): void {
    const shared = new SharedArrayBuffer(16);
    this.#shared = new BigInt64Array(shared);
    // What the log held when the thread started counts as seen; anything later that the writer did
    // not write is another's (the first externalVersion call looks, whatever data_version says).
    const startHead = this.#writer.head();
    Atomics.store(this.#shared, 0, BigInt(startHead));
    const data: WriterThreadData = {
      shared,
      startHead,
      file: this.file,
      busyTimeoutMs: this.#busyTimeoutMs,
      ...(options.walAutocheckpointPages !== undefined && { walAutocheckpointPages: options.walAutocheckpointPages }),
    };
    const thread = startTsThread('./sqlite-writer-thread.ts', import.meta.url, data);
    this.#thread = thread;
    // Idle, it never keeps the process alive; a batch in flight does (see #post).
    thread.unref();
    this.#threadClosed = new Promise<void>((resolve) => thread.once('exit', () => resolve()));
    thread.on('message', (message: FromWriter) => {
      if (message.kind === 'done') {
        const flight = this.#inFlight;
        if (!flight || flight.id !== message.id) return;
        this.#landed();
        this.#settle(
          flight.batch,
          message.outcomes.map((o) => (o.ok ? o.result : new AppendFailure(fromWire(o.error)))),
        );
      } else if (message.kind === 'snapshotted') {
        this.#snapshotCalls.get(message.id)?.(message.error);
        this.#snapshotCalls.delete(message.id);
      } else if (message.kind === 'failed') {
        const flight = this.#inFlight;
        if (message.id !== undefined && flight?.id === message.id) {
          // The transaction failed as a whole: nothing of this batch is on disk.
          this.#landed();
          const error = message.error ? fromWire(message.error) : new Error(message.message);
          for (const pending of flight.batch) pending.reject(error);
        } else {
          this.#threadDied(new Error(`the event store's writer thread failed: ${message.message}`));
        }
      }
    });
    thread.on('error', (err) => this.#threadDied(err));
    thread.on('exit', () => this.#threadDied(new Error("the event store's writer thread exited")));
  }

  /** The batch in flight is answered: the next one (gathered meanwhile) goes. */
  #landed(): void {
    this.#inFlight = null;
    if (this.#snapshotCalls.size === 0) this.#thread?.unref();
    if (this.#queue.length > 0) this.#scheduleFlush();
  }

  #threadDied(err: Error): void {
    if (this.#threadFailure) return;
    this.#threadFailure = err;
    const flight = this.#inFlight;
    this.#inFlight = null;
    // Whether an in-flight batch reached the disk is unknown: its callers get the error, as after a
    // lost connection, and a retry with the same event ids is idempotent.
    for (const pending of [...(flight?.batch ?? []), ...this.#queue.splice(0)]) pending.reject(err);
    for (const answer of this.#snapshotCalls.values()) answer(err.message);
    this.#snapshotCalls.clear();
  }

  async readSnapshot(streamId: string): Promise<StreamSnapshot | null> {
    this.#assertOpen();
    const row = this.#sql.readSnapshot.get(streamId);
    return row ? { revision: row.revision, version: row.version, state: JSON.parse(row.state) as Json } : null;
  }

  /** Every snapshot kept, as stored (verify-ledger checks that each opens). */
  async listSnapshots(): Promise<Array<StreamSnapshot & { streamId: string }>> {
    this.#assertOpen();
    return this.#db
      .prepare<[], { stream_id: string; revision: number; version: number; state: string }>('SELECT stream_id, revision, version, state FROM snapshots ORDER BY stream_id')
      .all()
      .map((row) => ({ streamId: row.stream_id, revision: row.revision, version: row.version, state: JSON.parse(row.state) as Json }));
  }

  async writeSnapshot(streamId: string, snapshot: StreamSnapshot): Promise<void> {
    this.#assertOpen();
    const state = JSON.stringify(snapshot.state);
    const thread = this.#thread;
    if (thread && !this.#threadFailure) {
      // On the writer thread, whose commits hold the write lock most of the time under load: a
      // write here would wait for it on the event loop.
      const id = ++this.#nextSnapshotId;
      thread.ref();
      await new Promise<void>((resolve, reject) => {
        this.#snapshotCalls.set(id, (error) => (error === undefined ? resolve() : reject(new Error(error))));
        thread.postMessage({ kind: 'snapshot', id, streamId, revision: snapshot.revision, version: snapshot.version, state } satisfies ToWriter);
      }).finally(() => {
        if (!this.#inFlight && this.#snapshotCalls.size === 0) thread.unref();
      });
      return;
    }
    if (this.#groupCommit) {
      await new Promise<void>((resolve, reject) => {
        const settle = (error?: unknown) => (error === undefined ? resolve() : reject(error));
        const waiting = this.#pendingSnapshots.get(streamId)?.settle ?? [];
        this.#pendingSnapshots.set(streamId, { revision: snapshot.revision, version: snapshot.version, state, settle: [...waiting, settle] });
        this.#scheduleFlush();
      });
      return;
    }
    // Outside any append transaction (those run synchronously): an autocommit upsert of one row.
    this.#sql.writeSnapshot.run(streamId, snapshot.revision, snapshot.version, state);
  }

  append(streamId: string, events: NewEvent[], expected: ExpectedRevision): Promise<AppendResult> {
    return new Promise<AppendResult>((resolve, reject) => {
      if (this.#closed) throw new Error('the event store is closed');
      assertValidAppend(streamId, events, expected);
      // Serialise before taking the lock, so a bad payload fails alone and the lock is held briefly.
      const serialized = events.map(serializeEvent);
      const pending: PendingAppend = { streamId, expected, events: serialized, resolve, reject };
      if (this.#threadFailure) throw this.#threadFailure;
      if (this.#groupCommit) {
        this.#queue.push(pending);
        this.#scheduleFlush();
      } else {
        this.#commit([pending]);
      }
    });
  }

  async readStream(streamId: string, options: { fromRevision?: number; maxCount?: number } = {}): Promise<RecordedEvent[]> {
    this.#assertOpen();
    const from = options.fromRevision ?? 0;
    if (!Number.isSafeInteger(from) || from < 0) throw new TypeError(`fromRevision ${from} must be a non-negative integer`);
    const max = options.maxCount ?? -1; // SQLite reads a negative LIMIT as none
    if (!Number.isSafeInteger(max) || max === 0 || max < -1) throw new TypeError(`maxCount ${max} must be a positive integer`);
    return this.#sql.readStream.all(streamId, from, max).map(toRecordedEvent);
  }

  async readAll(options: { after: number; limit: number }): Promise<RecordedEvent[]> {
    this.#assertOpen();
    return this.readAllNow(options.after, options.limit);
  }

  async headPosition(): Promise<number> {
    this.#assertOpen();
    return this.#writer.head();
  }

  /** Synchronous headPosition. */
  headNow(): number {
    this.#assertOpen();
    return this.#writer.head();
  }

  /**
   * A change signal as cheap as a call can be: SQLite's `data_version` of this store's connection,
   * which moves only when another connection (another process) committed to the file since. This
   * process's own appends do not move it: see `localHead`. Followers (the session cache, the command
   * handler) compare it with what they saw last and read nothing while neither moved.
   */
  externalVersion(): number {
    this.#assertOpen();
    // One look per turn of the event loop: every command of a turn asks, and the statement is not
    // free (it takes the WAL's read lock).
    this.#versionTurn.lookFirst(() => {
      this.#version = this.#lookAtExternalVersion();
    });
    return this.#version;
  }

  #lookAtExternalVersion(): number {
    const dataVersion = this.#sql.dataVersion.get() ?? 0;
    const shared = this.#shared;
    if (!shared) return dataVersion;
    // The writer thread is another connection: its commits move data_version too. So a move counts
    // as another process's only when the log ends past the writer's own last commit; appends by
    // others before one of the writer's commits are counted by the writer itself (shared[1]).
    if (dataVersion !== this.#external.dataVersion) {
      this.#external.dataVersion = dataVersion;
      const own = Number(Atomics.load(shared, 0));
      if (this.#writer.head() > Math.max(own, this.#localHead)) this.#external.counter++;
    }
    return this.#external.counter + Number(Atomics.load(shared, 1));
  }

  /**
   * Calls `listener` with the local head after each commit of this store's appends; returns the
   * way to stop. For followers on other threads, which this store's subscriptions cannot wake.
   */
  onAppended(listener: (position: number) => void): () => void {
    this.#appendListeners.add(listener);
    return () => this.#appendListeners.delete(listener);
  }

  /** Subscriptions look at the log now rather than at their next poll (another connection appended). */
  wakeSubscriptions(): void {
    for (const subscription of this.#subscriptions) subscription.notify();
  }

  /** The highest position this store (this process) has appended; 0 before its first append. */
  get localHead(): number {
    return this.#localHead;
  }

  /**
   * The last revision this process appended to a stream, or undefined when it appended none since
   * `localRevisionsEpoch` last moved (the record is bounded; clearing it moves the epoch, so a
   * follower that noted the epoch knows its answer may be incomplete).
   */
  localRevisionOf(streamId: string): number | undefined {
    return this.#localRevisions.get(streamId);
  }

  get localRevisionsEpoch(): number {
    return this.#localRevisionsCleared;
  }

  /**
   * The events of the given types in (after, upTo], in order, read synchronously: for followers that
   * care about a few types only (the session cache) and must not skip past a range unread.
   */
  readTypesNow(after: number, upTo: number, types: readonly string[]): RecordedEvent[] {
    this.#assertOpen();
    assertPosition(after);
    if (types.length === 0 || upTo <= after) return [];
    return this.#typedRead(this.#typedReads, READ_COLUMNS, types).all(after, upTo, ...types).map(toRecordedEvent);
  }

  /** readTypesNow's events as headers: three columns read, nothing parsed. */
  readHeadersNow(after: number, upTo: number, types: readonly string[]): EventHeader[] {
    this.#assertOpen();
    assertPosition(after);
    if (types.length === 0 || upTo <= after) return [];
    return this.#typedRead(this.#headerReads, HEADER_COLUMNS, types)
      .all(after, upTo, ...types)
      .map((row) => ({ position: row.position, streamId: row.stream_id, type: row.type }));
  }

  #typedRead<Row>(cache: Map<string, Database.Statement<unknown[], Row>>, columns: string, types: readonly string[]): Database.Statement<unknown[], Row> {
    const key = types.join('\n');
    let statement = cache.get(key);
    if (!statement) {
      statement = this.#db.prepare<unknown[], Row>(
        `SELECT ${columns} FROM events WHERE position > ? AND position <= ? AND type IN (${types.map(() => '?').join(', ')}) ORDER BY position`,
      );
      cache.set(key, statement);
    }
    return statement;
  }

  subscribeToAll(options: { after: number }): AllSubscription {
    this.#assertOpen();
    assertPosition(options.after);
    const subscription = new SqliteAllSubscription(this, options.after, this.#pollIntervalMs);
    this.#subscriptions.add(subscription);
    return subscription;
  }

  async close(): Promise<void> {
    if (this.#closed) return;
    // Appends already handed to us were promised an answer: write them before closing.
    if (this.#lockWait) clearTimeout(this.#lockWait.timer);
    this.#lockWait = null;
    if (this.#thread) {
      const thread = this.#thread;
      while ((this.#inFlight || this.#queue.length > 0) && !this.#threadFailure) {
        if (!this.#inFlight) this.#post(this.#queue.splice(0, MAX_GROUP));
        await new Promise((resolve) => setImmediate(resolve));
      }
      if (!this.#threadFailure) {
        this.#threadFailure = new Error('the event store is closed');
        thread.postMessage({ kind: 'close' } satisfies ToWriter);
        let timer: NodeJS.Timeout | undefined;
        await Promise.race([this.#threadClosed, new Promise((resolve) => (timer = setTimeout(resolve, 5000)))]);
        clearTimeout(timer);
      }
      await thread.terminate();
    }
    while (this.#queue.length > 0 || this.#pendingSnapshots.size > 0) this.#commit(this.#queue.splice(0, MAX_GROUP));
    this.#closed = true;
    for (const subscription of [...this.#subscriptions]) await subscription.close();
    this.#db.close();
  }

  /** The connection's durability settings, as SQLite reports them. */
  settings(): { journalMode: string; synchronous: 'off' | 'normal' | 'full' | 'extra'; busyTimeoutMs: number } {
    const levels = ['off', 'normal', 'full', 'extra'] as const;
    const synchronous = levels[Number(this.#db.pragma('synchronous', { simple: true }))];
    if (!synchronous) throw new Error('unknown synchronous level');
    return {
      journalMode: String(this.#db.pragma('journal_mode', { simple: true })),
      synchronous,
      busyTimeoutMs: Number(this.#db.pragma('busy_timeout', { simple: true })),
    };
  }

  /** Synchronous readAll, for subscriptions. @internal */
  readAllNow(after: number, limit: number): RecordedEvent[] {
    assertPosition(after);
    if (!Number.isSafeInteger(limit) || limit < 1) throw new TypeError(`limit ${limit} must be a positive integer`);
    return this.#sql.readAll.all(after, limit).map(toRecordedEvent);
  }

  /** @internal */
  get isClosed(): boolean {
    return this.#closed;
  }

  /** @internal */
  forget(subscription: SqliteAllSubscription): void {
    this.#subscriptions.delete(subscription);
  }

  #assertOpen(): void {
    if (this.#closed) throw new Error('the event store is closed');
  }

  #scheduleFlush(): void {
    // A batch waiting for another process's lock takes the newcomers along when it gets it.
    if (this.#flushScheduled || this.#lockWait) return;
    this.#flushScheduled = true;
    // setImmediate, not a microtask: callers resumed by the previous batch's answers run their
    // continuations (often several awaits deep) before this fires, so they land in one batch.
    setImmediate(() => {
      this.#flushScheduled = false;
      this.#flush();
    });
  }

  #flush(): void {
    if (this.#closed) return;
    if (this.#thread) {
      if (this.#inFlight || this.#threadFailure || this.#queue.length === 0) return;
      this.#post(this.#queue.splice(0, MAX_GROUP));
      return;
    }
    const batch = this.#queue.splice(0, MAX_GROUP);
    if (batch.length === 0 && this.#pendingSnapshots.size === 0) return;
    if (!this.#takeLockWithoutWaiting()) {
      // Another process writes: wait for its lock with timers, never by blocking the event loop
      // (SQLite's busy handler sleeps in the thread), so this process keeps serving meanwhile.
      this.#queue.unshift(...batch);
      this.#waitForLock();
      return;
    }
    this.#lockWait = null;
    if (this.#queue.length > 0) this.#scheduleFlush();
    this.#commit(batch, true);
  }

  /** BEGIN IMMEDIATE if the write lock is free now; false when another connection holds it. */
  #takeLockWithoutWaiting(): boolean {
    // Past the configured patience, block as a lone append would (and fail as it would).
    if (this.#lockWait && Date.now() - this.#lockWait.since > this.#busyTimeoutMs) return false;
    return this.#writer.tryBegin();
  }

  #waitForLock(): void {
    const since = this.#lockWait?.since ?? Date.now();
    const attempt = (this.#lockWait?.attempt ?? 0) + 1;
    if (Date.now() - since > this.#busyTimeoutMs) {
      // Out of patience: one blocking try with the busy timeout, whose failure rejects the batch.
      this.#lockWait = null;
      const batch = this.#queue.splice(0, MAX_GROUP);
      if (this.#queue.length > 0) this.#scheduleFlush();
      this.#commit(batch);
      return;
    }
    // 1, 2, 3, 4 ms: a commit holds the lock for about one fsync.
    const timer = setTimeout(() => this.#flush(), Math.min(attempt, 4));
    this.#lockWait = { since, timer, attempt };
  }

  /** Hands a batch to the writer thread; its answer arrives as a message. */
  #post(batch: PendingAppend[]): void {
    const id = ++this.#nextBatchId;
    this.#inFlight = { id, batch };
    // A batch in flight keeps the process alive until it is answered.
    this.#thread?.ref();
    const requests: AppendRequest[] = batch.map(({ streamId, expected, events }) => ({ streamId, expected, events }));
    this.#thread?.postMessage({ kind: 'batch', id, batch: requests } satisfies ToWriter);
  }

  /**
   * Writes a batch in one transaction, each append in its own savepoint, with the snapshots waiting
   * meanwhile, then answers every caller.
   */
  #commit(batch: PendingAppend[], begun = false): void {
    const snapshots =
      this.#pendingSnapshots.size === 0 ? [] : [...this.#pendingSnapshots.entries()].map(([streamId, snapshot]) => ({ streamId, ...snapshot, error: undefined as unknown }));
    this.#pendingSnapshots.clear();
    const writeSnapshots =
      snapshots.length === 0
        ? undefined
        : () => {
            for (const snapshot of snapshots) {
              try {
                this.#sql.writeSnapshot.run(snapshot.streamId, snapshot.revision, snapshot.version, snapshot.state);
              } catch (error) {
                // That snapshot only: the appends of the batch do not depend on it.
                snapshot.error = error;
              }
            }
          };
    let outcomes: Outcome[];
    try {
      outcomes = this.#writer.commit(batch, begun, writeSnapshots);
    } catch (error) {
      // Nothing of this batch is on disk (BEGIN, COMMIT or a savepoint statement failed).
      for (const pending of batch) pending.reject(error);
      for (const { settle } of snapshots) for (const done of settle) done(error);
      return;
    }
    for (const { settle, error } of snapshots) for (const done of settle) done(error);
    this.#settle(batch, outcomes);
  }

  /** Answers every caller of a committed batch and wakes the subscriptions. */
  #settle(batch: PendingAppend[], outcomes: Outcome[]): void {
    // One pass: a promise's callers run only after this returns (reactions are microtasks), so they
    // find the local head and revisions moved whatever the order here.
    let landed = false;
    for (let i = 0; i < batch.length; i++) {
      const pending = batch[i]!;
      const outcome = outcomes[i];
      if (outcome === undefined || outcome instanceof AppendFailure) {
        pending.reject(outcome?.error);
        continue;
      }
      landed = true;
      if (outcome.position > this.#localHead) this.#localHead = outcome.position;
      if (this.#localRevisions.size >= MAX_LOCAL_REVISIONS && !this.#localRevisions.has(pending.streamId)) {
        this.#localRevisions.clear();
        this.#localRevisionsCleared++;
      }
      this.#localRevisions.set(pending.streamId, outcome.nextExpectedRevision);
      pending.resolve(outcome);
    }
    if (landed) {
      for (const subscription of this.#subscriptions) subscription.notify();
      for (const listener of this.#appendListeners) listener(this.#localHead);
    }
  }
}

/** Opens (creating if needed) an event store in one SQLite file. */
export function openSqliteEventStore(file: string, options?: SqliteEventStoreOptions): SqliteEventStore {
  return new SqliteEventStore(file, options);
}

/**
 * Catch-up then live: reads everything after its cursor, then waits for a local append (woken at
 * once) or the poll interval (other processes' appends), and reads again. Positions only grow and
 * a reader sees whole commits, so following the cursor yields each event once, in order.
 */
class SqliteAllSubscription implements AllSubscription {
  readonly #store: SqliteEventStore;
  readonly #after: number;
  readonly #pollIntervalMs: number;
  #closed = false;
  #started = false;
  /** Set by a local append; checked before sleeping so a wake-up during a yield is not lost. */
  #dirty = false;
  #wake: (() => void) | undefined;

  constructor(store: SqliteEventStore, after: number, pollIntervalMs: number) {
    this.#store = store;
    this.#after = after;
    this.#pollIntervalMs = pollIntervalMs;
  }

  [Symbol.asyncIterator](): AsyncIterator<RecordedEvent> {
    if (this.#started) throw new Error('a subscription can be iterated only once');
    this.#started = true;
    return this.#run();
  }

  async *#run(): AsyncGenerator<RecordedEvent> {
    let cursor = this.#after;
    try {
      while (!this.#closed && !this.#store.isClosed) {
        this.#dirty = false;
        const batch = this.#store.readAllNow(cursor, SUBSCRIPTION_BATCH);
        for (const event of batch) {
          if (this.#closed) return;
          cursor = event.position;
          yield event;
        }
        if (batch.length < SUBSCRIPTION_BATCH && !this.#dirty && !this.#closed) await this.#changed();
      }
    } finally {
      this.#closed = true;
      this.#store.forget(this);
    }
  }

  /**
   * Resolves on a local append, when another process committed (the store's data_version moved:
   * checked every few ms, one cheap call, so a worker or another API process sees an append within
   * milliseconds rather than a poll interval), or after the poll interval at the latest.
   */
  #changed(): Promise<void> {
    return new Promise((resolve) => {
      const since = Date.now();
      let version: number | null = null;
      try {
        version = this.#store.externalVersion();
      } catch {
        // closed: the interval below ends the wait
      }
      const done = () => {
        clearTimeout(timer);
        this.#wake = undefined;
        resolve();
      };
      const check = () => {
        if (this.#closed || this.#store.isClosed || Date.now() - since >= this.#pollIntervalMs) return done();
        try {
          if (version !== null && this.#store.externalVersion() !== version) return done();
        } catch {
          return done();
        }
        timer = setTimeout(check, Math.min(this.#store.changeCheckMs, this.#pollIntervalMs));
      };
      let timer = setTimeout(check, Math.min(this.#store.changeCheckMs, this.#pollIntervalMs));
      this.#wake = done;
    });
  }

  /** A local append committed. */
  notify(): void {
    this.#dirty = true;
    this.#wake?.();
  }

  async close(): Promise<void> {
    this.#closed = true;
    this.#wake?.();
    this.#store.forget(this);
  }
}

function serializeEvent(event: NewEvent): SerializedEvent {
  const data: unknown = JSON.stringify(event.data);
  if (typeof data !== 'string') throw new TypeError(`event ${event.id}: data is not JSON`);
  const metadata = JSON.stringify(event.metadata ?? {});
  return { id: event.id, type: event.type, data, metadata, chainRest: chainRest(event.type, data, metadata) };
}

function assertPosition(after: number): void {
  if (!Number.isSafeInteger(after) || after < 0) throw new TypeError(`position ${after} must be a non-negative integer`);
}
