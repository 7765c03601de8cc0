/**
 * The write side of the embedded event store: one batch of appends in one transaction, each in its
 * own SAVEPOINT (its own concurrency check, all or nothing). Used on the connection of the store
 * itself (sqlite.ts), or on a thread of its own (sqlite-writer-thread.ts) so the commit's fsync and
 * the inserts never hold the event loop that serves HTTP.
 */
import Database from 'better-sqlite3';
import { WrongExpectedRevisionError, type AppendResult, type ExpectedRevision } from '@kamai/domain';
import { DuplicateEventIdError, retriedAppendResult, satisfiesExpected, type StoredEventPlace } from './common.ts';
import { type LogLink, batchLogHashOf, storedContentHashOf } from './chain.ts';
import { openWalFile } from '../sqlite-file.ts';

/**
 * The page cache of a connection that appends, in KiB: SQLite's default size, set here because a
 * bigger one costs every commit. When an insert splits an index page and the new pages come out of
 * order, SQLite swaps their numbers through the pending-byte page's number (262,145 at 4 KiB
 * pages); the commit's cache truncation then walks the whole cache, every page it holds, and a cache
 * never shrinks. At 32 MiB (once chosen for random event ids, whose index inserts read pages back
 * from the OS; the commands' ids are time-ordered now, event-id.ts) that walk was 1.7 µs of CPU an
 * append at 64 a commit against 0.8 at 2 MiB (docs/figures.md).
 */
const WRITER_CACHE_KB = 2 * 1024;

/**
 * Rows after which a batch is linked into the log's chain between two of its appends rather than
 * only on its last row, so that a walk holds no more unlinked rows than this and one append's
 * (chain.ts MAX_UNLINKED_ROWS). A group commit of 512 single-event appends is linked once.
 */
const LINK_AT_LEAST_EVERY_ROWS = 10_000;

/** Streams whose last row a writer remembers (AppendWriter #lastRows). */
const MAX_LAST_ROWS = 100_000;

/**
 * A connection that appends (the store's own, or its writer thread's): WAL, every commit synced, a
 * page cache of WRITER_CACHE_KB, and `walAutocheckpointPages` where a checkpointer thread runs.
 */
export function openAppendingConnection(file: string, busyTimeoutMs: number, walAutocheckpointPages?: number): Database.Database {
  const db = openWalFile(file, busyTimeoutMs);
  try {
    db.pragma('synchronous = FULL');
    db.pragma(`cache_size = -${WRITER_CACHE_KB}`);
    if (walAutocheckpointPages !== undefined) db.pragma(`wal_autocheckpoint = ${Math.trunc(walAutocheckpointPages)}`);
  } catch (err) {
    db.close();
    throw err;
  }
  return db;
}

/** Keeps the newer snapshot of a stream (or one of another codec version). */
export const SNAPSHOT_UPSERT_SQL = `INSERT INTO snapshots (stream_id, revision, version, state) VALUES (?, ?, ?, ?)
  ON CONFLICT (stream_id) DO UPDATE SET revision = excluded.revision, version = excluded.version, state = excluded.state
  WHERE excluded.revision > snapshots.revision OR excluded.version <> snapshots.version`;

/** An event encoded for its row, before the lock is taken. A class for V8's sake (sqlite.ts PendingAppend says why). */
export class SerializedEvent {
  constructor(
    readonly id: string,
    readonly type: string,
    readonly data: string,
    readonly metadata: string,
    /** The stream hash's input after the revision (chain.ts storedContentRest). */
    readonly hashRest: string,
  ) {}
}

/** What an append that landed answers. A class for V8's sake (sqlite.ts PendingAppend says why). */
class Appended implements AppendResult {
  constructor(
    readonly nextExpectedRevision: number,
    readonly position: number,
  ) {}
}

export interface AppendRequest {
  streamId: string;
  expected: ExpectedRevision;
  events: SerializedEvent[];
}

/** An append of a batch that was not written, and why. A class: an outcome is told from a result by instanceof. */
export class AppendFailure {
  constructor(readonly error: unknown) {}
}

/**
 * What became of each append of a batch: its result, or its failure. No wrapper per append: at 64
 * appends a batch, each object less is felt (issue 39).
 */
export type Outcome = AppendResult | AppendFailure;

/**
 * The log's end, moved once per batch to its last row (sqlite-chain.ts says why it replaces each
 * stream's head); exported so the append ladder (scripts/src/bench/appends-ladder.ts) runs the
 * store's very statement.
 */
