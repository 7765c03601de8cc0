import Database from 'better-sqlite3';

/**
 * A connection to a SQLite file in WAL mode that waits up to `busyTimeoutMs` for another process's
 * lock. The timeout is set before WAL: turning a new file to WAL takes a lock that another process
 * opening the same new file at the same moment holds (two API processes starting together).
 */
export function openWalFile(file: string, busyTimeoutMs: number): Database.Database {
  const db = new Database(file);
  try {
    db.pragma(`busy_timeout = ${busyTimeoutMs}`);
    db.pragma('journal_mode = WAL');
  } catch (err) {
    db.close();
    throw err;
  }
  return db;
}
