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
import type { AllSubscription, AppendResult, EventStore, EventStoreCapabilities, ExpectedRevision, NewEvent, RecordedEvent } from '@kamai/domain';
import type { Worker } from 'node:worker_threads';
import { startTsThread } from '../ts-thread.ts';
import { assertValidAppend } from './common.ts';
import { EVENTS_TABLE_SQL, type EventTuple, READ_COLUMNS, toRecordedEvent } from './sqlite-rows.ts';
import { SqliteChain, addChains } from './sqlite-chain.ts';
import { storedContentRest } from './chain.ts';
import { SqliteChangeSignal } from './sqlite-change-signal.ts';
import { SNAPSHOTS_TABLE_SQL, type PendingSnapshot, SqliteSnapshots } from './sqlite-snapshots.ts';
import { type SubscriptionOptions, SqliteSubscriptions } from './sqlite-subscription.ts';
import { SqliteSyncReads, assertPosition } from './sqlite-sync-reads.ts';
import { AppendFailure, type AppendRequest, AppendWriter, type Outcome, SerializedEvent, fromWire, openAppendingConnection } from './sqlite-writer.ts';
import type { FromWriter, ToWriter, WriterThreadData } from './sqlite-writer-thread.ts';

export interface SqliteEventStoreOptions extends SubscriptionOptions {
  /** Batch appends made in the same tick into one transaction, one SAVEPOINT each. Default true. */
  groupCommit?: boolean;
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
}

export { EVENTS_TABLE_SQL } from './sqlite-rows.ts';

/** Appends per group-commit transaction, so one batch cannot hold the write lock for long. */
const MAX_GROUP = 512;

/**
 * An append waiting for its batch's commit. A class, as are the serialized event and the result
 * (sqlite-writer.ts), not an object literal: V8 tracks each literal's site and, when a young-space
 * collection finds most of a site's objects alive, allocates them in the old space from then on.
 * Every append's objects are alive until its batch commits, so a collection during the first
 * batches, while the young space is still small, could tenure them for the process's life: each
 * then needed a full collection, about 3.5 µs of CPU an append (docs/figures.md). `new` of a class
 * has no such site.
 */
class PendingAppend implements AppendRequest {
  constructor(
    readonly streamId: string,
    readonly expected: ExpectedRevision,
    readonly events: SerializedEvent[],
    readonly resolve: (result: AppendResult) => void,
    readonly reject: (error: unknown) => void,
  ) {}
}

/**
 * The port and the append pipeline. The capabilities are objects of their own, each in its file:
 * snapshots (sqlite-snapshots.ts), the change signal (sqlite-change-signal.ts), synchronous reads
 * (sqlite-sync-reads.ts), subscriptions and their wake-up (sqlite-subscription.ts), the chain and
 * checkpoints (sqlite-chain.ts). Callers reach them through `capability(store, name)` only.
 */
export class SqliteEventStore implements EventStore {
  readonly capabilities: EventStoreCapabilities;
  readonly file: string;
  readonly #db: Database.Database;
  readonly #groupCommit: boolean;
  readonly #queue: PendingAppend[] = [];
  readonly #signal: SqliteChangeSignal;
  readonly #reads: SqliteSyncReads;
  readonly #subscriptions: SqliteSubscriptions;
  readonly #snapshots: SqliteSnapshots;
  /** The snapshots' pending queue, which each commit on the event loop drains (see SqliteSnapshots.pending). */
  readonly #pendingSnapshots: Map<string, PendingSnapshot>;
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
  #threadFailure: Error | null = null;
  #threadClosed: Promise<void> | null = null;

  readonly #sql: {
    readStream: Database.Statement<[string, number, number], EventTuple>;
    writeSnapshot: Database.Statement<[string, number, number, string]>;
  };

  constructor(file: string, options: SqliteEventStoreOptions = {}) {
    this.file = file;
    this.#groupCommit = options.groupCommit ?? true;
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
    const assertOpen = () => this.#assertOpen();
    const head = () => this.#writer.head();
    const signal = (this.#signal = new SqliteChangeSignal(db, head, assertOpen));
    const reads = (this.#reads = new SqliteSyncReads(db, head, assertOpen));
    const source = { readAllNow: reads.readAllNow.bind(reads), externalVersion: signal.externalVersion.bind(signal), isClosed: () => this.#closed };
    this.#subscriptions = new SqliteSubscriptions(source, options);
    this.#snapshots = new SqliteSnapshots(db, {
      groupCommit: this.#groupCommit,
      assertOpen,
      liveThread: () => (this.#threadFailure ? null : this.#thread),
      batchInFlight: () => this.#inFlight !== null,
      scheduleFlush: () => this.#scheduleFlush(),
    });
    this.#pendingSnapshots = this.#snapshots.pending;
    const chain = new SqliteChain(db, assertOpen);
    const embeddedFile = { file };
    this.capabilities = { snapshots: this.#snapshots, changeSignal: signal, syncReads: reads, wake: this.#subscriptions, chain, checkpoints: chain, embeddedFile };
    this.#sql = {
      readStream: db.prepare<[string, number, number], EventTuple>(`SELECT ${READ_COLUMNS} FROM events WHERE stream_id = ? AND revision >= ? ORDER BY revision LIMIT ?`).raw(true),
      writeSnapshot: this.#snapshots.upsert,
    };
    if (options.writerThread && this.#groupCommit) this.#startWriterThread(options);
  }

  #startWriterThread(options: SqliteEventStoreOptions): void {
    const startHead = this.#writer.head();
    const data: WriterThreadData = {
      shared: this.#signal.shareWithWriterThread(startHead),
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
        this.#snapshots.answered(message.id, message.error);
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
    if (this.#snapshots.callsWaiting === 0) this.#thread?.unref();
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
    this.#snapshots.failCalls(err.message);
  }

  append(streamId: string, events: NewEvent[], expected: ExpectedRevision): Promise<AppendResult> {
    return new Promise<AppendResult>((resolve, reject) => {
      if (this.#closed) throw new Error('the event store is closed');
      assertValidAppend(streamId, events, expected);
      // Serialise before taking the lock, so a bad payload fails alone and the lock is held briefly.
      const serialized = events.map(serializeEvent);
      const pending = new PendingAppend(streamId, expected, serialized, resolve, reject);
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
    return this.#reads.readAllNow(options.after, options.limit);
  }

  async headPosition(): Promise<number> {
    this.#assertOpen();
    return this.#writer.head();
  }

  subscribeToAll(options: { after: number }): AllSubscription {
    this.#assertOpen();
    assertPosition(options.after);
    return this.#subscriptions.subscribe(options.after);
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
    await this.#subscriptions.closeAll();
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
      this.#signal.ownAppend(pending.streamId, outcome);
      pending.resolve(outcome);
    }
    if (landed) {
      this.#subscriptions.wakeSubscriptions();
      this.#signal.announce();
    }
  }
}

/** Opens (creating if needed) an event store in one SQLite file. */
export function openSqliteEventStore(file: string, options?: SqliteEventStoreOptions): SqliteEventStore {
  return new SqliteEventStore(file, options);
}

function serializeEvent(event: NewEvent): SerializedEvent {
  const data: unknown = JSON.stringify(event.data);
  if (typeof data !== 'string') throw new TypeError(`event ${event.id}: data is not JSON`);
  // No metadata is '{}': not encoded again for every such append.
  const metadata = event.metadata === undefined || event.metadata === null ? '{}' : JSON.stringify(event.metadata);
  return new SerializedEvent(event.id, event.type, data, metadata, storedContentRest(event.type, data, metadata));
}
