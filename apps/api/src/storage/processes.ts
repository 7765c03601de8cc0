import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import Database from 'better-sqlite3';

/**
 * How many slots a DATA_DIR has for API processes to announce themselves in. More processes than
 * this on one embedded store is already far past where they stop helping; the ones beyond it take
 * no slot and still see the others.
 */
const SLOTS = 16;

/**
 * Why a second API process on one SQLite DATA_DIR is not a way to serve more (issue 39), printed once
 * at its start. The figure is the bench's (docs/figures.md).
 */
export const SECOND_PROCESS_WARNING =
  '[api] another Kamai API process is running on this DATA_DIR. On the embedded SQLite store a second process does not ' +
  'answer more: every append takes the one write lock in turn, and each process\'s projections read every event the other ' +
  'wrote (two processes answered about half of what one does: docs/figures.md). To serve more, run several nodes on ' +
  'PostgreSQL (EVENT_STORE=postgres, each node with a DATA_DIR of its own): see docs/scale-out.md.';

/** A slot of this process: held until release(), or until the process ends (the OS drops its locks). */
export interface ProcessSlot {
  /** Whether another live process held a slot on this DATA_DIR when this one took its own. */
  othersRunning: boolean;
  release(): void;
}

/**
 * Takes a slot among DATA_DIR/processes/slot-N.lock and tells whether another process holds one.
 * A slot is held by an exclusive SQLite lock (locking_mode=EXCLUSIVE keeps it after the first
 * write): the lock lives exactly as long as its process, so a crashed process leaves no stale
 * claim and a reused pid fools nothing, as a pid file could. Two connections of one process on a
 * file also exclude each other (SQLite tracks its own locks per file), so in-process servers on
 * one directory count as two too.
 */
export function takeProcessSlot(dataDir: string): ProcessSlot {
  const dir = join(dataDir, 'processes');
  mkdirSync(dir, { recursive: true });
  let held: Database.Database | undefined;
  let othersRunning = false;
  for (let slot = 0; slot < SLOTS; slot++) {
    const db = new Database(join(dir, `slot-${slot}.lock`), { timeout: 0 });
    try {
      db.pragma('locking_mode = EXCLUSIVE');
      // A real write takes the lock (and the holder's pid is there for whoever looks).
      db.exec('CREATE TABLE IF NOT EXISTS holder (id INTEGER PRIMARY KEY, pid INTEGER)');
      db.prepare('INSERT OR REPLACE INTO holder (id, pid) VALUES (1, ?)').run(process.pid);
    } catch (err) {
      db.close();
      if ((err as { code?: string }).code !== 'SQLITE_BUSY') throw err;
      othersRunning = true;
      continue;
    }
    // Free: this process keeps the first free slot, and only looks at the others (a free slot's lock is let go at once).
    if (held) db.close();
    else held = db;
  }
  return {
    othersRunning,
    release: () => {
      held?.close();
      held = undefined;
    },
  };
}
