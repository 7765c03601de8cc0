import Database from 'better-sqlite3';
import { Kysely, Migrator, SqliteDialect, type Transaction, sql } from 'kysely';
import { registerHotReads } from './hot-reads.ts';
import { migrations } from './migrations/index.ts';
import type { ReadDb } from './schema.ts';

export type ReadDbHandle = Kysely<ReadDb>;
export type ReadTx = Transaction<ReadDb> | Kysely<ReadDb>;

/**
 * Opens (and migrates) the read-model database. WAL lets readers go on while the projection runner
 * writes; `synchronous=NORMAL` is enough because a lost tail is replayed from the checkpoint.
 */
export async function openReadDb(file: string): Promise<ReadDbHandle> {
  const sqlite = new Database(file);
  sqlite.pragma('journal_mode = WAL');
  sqlite.pragma('synchronous = NORMAL');
  sqlite.pragma('busy_timeout = 30000');
  const db = new Kysely<ReadDb>({ dialect: new SqliteDialect({ database: sqlite }) });
  await migrate(db);
  registerHotReads(db, file);
  return db;
}

/**
 * Brings the schema up to date inside one `BEGIN IMMEDIATE` transaction. Kysely's migration lock
 * is a no-op on SQLite, and two processes starting on a fresh DATA_DIR would otherwise both run the
 * first migration; with the write lock taken first, the second waits and then finds it applied.
 */
async function migrate(db: Kysely<ReadDb>): Promise<void> {
  await writeTransaction(db, async (conn) => {
    const migrator = new Migrator({ db: conn, provider: { getMigrations: async () => migrations }, disableTransactions: true });
    const { error, results } = await migrator.migrateToLatest();
    if (error) {
      const failed = results?.find((r) => r.status === 'Error')?.migrationName ?? 'unknown';
      throw new Error(`read-model migration ${failed} failed: ${String(error)}`);
    }
  });
}

/**
 * Runs `fn` in a `BEGIN IMMEDIATE` transaction: the write lock is taken up front, so two processes
 * sharing the file never deadlock upgrading a read lock to a write lock.
 */
export async function writeTransaction<T>(db: ReadDbHandle, fn: (trx: Kysely<ReadDb>) => Promise<T>): Promise<T> {
  return db.connection().execute(async (conn) => {
    await sql`BEGIN IMMEDIATE`.execute(conn);
    try {
      const result = await fn(conn);
      await sql`COMMIT`.execute(conn);
      return result;
    } catch (err) {
      await sql`ROLLBACK`.execute(conn);
      throw err;
    }
  });
}
