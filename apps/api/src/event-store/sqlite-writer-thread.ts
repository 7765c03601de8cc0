/**
 * The embedded event store's writer thread (SqliteEventStoreOptions.writerThread): a connection of
 * its own that commits the batches the store posts, one at a time, and answers each with its
 * outcomes. Blocking is fine here: waiting for another process's lock (busy_timeout) and the
 * commit's fsync (synchronous=FULL) hold this thread only, never the event loop serving HTTP.
 */
import { parentPort, workerData } from 'node:worker_threads';
import type { AppendResult } from '@kamai/domain';
import { AppendFailure, type AppendRequest, AppendWriter, SNAPSHOT_UPSERT_SQL, type WireError, openAppendingConnection, toWire } from './sqlite-writer.ts';
import { describeError } from '../ts-thread.ts';

export interface WriterThreadData {
  file: string;
  busyTimeoutMs: number;
  walAutocheckpointPages?: number;
  /**
   * Shared with the store, read without waiting for a message: [0] the log's last position after
   * this thread's latest commit, [1] how many of its commits found others' appends before them.
   */
  shared: SharedArrayBuffer;
  /** The log's last position when the store started the thread. */
  startHead: number;
}

export type ToWriter =
  | { kind: 'batch'; id: number; batch: AppendRequest[] }
  | { kind: 'snapshot'; id: number; streamId: string; revision: number; version: number; state: string }
  | { kind: 'close' };

export type FromWriter =
  | { kind: 'ready' }
  | {
      kind: 'done';
      id: number;
      /**
       * Another connection appended since this thread's previous commit: the store cannot tell its
       * own commits from others' by SQLite's data_version any more, so the writer says so.
       */
      foreign: boolean;
      outcomes: Array<{ ok: true; result: AppendResult } | { ok: false; error: WireError }>;
    }
  | { kind: 'failed'; id?: number; message: string; error?: WireError }
  | { kind: 'snapshotted'; id: number; error?: string }
  | { kind: 'closed' };

const port = parentPort;
if (!port) throw new Error('sqlite-writer-thread.ts runs only as a worker thread');
const data = workerData as WriterThreadData;
const post = (message: FromWriter) => port.postMessage(message);

try {
  const db = openAppendingConnection(data.file, data.busyTimeoutMs, data.walAutocheckpointPages);
  const writer = new AppendWriter(db, data.busyTimeoutMs);
  const writeSnapshot = db.prepare<[string, number, number, string]>(SNAPSHOT_UPSERT_SQL);
  /** The log's last position after this thread's previous commit (or when the store started it). */
  let lastOwn = data.startHead;
  const shared = new BigInt64Array(data.shared);
  const nap = new Int32Array(new SharedArrayBuffer(4));
  /**
   * BEGIN IMMEDIATE, retried every millisecond while another process holds the write lock (about
   * one commit): SQLite's own busy handler sleeps 1, 2, 5, 10... ms, overshooting short waits. Past
   * the busy timeout, one last try that waits as SQLite does and fails as it does.
   */
  const begin = (): boolean => {
    const since = Date.now();
    while (!writer.tryBegin()) {
      if (Date.now() - since > data.busyTimeoutMs) return false;
      Atomics.wait(nap, 0, 0, 1);
    }
    return true;
  };
  port.on('message', (message: ToWriter) => {
    if (message.kind === 'close') {
      db.close();
      post({ kind: 'closed' });
      port.close();
      return;
    }
    if (message.kind === 'snapshot') {
      try {
        writeSnapshot.run(message.streamId, message.revision, message.version, message.state);
        post({ kind: 'snapshotted', id: message.id });
      } catch (error) {
        post({ kind: 'snapshotted', id: message.id, error: error instanceof Error ? error.message : String(error) });
      }
      return;
    }
    let before = 0;
    try {
      const outcomes = writer.commit(message.batch, begin(), () => {
        before = writer.head();
      });
      let after = before;
      for (const outcome of outcomes) if (!(outcome instanceof AppendFailure) && outcome.position > after) after = outcome.position;
      const foreign = before !== lastOwn;
      lastOwn = after;
      // Before the answer is posted: the serving thread may look at the log before it reads it.
      if (foreign) Atomics.add(shared, 1, 1n);
      Atomics.store(shared, 0, BigInt(after));
      post({
        kind: 'done',
        id: message.id,
        foreign,
        outcomes: outcomes.map((o) => (o instanceof AppendFailure ? { ok: false as const, error: toWire(o.error) } : { ok: true as const, result: o })),
      });
    } catch (error) {
      post({ kind: 'failed', id: message.id, message: error instanceof Error ? error.message : String(error), error: toWire(error) });
    }
  });
  post({ kind: 'ready' });
} catch (error) {
  post({ kind: 'failed', message: describeError(error) });
}
