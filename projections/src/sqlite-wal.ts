import Database from 'better-sqlite3';

// Its own module, with better-sqlite3 its only import: the key store and the reader threads open
// files in WAL mode too, and a thread's start-up should not load every read model to do it.

const pause = new Int32Array(new SharedArrayBuffer(4));

/**
 * Sets the busy timeout and turns the file to WAL, waiting up to `busyTimeoutMs`. Turning a new file
 * to WAL upgrades a shared lock to an exclusive one; when two processes open the same new file at
 * once (two API processes starting together) SQLite answers SQLITE_BUSY to one of them at once,
 * without its busy handler, to avoid a deadlock. So the switch is tried again, a few milliseconds
 * apart, until the timeout.
 */
export function useWal(db: Database.Database, busyTimeoutMs: number): void {
  db.pragma(`busy_timeout = ${busyTimeoutMs}`);
  const deadline = Date.now() + busyTimeoutMs;
  for (;;) {
    try {
      db.pragma('journal_mode = WAL');
      return;
    } catch (err) {
      const busy = err instanceof Database.SqliteError && (err.code === 'SQLITE_BUSY' || err.code === 'SQLITE_LOCKED');
      if (!busy || Date.now() >= deadline) throw err;
      Atomics.wait(pause, 0, 0, 10 + Math.floor(Math.random() * 20));
    }
  }
}
