import { useWal } from '@kamai/projections/sqlite-wal';
import Database from 'better-sqlite3';

/** A connection to a SQLite file in WAL mode that waits up to `busyTimeoutMs` for another process's lock. */
export function openWalFile(file: string, busyTimeoutMs: number): Database.Database {
  const db = new Database(file);
  try {
    useWal(db, busyTimeoutMs);
  } catch (err) {
    db.close();
    throw err;
  }
  return db;
}
