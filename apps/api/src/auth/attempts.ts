import type Database from 'better-sqlite3';
import { openWalFile } from '../sqlite-file.ts';

/**
 * Attempt counters in a small SQLite file in DATA_DIR: every API process on that data directory
 * counts into the same rows, and the counts survive a restart. Each count is one statement under
 * SQLite's write lock, so concurrent attempts from several processes never lose one.
 */
export class AttemptStore {
  private readonly db: Database.Database;
  private readonly hit: Database.Statement<[{ key: string; now: number; windowMs: number; amount: number }]>;
  private readonly read: Database.Statement<[{ key: string; now: number }]>;
  private readonly clear: Database.Statement<[{ key: string }]>;
  private readonly forgive: Database.Statement<[{ key: string; now: number }]>;
  private readonly sweep: Database.Statement<[{ now: number }]>;
  private writes = 0;

  constructor(file: string) {
    this.db = openWalFile(file, 5000);
    this.db.exec('CREATE TABLE IF NOT EXISTS attempts (key TEXT PRIMARY KEY, count INTEGER NOT NULL, reset_at INTEGER NOT NULL)');
    // A new window when the old one has ended, else one more in the current window.
    this.hit = this.db.prepare(
      `INSERT INTO attempts (key, count, reset_at) VALUES (@key, @amount, @now + @windowMs)
       ON CONFLICT(key) DO UPDATE SET
         count = CASE WHEN reset_at <= @now THEN @amount ELSE count + @amount END,
         reset_at = CASE WHEN reset_at <= @now THEN @now + @windowMs ELSE reset_at END
       RETURNING count`,
    );
    this.read = this.db.prepare('SELECT count, reset_at AS resetAt FROM attempts WHERE key = @key AND reset_at > @now');
    this.clear = this.db.prepare('DELETE FROM attempts WHERE key = @key');
    this.forgive = this.db.prepare('UPDATE attempts SET count = count - 1 WHERE key = @key AND count > 0 AND reset_at > @now');
    this.sweep = this.db.prepare('DELETE FROM attempts WHERE reset_at <= @now');
  }

  /** Counts one attempt for `key` in a window of `windowMs`; returns the count so far. */
  count(key: string, windowMs: number, now = Date.now()): number {
    return this.add(key, 1, windowMs, now);
  }

  /** Adds `amount` (bytes, say) to `key` in a window of `windowMs`; returns the total so far. */
  add(key: string, amount: number, windowMs: number, now = Date.now()): number {
    const row = this.hit.get({ key, now, windowMs, amount }) as { count: number };
    if (++this.writes % 1000 === 0) this.sweep.run({ now });
    return row.count;
  }

  /** The count in the current window, and when it ends. */
  get(key: string, now = Date.now()): { count: number; resetAt: number } | null {
    return (this.read.get({ key, now }) as { count: number; resetAt: number } | undefined) ?? null;
  }

  reset(key: string): void {
    this.clear.run({ key });
  }

  /** Takes back one attempt counted ahead of a check that then succeeded. */
  takeBack(key: string, now = Date.now()): void {
    this.forgive.run({ key, now });
  }

  close(): void {
    this.db.close();
  }
}
