/**
 * Synchronous queries on PostgreSQL, for the stores whose ports are synchronous (the key store is
 * used while events are sealed and opened, the throttles inside request checks). node-postgres is
 * asynchronous, so the queries run on a worker thread of their own with its own connection, and the
 * caller blocks on a shared counter (Atomics.wait) until the answer is posted back: the pattern of
 * `synckit`, in 100 lines without its TypeScript loader (the worker is plain CommonJS).
 *
 * Each query blocks the event loop for one round trip to the server, so callers cache (the key store
 * keeps keys in memory) and use it where a request already does one look (the throttles).
 *
 * The worker also LISTENs on {@link SHARED_CHANNEL}: each notification adds one to a counter the
 * caller reads without a round trip ({@link SyncPostgres.changes}), so a store learns cheaply that
 * another node changed something (an erasure) and looks then.
 */
import { createRequire } from 'node:module';
import { MessageChannel, type MessagePort, Worker, receiveMessageOnPort } from 'node:worker_threads';

/** The channel the shared stores notify on (an erasure, for the key stores of other nodes). */
export const SHARED_CHANNEL = 'kamai_shared';
/** How long a query may take before the caller gives up on it (and on the worker). */
const QUERY_TIMEOUT_MS = 15_000;

const WORKER = `
const { workerData } = require('node:worker_threads');
const pg = require(workerData.pg);
const { url, port, flags: shared, channel } = workerData;
const flags = new Int32Array(shared);
const options = { connectionString: url, connectionTimeoutMillis: 10000 };
let client = null;
async function connected() {
  if (client) return client;
  const c = new pg.Client(options);
  c.on('error', () => { if (client === c) client = null; });
  client = c;
  try { await c.connect(); } catch (err) { client = null; throw err; }
  return c;
}
// Each answer carries its query's id and counts one more on flags[0], which the caller waits on.
const answer = (id, message) => {
  port.postMessage({ id, ...message });
  Atomics.add(flags, 0, 1);
  Atomics.notify(flags, 0);
};
port.on('message', async (message) => {
  if (message.close) {
    await Promise.allSettled([client && client.end(), listener && listener.end()]);
    client = null;
    listener = null;
    return answer(message.id, { rows: [] });
  }
  try {
    const c = await connected();
    const params = (message.params || []).map((p) => (p instanceof Uint8Array ? Buffer.from(p.buffer, p.byteOffset, p.byteLength) : p));
    const result = await c.query(message.sql, params);
    answer(message.id, { rows: Array.isArray(result) ? result[result.length - 1].rows : result.rows });
  } catch (err) {
    // A connection in an unknown state is not reused.
    if (client && err && !err.code) { client.end().catch(() => {}); client = null; }
    answer(message.id, { error: String((err && err.message) || err), code: err && err.code });
  }
});
let listener = null;
function listen() {
  const c = new pg.Client(options);
  listener = c;
  const again = () => {
    if (listener !== c) return;
    listener = null;
    c.end().catch(() => {});
    setTimeout(listen, 100);
  };
  c.on('error', again);
  c.on('notification', () => Atomics.add(flags, 1, 1));
  c.connect()
    .then(() => c.query('LISTEN ' + channel))
    // Whatever was notified while no connection listened is looked at now.
    .then(() => Atomics.add(flags, 1, 1))
    .catch(again);
}
listen();
`;

class SyncPostgresError extends Error {
  override readonly name = 'SyncPostgresError';
  constructor(
    message: string,
    readonly code?: string,
  ) {
    super(message);
  }
}

/** One worker and its two connections (queries, LISTEN) per database URL in a process. */
export class SyncPostgres {
  readonly #worker: Worker;
  readonly #port: MessagePort;
  /** [0]: answers posted so far; [1]: notifications heard on SHARED_CHANNEL. */
  readonly #flags: Int32Array;
  /** The id of the last message posted to the worker. */
  #lastId = 0;
  #broken: string | null = null;