export const LOG_END_UPSERT_SQL = `INSERT INTO log_end (id, position, stream_id, revision, hash) VALUES (1, ?, ?, ?, ?)
  ON CONFLICT (id) DO UPDATE SET position = excluded.position, stream_id = excluded.stream_id, revision = excluded.revision, hash = excluded.hash`;

type IdRow = StoredEventPlace;

export class AppendWriter {
  readonly #db: Database.Database;
  readonly #sql: {
    begin: Database.Statement<[]>;
    busyNow: Database.Statement<[]>;
    busyPatient: Database.Statement<[]>;
    commit: Database.Statement<[]>;
    rollback: Database.Statement<[]>;
    savepoint: Database.Statement<[]>;
    release: Database.Statement<[]>;
    rollbackToSavepoint: Database.Statement<[]>;
    lastEvent: Database.Statement<[string], { revision: number; hash: string | null }>;
    findId: Database.Statement<[string], IdRow>;
    insert: Database.Statement<[number, string, string, number, string, string, string, string, string]>;
    lastLink: Database.Statement<[], { position: number; log_hash: string | null; recorded_at: string }>;
    head: Database.Statement<[], number>;
    moveLogEnd: Database.Statement<[number, string, number, string]>;
    linkBatch: Database.Statement<[number, string, number]>;
    dataVersion: Database.Statement<[], number>;
  };

  constructor(db: Database.Database, busyTimeoutMs: number) {
    this.#db = db;
    this.#sql = {
      begin: db.prepare('BEGIN IMMEDIATE'),
      busyNow: db.prepare('PRAGMA busy_timeout = 0'),
      busyPatient: db.prepare(`PRAGMA busy_timeout = ${busyTimeoutMs}`),
      commit: db.prepare('COMMIT'),
      rollback: db.prepare('ROLLBACK'),
      savepoint: db.prepare('SAVEPOINT append'),
      release: db.prepare('RELEASE append'),
      rollbackToSavepoint: db.prepare('ROLLBACK TO append'),
      lastEvent: db.prepare<[string], { revision: number; hash: string | null }>(
        'SELECT revision, hash FROM events WHERE stream_id = ? ORDER BY revision DESC LIMIT 1',
      ),
      findId: db.prepare<[string], IdRow>('SELECT stream_id, revision, position FROM events WHERE event_id = ?'),
      insert: db.prepare(
        // No prev_hash (the stream hash covers it) and no log link: the batch's last row gets the one link of all its rows.
        'INSERT INTO events (position, event_id, stream_id, revision, type, data, metadata, recorded_at, hash) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)',
      ),
      lastLink: db.prepare('SELECT position, log_hash, recorded_at FROM events ORDER BY position DESC LIMIT 1'),
      head: db.prepare<[], number>('SELECT COALESCE(MAX(position), 0) FROM events').pluck(),
      moveLogEnd: db.prepare<[number, string, number, string]>(LOG_END_UPSERT_SQL),
      linkBatch: db.prepare<[number, string, number]>('UPDATE events SET log_prev = ?, log_hash = ? WHERE position = ?'),
      dataVersion: db.prepare<[], number>('PRAGMA data_version').pluck(),
    };
  }

  /** BEGIN IMMEDIATE if the write lock is free now; false when another connection holds it. */
  tryBegin(): boolean {
    this.#sql.busyNow.run();
    try {
      this.#sql.begin.run();
      return true;
    } catch (error) {
      if (error instanceof Database.SqliteError && error.code.startsWith('SQLITE_BUSY')) return false;
      throw error;
    } finally {
      this.#sql.busyPatient.run();
    }
  }

  /** The last position in the log; inside a transaction, as of its start. */
  head(): number {
    return this.#sql.head.get() ?? 0;
  }

  /**
   * Writes a batch in one transaction (begun already, or begun here, waiting up to the busy timeout
   * for the lock), each append of several events in its own savepoint. Throws when the transaction itself failed:
   * nothing of the batch is on disk then.
   */
  commit(batch: readonly AppendRequest[], begun = false, inside?: () => void): Outcome[] {
    const outcomes: Outcome[] = new Array<Outcome>(batch.length);
    if (!begun) this.#sql.begin.run();
    try {
      inside?.();
      // data_version moves when another connection committed since this one last looked: the
      // streams' last rows remembered since may be stale then. Looked at with the write lock held,
      // so nothing can change them again before this batch commits.
      const version = this.#sql.dataVersion.get() ?? 0;
      if (version !== this.#dataVersion) {
        this.#lastRows.clear();
        this.#dataVersion = version;
      }
      // The log's last row, read once per batch: the write lock is held, so each append that lands
      // moves it, and one rolled back to its savepoint leaves it where it was.
      let link = this.#logTail();
      this.#lastPosition = link?.position ?? 0;
      this.#batchLinks.length = 0;
      // The batch's last append that wrote rows: the log's end moves to its last row.
      let endStream: string | null = null;
      let endRevision = -1;
      for (let i = 0; i < batch.length; i++) {
        const pending = batch[i]!;
        // A one-event append that fails before its row is in (its check, or the insert, which SQLite
        // undoes alone) leaves nothing to undo: it goes without a savepoint, two statements fewer
        // per command.
        const alone = pending.events.length === 1;
        if (!alone) this.#sql.savepoint.run();
        this.#inserted = false;
        const linksBefore = this.#batchLinks.length;
        try {
          const result = this.#write(pending);
          if (!alone) this.#sql.release.run();
          outcomes[i] = result;
          // A very big batch is linked in parts, between its appends, so a walk never holds more than that unlinked.
          if (this.#batchLinks.length >= 2 * LINK_AT_LEAST_EVERY_ROWS) link = this.#linkRows(link);
          const written = this.#written;
          if (written.last && written.hash !== null) {
            written.last.revision = result.nextExpectedRevision;
            written.last.hash = written.hash;
            endStream = pending.streamId;
            endRevision = result.nextExpectedRevision;
          }
        } catch (error) {
          this.#lastRows.delete(pending.streamId);
          this.#batchLinks.length = linksBefore;
          if (alone) {
            if (this.#inserted || !this.#db.inTransaction) throw error;
          } else {
            this.#sql.rollbackToSavepoint.run();
            this.#sql.release.run();
          }
          outcomes[i] = new AppendFailure(error);
        }
      }
      // The batch's rows are linked into the log's chain once, on its last row, and the log's end
      // moves there (should either fail, the whole batch does).
      if (this.#batchLinks.length > 0) link = this.#linkRows(link);
      if (endStream !== null && link) this.#sql.moveLogEnd.run(link.position, endStream, endRevision, link.hash);
      this.#sql.commit.run();
    } catch (error) {
      // What this batch wrote is undone: so is what was remembered of it.
      this.#lastRows.clear();
      if (this.#db.inTransaction) this.#sql.rollback.run();
      throw error;
    }
    return outcomes;
  }

  /** Whether the append being written has a row in already (see commit). */
  #inserted = false;

  /** The log's last position as the batch being written goes: each append that lands moves it. */
  #lastPosition = 0;

  /** The batch's rows so far, position and stream hash by turns: what its one log link covers (chain.ts batchLogHashOf). */
  readonly #batchLinks: Array<number | string> = [];

  /** Links the rows written since `from` (#batchLinks) on the last of them; the new link. */
  #linkRows(from: LogLink | null): LogLink {
    const hash = batchLogHashOf(from?.position ?? 0, from?.hash ?? '', this.#batchLinks);
    this.#sql.linkBatch.run(from?.position ?? 0, hash, this.#lastPosition);
    this.#batchLinks.length = 0;
    return { position: this.#lastPosition, hash };
  }

  /**
   * Each stream's last revision and hash (-1 and null: no stream) as of this connection's last
   * commit, valid while no other connection committed (data_version, checked per batch): a
   * command's append then reads nothing before it writes. Bounded: cleared when full.
   */
  readonly #lastRows = new Map<string, { revision: number; hash: string | null }>();
  #dataVersion = -1;

  #lastRowOf(streamId: string): { revision: number; hash: string | null } {
    let row = this.#lastRows.get(streamId);
    if (!row) {
      const found = this.#sql.lastEvent.get(streamId);
      row = { revision: found?.revision ?? -1, hash: found?.hash ?? null };
      if (this.#lastRows.size >= MAX_LAST_ROWS) this.#lastRows.clear();
      this.#lastRows.set(streamId, row);
    }
    return row;
  }

  /**
   * The time the batch's rows are recorded at: the later of the clock, read once per batch (the
   * commit's time; a clock reading per append was a few % of its cost), and the log's last row, so
   * the log's times never go back when the machine's clock does (ISO times of one format compare
   * as strings).
   */
  #recordedAt = '';

  /** The log's last row (null when empty): the link the next row follows. */
  #logTail(): LogLink | null {
    const last = this.#sql.lastLink.get();
    const clock = new Date().toISOString();
    this.#recordedAt = last && last.recorded_at > clock ? last.recorded_at : clock;
    return last ? { position: last.position, hash: last.log_hash ?? '' } : null;
  }

  /**
   * One append inside the open transaction, after the log's row #lastPosition, which it moves; its result.
   * Throws to have its savepoint rolled back.
   */
  #write(pending: AppendRequest): AppendResult {
    const { streamId, expected, events } = pending;
    this.#written.last = null;
    this.#written.hash = null;
    const last = this.#lastRowOf(streamId);
    const actual = last.revision;
    if (!satisfiesExpected(expected, actual)) {
      // A retry of an append that landed fails the revision check (unless it expected any revision:
      // then its first event's id is taken, below). Looked for only then: the first append looks up
      // no event id.
      const retried = this.#findRetriedAppend(pending);
      if (retried) return retried;
      throw new WrongExpectedRevisionError(streamId, expected, actual);
    }
    const recordedAt = this.#recordedAt;
    let prevHash = last.hash;
    // Each row takes the next position (as SQLite would hand it out).
    let logPosition = this.#lastPosition;
    let revision = actual;
    const streamJson = JSON.stringify(streamId);
    for (let i = 0; i < events.length; i++) {
      const event = events[i]!;
      revision += 1;
      const hash = storedContentHashOf(prevHash, streamJson, revision, event.hashRest);
      const position = logPosition + 1;
      try {
        this.#sql.insert.run(position, event.id, streamId, revision, event.type, event.data, event.metadata, recordedAt, hash);
      } catch (error) {
        if (isUniqueViolation(error, 'events.event_id')) {
          // Nothing of this append is written yet when its first event's id is taken: a retry?
          const retried = i === 0 ? this.#findRetriedAppend(pending) : undefined;
          if (retried) return retried;
          throw new DuplicateEventIdError(streamId, event.id);
        }
        // Cannot happen while the write lock is held; kept so a broken invariant reads as a conflict.
        if (isUniqueViolation(error, 'events.stream_id')) throw new WrongExpectedRevisionError(streamId, expected, actual);
        throw error;
      }
      this.#inserted = true;
      this.#batchLinks.push(position, hash);
      prevHash = hash;
      logPosition = position;
    }
    if (events.length === 0 || prevHash === null) return new Appended(actual, 0);
    this.#lastPosition = logPosition;
    this.#written.last = last;
    this.#written.hash = prevHash;
    return new Appended(revision, logPosition);
  }

  /** Set by #write when it wrote rows (one object for every append): the stream's remembered last row, and its new hash. */
  readonly #written: { last: { revision: number; hash: string | null } | null; hash: string | null } = { last: null, hash: null };

  /** See retriedAppendResult. */
  #findRetriedAppend({ streamId, expected, events }: AppendRequest): AppendResult | undefined {
    return retriedAppendResult(
      streamId,
      expected,
      events.map((e) => e.id),
      (id) => this.#sql.findId.get(id),
    );
  }
}

function isUniqueViolation(error: unknown, column: string): boolean {
  return (
    error instanceof Database.SqliteError && error.code === 'SQLITE_CONSTRAINT_UNIQUE' && error.message.includes(column)
  );
}

/** An error as it crosses from the writer thread: the typed ones keep their type. */
export type WireError =
  | { kind: 'conflict'; streamId: string; expected: ExpectedRevision; actual: number }
  | { kind: 'duplicate'; streamId: string; eventId: string }
  | { kind: 'sqlite'; message: string; code: string }
  | { kind: 'other'; message: string };

export function toWire(error: unknown): WireError {
  if (error instanceof WrongExpectedRevisionError) return { kind: 'conflict', streamId: error.streamId, expected: error.expected, actual: error.actual };
  if (error instanceof DuplicateEventIdError) return { kind: 'duplicate', streamId: error.streamId, eventId: error.eventId };
  if (error instanceof Database.SqliteError) return { kind: 'sqlite', message: error.message, code: error.code };
  return { kind: 'other', message: error instanceof Error ? error.message : String(error) };
}

export function fromWire(error: WireError): Error {
  switch (error.kind) {
    case 'conflict':
      return new WrongExpectedRevisionError(error.streamId, error.expected, error.actual);
    case 'duplicate':
      return new DuplicateEventIdError(error.streamId, error.eventId);
    case 'sqlite':
      return new Database.SqliteError(error.message, error.code);
    case 'other':
      return new Error(error.message);
  }
}
