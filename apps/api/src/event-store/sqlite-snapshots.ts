/**
 * The embedded store's snapshots (the `snapshots` capability): the latest folded state of long
 * streams, kept in a table of the log's file. A write goes where the store's writes go: with the
 * writer thread, to it; with group commit, into the next commit's transaction (the pending queue,
 * which the store's append pipeline drains); otherwise an autocommit upsert of its own.
 */
import type Database from 'better-sqlite3';
import type { Worker } from 'node:worker_threads';
import type { Json, SnapshotStore, StreamSnapshot } from '@kamai/domain';
import { SNAPSHOT_UPSERT_SQL } from './sqlite-writer.ts';
import type { ToWriter } from './sqlite-writer-thread.ts';

/**
 * Snapshots of long streams' decision state (the command handler's cold starts). Not events: any
 * row may be deleted at any time, and the stream is then folded from its events.
 */
export const SNAPSHOTS_TABLE_SQL = `
  CREATE TABLE IF NOT EXISTS snapshots (
    stream_id TEXT    PRIMARY KEY,
    revision  INTEGER NOT NULL,
    version   INTEGER NOT NULL,
    state     TEXT    NOT NULL
  ) STRICT;
`;

/** A snapshot waiting for the next group commit, and the callers to answer when it is written. */
export interface PendingSnapshot {
  revision: number;
  version: number;
  state: string;
  settle: Array<(error?: unknown) => void>;
}

/** What the snapshots ask of the store whose writes they join. */
export interface SnapshotHost {
  readonly groupCommit: boolean;
  assertOpen(): void;
  /** The writer thread while it runs (not failed), else null. */
  liveThread(): Worker | null;
  /** Whether the writer thread is committing a batch (it keeps the thread referenced then). */
  batchInFlight(): boolean;
  /** Asks for a commit on the event loop soon (it writes the pending snapshots). */
  scheduleFlush(): void;
}

export class SqliteSnapshots implements SnapshotStore {
  /**
   * Snapshots waiting to be written by the next group commit on the event loop, newest per stream:
   * written in that transaction, they cost no fsync of their own (each alone did, one per hundred
   * events of a stream). The store's commit drains it.
   */
  readonly pending = new Map<string, PendingSnapshot>();
  /** The upsert, shared with the store's commit, which writes the pending snapshots with it. */
  readonly upsert: Database.Statement<[string, number, number, string]>;
  readonly #db: Database.Database;
  readonly #host: SnapshotHost;
  readonly #read: Database.Statement<[string], { revision: number; version: number; state: string }>;
  /** Writes handed to the writer thread, by id, waiting for its answer. */
  readonly #calls = new Map<number, (error?: string) => void>();
  #nextId = 0;

  constructor(db: Database.Database, host: SnapshotHost) {
    this.#db = db;
    this.#host = host;
    this.#read = db.prepare('SELECT revision, version, state FROM snapshots WHERE stream_id = ?');
    this.upsert = db.prepare(SNAPSHOT_UPSERT_SQL);
  }

  async readSnapshot(streamId: string): Promise<StreamSnapshot | null> {
    this.#host.assertOpen();
    const row = this.#read.get(streamId);
    return row ? { revision: row.revision, version: row.version, state: JSON.parse(row.state) as Json } : null;
  }

  /** Every snapshot kept, as stored (verify-ledger checks that each opens). */
  async listSnapshots(): Promise<Array<StreamSnapshot & { streamId: string }>> {
    this.#host.assertOpen();
    return this.#db
      .prepare<[], { stream_id: string; revision: number; version: number; state: string }>('SELECT stream_id, revision, version, state FROM snapshots ORDER BY stream_id')
      .all()
      .map((row) => ({ streamId: row.stream_id, revision: row.revision, version: row.version, state: JSON.parse(row.state) as Json }));
  }

  async writeSnapshot(streamId: string, snapshot: StreamSnapshot): Promise<void> {
    this.#host.assertOpen();
    const state = JSON.stringify(snapshot.state);
    const thread = this.#host.liveThread();
    if (thread) {
      // On the writer thread, whose commits hold the write lock most of the time under load: a
      // write here would wait for it on the event loop.
      const id = ++this.#nextId;
      thread.ref();
      await new Promise<void>((resolve, reject) => {
        this.#calls.set(id, (error) => (error === undefined ? resolve() : reject(new Error(error))));
        thread.postMessage({ kind: 'snapshot', id, streamId, revision: snapshot.revision, version: snapshot.version, state } satisfies ToWriter);
      }).finally(() => {
        if (!this.#host.batchInFlight() && this.#calls.size === 0) thread.unref();
      });
      return;
    }
    if (this.#host.groupCommit) {
      await new Promise<void>((resolve, reject) => {
        const settle = (error?: unknown) => (error === undefined ? resolve() : reject(error));
        const waiting = this.pending.get(streamId)?.settle ?? [];
        this.pending.set(streamId, { revision: snapshot.revision, version: snapshot.version, state, settle: [...waiting, settle] });
        this.#host.scheduleFlush();
      });
      return;
    }
    // Outside any append transaction (those run synchronously): an autocommit upsert of one row.
    this.upsert.run(streamId, snapshot.revision, snapshot.version, state);
  }

  /** The writer thread answered a write (an error message when it failed). */
  answered(id: number, error?: string): void {
    this.#calls.get(id)?.(error);
    this.#calls.delete(id);
  }

  /** The writer thread died: every write handed to it fails. */
  failCalls(message: string): void {
    for (const answer of this.#calls.values()) answer(message);
    this.#calls.clear();
  }

  /** How many writes the writer thread has yet to answer. */
  get callsWaiting(): number {
    return this.#calls.size;
  }
}
