import Database from 'better-sqlite3';
import { Kysely, SqliteDialect, type SqliteDatabase, type Transaction, sql } from 'kysely';
import { registerHotReads } from './hot-reads.ts';
import type { Projection } from './projection.ts';
import type { ReadDb } from './schema.ts';
import { allProjections } from './registry.ts';
import { RowWriter } from './rows.ts';
import { useWal } from './sqlite-wal.ts';
import { ensureTables } from './tables.ts';

export type ReadDbHandle = Kysely<ReadDb>;
export type ReadTx = Transaction<ReadDb> | Kysely<ReadDb>;

/**
 * How long a statement may wait, synchronously, for another process's lock. Kept tiny: better-sqlite3
 * waits on the event loop, so a long timeout freezes the whole app behind a rebuild. Writes wait for
 * the lock asynchronously instead (see writeTransaction).
 */
const BUSY_TIMEOUT_MS = 20;
/**
 * How long opening a connection may wait for another process's lock. Only a new file needs it:
 * turning it to WAL takes the lock that a second process opening the same new file holds while it
 * creates the tables. That happens once, at start, so a synchronous wait is harmless there.
 */
const OPEN_BUSY_TIMEOUT_MS = 5000;
/** How long a write keeps retrying another process's write lock before it gives up. */
const WRITE_LOCK_PATIENCE_MS = 5 * 60_000;

const fileOf = new WeakMap<object, string>();
/** The better-sqlite3 connection behind a handle (and behind the transactions writeTransaction opens on it). */
const sqliteOf = new WeakMap<object, Database.Database>();
const writers = new WeakMap<Database.Database, RowWriter>();

/**
 * better-sqlite3 behind Kysely, with every statement prepared once and reused: Kysely's own dialect
 * prepares each query anew, which costs more than running it for the small hot queries here. This
 * serves every Kysely query (the API's queries, the bookkeeping of builds). Projections do not go
 * through Kysely: they write through the row writer (rows.ts) on the same connection. The hot reads
 * (hot-reads.ts) are another thing: a few per-request reads on a read-only connection of their own,
 * so they skip Kysely's compiling too and never queue behind a projection batch holding this one.
 */
function cachingDatabase(sqlite: Database.Database, size = 1000): SqliteDatabase {
  const cache = new Map<string, Database.Statement>();
  return {
    close: () => sqlite.close(),
    prepare(text) {
      let statement = cache.get(text);
      if (statement) return statement;
      statement = sqlite.prepare(text);
      if (cache.size >= size) cache.delete(cache.keys().next().value!);
      cache.set(text, statement);
      return statement;
    },
  };
}

export interface ReadDbConnectionOptions {
  /** The connection's page cache, in KiB (SQLite's default is 2 MiB). */
  cacheSizeKb?: number;
  /**
   * The WAL size in pages at which a COMMIT of this connection checkpoints by itself, synchronously.
   * Raise it (WAL_AUTOCHECKPOINT_PAGES) only where a checkpointer thread runs for the file.
   */
  walAutocheckpointPages?: number;
  /** Sorts and temporary B-trees in memory rather than in temporary files. */
  tempStoreMemory?: boolean;
}

/** One connection to the read database file, without touching its schema. */
export function connectReadDb(file: string, options: ReadDbConnectionOptions = {}): ReadDbHandle {
  const sqlite = new Database(file);
  useWal(sqlite, OPEN_BUSY_TIMEOUT_MS);
  sqlite.pragma(`busy_timeout = ${BUSY_TIMEOUT_MS}`);
  // NORMAL is enough: a lost tail is replayed from the checkpoints.
  sqlite.pragma('synchronous = NORMAL');
  // Deleted and overwritten rows are zeroed on disk, so an erased person's data leaves the file's
  // free pages too, not only its live rows (the erasure then checkpoints the WAL away).
  sqlite.pragma('secure_delete = ON');
  if (options.cacheSizeKb) sqlite.pragma(`cache_size = -${Math.trunc(options.cacheSizeKb)}`);
  if (options.walAutocheckpointPages !== undefined) sqlite.pragma(`wal_autocheckpoint = ${Math.trunc(options.walAutocheckpointPages)}`);
  if (options.tempStoreMemory) sqlite.pragma('temp_store = MEMORY');
  const db = new Kysely<ReadDb>({ dialect: new SqliteDialect({ database: cachingDatabase(sqlite) }) });
  fileOf.set(db, file);
  sqliteOf.set(db, sqlite);
  return db;
}

