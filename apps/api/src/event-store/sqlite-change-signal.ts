/**
 * The embedded store's change signal (the `changeSignal` capability): did another connection write,
 * and what has this process itself appended. Followers (the command handler's stream cache, the
 * session cache) read nothing while neither moved.
 */
import type Database from 'better-sqlite3';
import type { AppendResult, ChangeSignal } from '@kamai/domain';
import { OncePerTurn } from '../once-per-turn.ts';

/** Streams whose last local revision is remembered (localRevisionOf). */
const MAX_LOCAL_REVISIONS = 100_000;

export class SqliteChangeSignal implements ChangeSignal {
  readonly #head: () => number;
  readonly #assertOpen: () => void;
  readonly #dataVersion: Database.Statement<[], number>;
  readonly #appendListeners = new Set<(position: number) => void>();
  #localHead = 0;
  /** The last revision this process appended per stream (bounded: cleared when full, see localRevisionOf). */
  readonly #localRevisions = new Map<string, number>();
  #localRevisionsCleared = 0;
  /** With a writer thread: externalVersion's counter, and the data_version it last looked at. */
  #external = { counter: 0, dataVersion: -1 };
  /** externalVersion's answer this turn (see OncePerTurn). */
  readonly #versionTurn = new OncePerTurn();
  #version = 0;
  /** Written by the writer thread (see WriterThreadData.shared). */
  #shared: BigInt64Array | null = null;

  /** `head` reads the log's last position on the store's connection. */
  constructor(db: Database.Database, head: () => number, assertOpen: () => void) {
    this.#head = head;
    this.#assertOpen = assertOpen;
    this.#dataVersion = db.prepare<[], number>('PRAGMA data_version').pluck();
  }

  /**
   * The memory shared with a writer thread (sqlite-writer-thread.ts), which commits on a connection
   * of its own. What the log held when the thread started counts as seen; anything later that the
   * writer did not write is another's (the first externalVersion call looks, whatever data_version says).
   */
  shareWithWriterThread(startHead: number): SharedArrayBuffer {
    const shared = new SharedArrayBuffer(16);
    this.#shared = new BigInt64Array(shared);
    Atomics.store(this.#shared, 0, BigInt(startHead));
    return shared;
  }

  /**
   * A change signal as cheap as a call can be: SQLite's `data_version` of this store's connection,
   * which moves only when another connection (another process) committed to the file since. This
   * process's own appends do not move it: see `localHead`. Followers (the session cache, the command
   * handler) compare it with what they saw last and read nothing while neither moved.
   */
  /** SQLite's signal says that another connection committed, not to which streams. */
  externalVersionOf(): number {
    return this.externalVersion();
  }

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
    const dataVersion = this.#dataVersion.get() ?? 0;
    const shared = this.#shared;
    if (!shared) return dataVersion;
    // The writer thread is another connection: its commits move data_version too. So a move counts
    // as another process's only when the log ends past the writer's own last commit; appends by
    // others before one of the writer's commits are counted by the writer itself (shared[1]).
    if (dataVersion !== this.#external.dataVersion) {
      this.#external.dataVersion = dataVersion;
      const own = Number(Atomics.load(shared, 0));
      if (this.#head() > Math.max(own, this.#localHead)) this.#external.counter++;
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

  /** One of this process's appends committed (the store's append pipeline says so before answering it). */
  ownAppend(streamId: string, result: AppendResult): void {
    if (result.position > this.#localHead) this.#localHead = result.position;
    if (this.#localRevisions.size >= MAX_LOCAL_REVISIONS && !this.#localRevisions.has(streamId)) {
      this.#localRevisions.clear();
      this.#localRevisionsCleared++;
    }
    this.#localRevisions.set(streamId, result.nextExpectedRevision);
  }

  /** A commit of this process's appends was answered: the listeners hear the local head. */
  announce(): void {
    for (const listener of this.#appendListeners) listener(this.#localHead);
  }
}
