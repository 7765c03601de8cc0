/**
 * Synchronous queries on PostgreSQL, for the stores whose ports are synchronous (the key store is
 * used while events are sealed and opened, the throttles inside request checks). node-postgres is
 * asynchronous, so the queries run on a worker thread of their own with its own connection, and the
 * caller blocks on a shared flag (Atomics.wait) until the answer is posted back: the pattern of
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
const answer = (message) => {
  port.postMessage(message);
  Atomics.store(flags, 0, 1);
  Atomics.notify(flags, 0);
};
port.on('message', async (message) => {
  if (message.close) {
    await Promise.allSettled([client && client.end(), listener && listener.end()]);
    client = null;
    listener = null;
    return answer({ rows: [] });
  }
  try {
    const c = await connected();
    const params = (message.params || []).map((p) => (p instanceof Uint8Array ? Buffer.from(p.buffer, p.byteOffset, p.byteLength) : p));
    const result = await c.query(message.sql, params);
    answer({ rows: Array.isArray(result) ? result[result.length - 1].rows : result.rows });
  } catch (err) {
    // A connection in an unknown state is not reused.
    if (client && err && !err.code) { client.end().catch(() => {}); client = null; }
    answer({ error: String((err && err.message) || err), code: err && err.code });
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
  /** [0]: an answer is waiting; [1]: notifications heard on SHARED_CHANNEL. */
  readonly #flags: Int32Array;
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
    Atomics.store(this.#flags, 0, 0);
    this.#port.postMessage({ sql, params });
    if (Atomics.wait(this.#flags, 0, 0, QUERY_TIMEOUT_MS) === 'timed-out') {
      // A late answer would be taken for the next query's: this worker is done with.
      this.#broken = `no answer in ${QUERY_TIMEOUT_MS} ms`;
      void this.#worker.terminate();
      throw new SyncPostgresError(`PostgreSQL did not answer in ${QUERY_TIMEOUT_MS} ms`);
    }
    const answer = receiveMessageOnPort(this.#port)?.message as { rows: Row[] } | { error: string; code?: string } | undefined;
    if (!answer) throw new SyncPostgresError('the PostgreSQL worker answered nothing');
    if ('error' in answer) throw new SyncPostgresError(answer.error, answer.code);
    return answer.rows;
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
        Atomics.store(this.#flags, 0, 0);
        this.#port.postMessage({ close: true });
        Atomics.wait(this.#flags, 0, 0, 2000);
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
