import Database from 'better-sqlite3';
import type { Kysely } from 'kysely';
import type { ReadDb } from './schema.ts';

// Kysely<ReadDb> is db.ts's ReadDbHandle; named here directly, as db.ts imports this module.
type ReadDbHandle = Kysely<ReadDb>;

/**
 * Prepared statements for the reads every request makes (session, user, wallet, unread count).
 * Kysely compiles each query anew (db.ts caches the prepared statements, not the compiling), which
 * cost a third of the CPU of a hot read; these are raw SQL, prepared once per read database.
 *
 * They run on a connection of their own, read-only: in WAL mode it sees only committed rows, so a
 * request never reads a projection batch that is still open (and may roll back) on the writer's
 * connection. SQLite re-prepares a statement by itself when the schema under it changes, so a
 * read model swapped in by a rebuild is read correctly.
 */
/**
 * A user's pending payout: the journal's `user:<id>:payout_pending` balance (requested, not yet
 * paid), as a column of a query on `users`. One expression for the hot lookup and the query builder.
 */
export const PENDING_PAYOUT_SQL = "COALESCE((SELECT credit_paise - debit_paise FROM journal_balances WHERE account = 'user:' || users.id || ':payout_pending'), 0)";

export interface HotReads {
  readonly userById: Database.Statement<[string]>;
  readonly userRecord: Database.Statement<[string]>;
  readonly walletFigures: Database.Statement<[string]>;
  readonly liveSession: Database.Statement<[string, string]>;
  readonly wallet: Database.Statement<[string]>;
  readonly unreadCount: Database.Statement<[string], number>;
}

interface Entry {
  file: string;
  reader?: Database.Database;
  reads?: HotReads;
}

const entries = new WeakMap<ReadDbHandle, Entry>();

/**
 * Called by `openReadDb`: remembers the file behind the handle and closes the reader with it.
 * In-memory databases get no reader (a second connection would see another database).
 */
export function registerHotReads(db: ReadDbHandle, file: string): void {
  if (file === ':memory:' || file === '') return;
  const entry: Entry = { file };
  entries.set(db, entry);
  const destroy = db.destroy.bind(db);
  db.destroy = async () => {
    entries.delete(db);
    if (entry.reader?.open) entry.reader.close();
    await destroy();
  };
}

/** The cached statements for this read database, or undefined when it has none (then use kysely). */
export function hotReads(db: ReadDbHandle): HotReads | undefined {
  const entry = entries.get(db);
  if (!entry) return undefined;
  if (entry.reads) return entry.reads;
  const reader = new Database(entry.file, { readonly: true, fileMustExist: true });
  reader.pragma('busy_timeout = 5000');
  entry.reader = reader;
  entry.reads = {
    userById: reader.prepare(
      // The same columns as selectUsers in users/queries.ts.
      `SELECT users.*, COALESCE(wallets.balance_paise, 0) AS balance_paise, COALESCE(wallets.total_earned_paise, 0) AS total_earned_paise,
         ${PENDING_PAYOUT_SQL} AS pending_payout_paise
       FROM users LEFT JOIN wallets ON wallets.user_id = users.id WHERE users.id = ?`,
    ),
    userRecord: reader.prepare(`SELECT * FROM users WHERE id = ?`),
    // The figures of findWalletFigures in users/queries.ts (the users alias serves PENDING_PAYOUT_SQL).
    walletFigures: reader.prepare(
      `SELECT COALESCE(wallets.balance_paise, 0) AS balance_paise, COALESCE(wallets.total_earned_paise, 0) AS total_earned_paise,
         ${PENDING_PAYOUT_SQL} AS pending_payout_paise
       FROM (SELECT ? AS id) AS users LEFT JOIN wallets ON wallets.user_id = users.id`,
    ),
    liveSession: reader.prepare(`SELECT sid, user_id, expires_at, started_at, last_seen_at FROM sessions WHERE sid = ? AND expires_at > ?`),
    wallet: reader.prepare(`SELECT * FROM wallets WHERE user_id = ?`),
    unreadCount: reader.prepare<[string], number>(`SELECT COUNT(*) FROM notifications WHERE user_id = ? AND is_read = 0`).pluck(),
  };
  return entry.reads;
}