/**
 * The row writer (rows.ts) on the connection behind this handle or transaction, naming the live
 * tables. Use it inside writeTransaction: it writes on that transaction's connection, synchronously.
 */
export function writerOf(db: Kysely<ReadDb>): RowWriter {
  const sqlite = sqliteConnectionOf(db);
  let writer = writers.get(sqlite);
  if (!writer) writers.set(sqlite, (writer = new RowWriter(sqlite)));
  return writer;
}

/** The better-sqlite3 connection behind a handle from connectReadDb (for writers naming other tables). */
export function sqliteConnectionOf(db: Kysely<ReadDb>): Database.Database {
  const sqlite = sqliteOf.get(db);
  if (!sqlite) throw new Error('not a handle from openReadDb/connectReadDb, nor a transaction of one');
  return sqlite;
}

/**
 * Opens the read-model database: the checkpoints, and an empty table for every projection whose
 * table does not exist yet (so queries never meet a missing table). Rows come only from the runner.
 */
export async function openReadDb(file: string, projections?: readonly Projection[]): Promise<ReadDbHandle> {
  const db = connectReadDb(file);
  try {
    await writeTransaction(db, async (trx) => {
      await prepareBookkeeping(trx);
      await ensureTables(trx, writerOf(trx), projections ?? allProjections);
    });
  } catch (err) {
    await db.destroy();
    throw err;
  }
  // The API's per-request reads (session, user, wallet, unread count) on a read-only connection.
  registerHotReads(db, file);
  return db;
}

/** The file a handle was opened on. */
export function readDbFileOf(db: ReadDbHandle): string {
  const file = fileOf.get(db);
  if (!file) throw new Error('not a handle from openReadDb/connectReadDb');
  return file;
}

/**
 * The tables every projection shares: a checkpoint per projection (with the version its rows were
 * built by), the read models parked at an event they could not apply, and the claims of builds in
 * progress. A data directory from before per-projection
 * checkpoints (one 'read-models' checkpoint, kysely migrations) loses those; its tables keep serving
 * until each projection has been built aside and swapped in.
 */
async function prepareBookkeeping(trx: Kysely<ReadDb>): Promise<void> {
  await sql`CREATE TABLE IF NOT EXISTS checkpoints (name TEXT PRIMARY KEY, position INTEGER NOT NULL, updated_at TEXT NOT NULL, version INTEGER NOT NULL DEFAULT 0)`.execute(trx);
  const columns = await sql<{ name: string }>`SELECT name FROM pragma_table_info('checkpoints')`.execute(trx);
  if (!columns.rows.some((c) => c.name === 'version')) {
    await sql`ALTER TABLE checkpoints ADD COLUMN version INTEGER NOT NULL DEFAULT 0`.execute(trx);
  }
  await sql`DELETE FROM checkpoints WHERE name = 'read-models'`.execute(trx);
  await sql`DROP TABLE IF EXISTS kysely_migration`.execute(trx);
  await sql`DROP TABLE IF EXISTS kysely_migration_lock`.execute(trx);
  await sql`CREATE TABLE IF NOT EXISTS parked_read_models (name TEXT PRIMARY KEY, version INTEGER NOT NULL, position INTEGER NOT NULL, event_type TEXT NOT NULL, error TEXT NOT NULL, parked_at TEXT NOT NULL)`.execute(trx);
  await sql`CREATE TABLE IF NOT EXISTS projection_builds (name TEXT PRIMARY KEY, version INTEGER NOT NULL, generation TEXT NOT NULL, heartbeat_at INTEGER NOT NULL)`.execute(trx);
}