  constructor(url: string) {
    const channel = new MessageChannel();
    const shared = new SharedArrayBuffer(8);
    this.#flags = new Int32Array(shared);
    this.#port = channel.port1;
    const pg = createRequire(import.meta.url).resolve('pg');
    this.#worker = new Worker(WORKER, {
      eval: true,
      workerData: { url, pg, port: channel.port2, flags: shared, channel: SHARED_CHANNEL },
      transferList: [channel.port2],
    });
    this.#worker.on('error', (err) => (this.#broken = String(err)));
    // Neither keeps the process alive: close() ends them, and an exit ends them anyway.
    this.#worker.unref();
    this.#port.unref();
  }

  /** Runs one statement (or several, without parameters) and answers the last one's rows. */
  query<Row>(sql: string, params: unknown[] = []): Row[] {
    if (this.#broken) throw new SyncPostgresError(`the PostgreSQL worker stopped: ${this.#broken}`);
    const answer = this.#ask<{ rows: Row[] } | { error: string; code?: string }>({ sql, params }, QUERY_TIMEOUT_MS);
    if (!answer) {
      // A late answer would still be waiting on the port: this worker is done with.
      this.#broken = `no answer in ${QUERY_TIMEOUT_MS} ms`;
      void this.#worker.terminate();
      throw new SyncPostgresError(`PostgreSQL did not answer in ${QUERY_TIMEOUT_MS} ms`);
    }
    if ('error' in answer) throw new SyncPostgresError(answer.error, answer.code);
    return answer.rows;
  }

  /**
   * Posts one message and blocks until the worker's answer to it arrives, or `timeoutMs` passes
   * (then undefined). Answers carry their message's id, and one that is not this message's is
   * dropped: a caller only ever reads its own statement's rows.
   */
  #ask<Answer>(message: object, timeoutMs: number): Answer | undefined {
    const id = ++this.#lastId;
    const deadline = Date.now() + timeoutMs;
    let seen = Atomics.load(this.#flags, 0);
    this.#port.postMessage({ ...message, id });
    for (;;) {
      for (let received = receiveMessageOnPort(this.#port); received; received = receiveMessageOnPort(this.#port)) {
        const { id: answered, ...answer } = received.message as { id: number };
        if (answered === id) return answer as Answer;
      }
      const left = deadline - Date.now();
      if (left <= 0 || Atomics.wait(this.#flags, 0, seen, left) === 'timed-out') return undefined;
      seen = Atomics.load(this.#flags, 0);
    }
  }

  /** Runs `work` in one transaction on the worker's connection. */
  transaction<T>(work: () => T): T {
    this.query('BEGIN');
    try {
      const result = work();
      this.query('COMMIT');
      return result;
    } catch (err) {
      try {
        this.query('ROLLBACK');
      } catch {
        // the connection is gone: the server rolled back
      }
      throw err;
    }
  }

  /** How many notifications on SHARED_CHANNEL were heard (or connections re-made) so far. */
  get changes(): number {
    return Atomics.load(this.#flags, 1);
  }

  close(): void {
    if (!this.#broken) {
      try {
        this.#ask({ close: true }, 2000);
      } catch {
        // closing anyway
      }
    }
    this.#broken = 'closed';
    this.#port.close();
    void this.#worker.terminate();
  }
}

const open = new Map<string, { pg: SyncPostgres; users: number }>();

/** The process's synchronous connection to `url`, shared by its stores; release() when done. */
export function openSyncPostgres(url: string): { pg: SyncPostgres; release(): void } {
  let entry = open.get(url);
  if (!entry) {
    entry = { pg: new SyncPostgres(url), users: 0 };
    open.set(url, entry);
  }
  entry.users++;
  const held = entry;
  let released = false;
  return {
    pg: held.pg,
    release() {
      if (released) return;
      released = true;
      if (--held.users > 0) return;
      open.delete(url);
      held.pg.close();
    },
  };
}

/** Serialises the shared stores' table creation between nodes starting together. */
const SCHEMA_LOCK = 0x6b616d616b;

/** Runs a store's CREATE … IF NOT EXISTS statements in schema `kamai`, one node at a time. */
export function ensureTables(pg: SyncPostgres, ddl: string): void {
  pg.query(`BEGIN; SELECT pg_advisory_xact_lock(${SCHEMA_LOCK}); CREATE SCHEMA IF NOT EXISTS kamai; ${ddl}; COMMIT;`);
}