/** A FIFO lock per read database file, shared by every connection of this process to that file. */
const locks = new Map<string, Promise<void>>();
async function lockFile(file: string): Promise<() => void> {
  const previous = locks.get(file) ?? Promise.resolve();
  let release!: () => void;
  const mine = new Promise<void>((resolve) => (release = resolve));
  const tail = previous.then(() => mine);
  locks.set(file, tail);
  await previous;
  return () => {
    release();
    if (locks.get(file) === tail) locks.delete(file);
  };
}

export function isBusy(err: unknown): boolean {
  const code = (err as { code?: unknown } | null)?.code;
  return code === 'SQLITE_BUSY' || code === 'SQLITE_BUSY_SNAPSHOT' || code === 'SQLITE_LOCKED';
}

/**
 * A failure of the machine's storage rather than of the code: 'full' (SQLITE_FULL, ENOSPC, EDQUOT)
 * or 'read_only' (SQLITE_READONLY*, EROFS, a file that cannot be opened or written any more), looked
 * for through `cause`; null for anything else. Such a failure passes when the disk does: it is
 * retried or answered 503, never parked or answered 500.
 */
export function storageFault(err: unknown): 'full' | 'read_only' | null {
  let e = err;
  for (let depth = 0; e && depth < 5; depth++, e = (e as { cause?: unknown }).cause) {
    // S3: MinIO says its disks are full by the error's name (the AWS SDK's `name`, its XML `Code`).
    if ((e as { name?: unknown }).name === 'XMinioStorageFull') return 'full';
    const code = (e as { code?: unknown }).code;
    if (typeof code !== 'string') continue;
    if (code === 'SQLITE_FULL' || code === 'ENOSPC' || code === 'EDQUOT') return 'full';
    if (code.startsWith('SQLITE_READONLY') || code.startsWith('SQLITE_CANTOPEN') || code.startsWith('SQLITE_IOERR') || code === 'EROFS') return 'read_only';
    // A file system call refused (an immutable file, a directory made read-only): not a request's fault.
    if ((code === 'EPERM' || code === 'EACCES') && typeof (e as { syscall?: unknown }).syscall === 'string') return 'read_only';
  }
  return null;
}

/**
 * Runs `fn` in a `BEGIN IMMEDIATE` transaction: the write lock is taken up front, so two processes
 * sharing the file never deadlock upgrading a read lock. Connections of this process take turns
 * through an in-process lock; another process's lock is waited for asynchronously (short retries),
 * never by blocking the event loop.
 */
export async function writeTransaction<T>(db: ReadDbHandle, fn: (trx: Kysely<ReadDb>) => T | Promise<T>): Promise<T> {
  const sqlite = sqliteConnectionOf(db);
  const release = await lockFile(fileOf.get(db) ?? '');
  try {
    // Holding Kysely's connection keeps the handle's own queries out of the transaction; the
    // transaction itself is driven on the connection directly (projections write through it, rows.ts).
    return await db.connection().execute(async (conn) => {
      sqliteOf.set(conn, sqlite);
      await beginImmediate(sqlite);
      try {
        const result = await fn(conn);
        sqlite.exec('COMMIT');
        return result;
      } catch (err) {
        if (sqlite.inTransaction) sqlite.exec('ROLLBACK');
        throw err;
      }
    });
  } finally {
    release();
  }
}

async function beginImmediate(sqlite: Database.Database): Promise<void> {
  const started = Date.now();
  for (let attempt = 0; ; attempt++) {
    try {
      sqlite.exec('BEGIN IMMEDIATE');
      return;
    } catch (err) {
      if (!isBusy(err) || Date.now() - started > WRITE_LOCK_PATIENCE_MS) throw err;
      await new Promise((resolve) => setTimeout(resolve, Math.min(25, 1 + attempt)));
    }
  }
}
