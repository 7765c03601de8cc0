import { createHmac } from 'node:crypto';
import type Database from 'better-sqlite3';
import { openWalFile } from '../sqlite-file.ts';

/** How often rows whose window has ended are deleted (also at close). */
const SWEEP_EVERY_MS = 60_000;

/**
 * The keys counted against a mobile number (sign-in failures, reset codes sent, wrong reset codes):
 * what erasing the number's owner deletes. A new key naming a mobile number belongs here.
 */
export const mobileAttemptKeys = (mobile: string): string[] => [`mobile:${mobile}`, `reset-send:mobile:${mobile}`, `reset-guess:mobile:${mobile}`];

/** Attempt counters shared by every API process (and, with EVENT_STORE=postgres, every node). */
export interface AttemptStore {
  /** Counts one attempt for `key` in a window of `windowMs`; returns the count so far. */
  count(key: string, windowMs: number, now?: number): number;
  /** Adds `amount` (bytes, say) to `key` in a window of `windowMs`; returns the total so far. */
  add(key: string, amount: number, windowMs: number, now?: number): number;
  /** The count in the current window, and when it ends. */
  get(key: string, now?: number): { count: number; resetAt: number } | null;
  reset(key: string): void;
  /** Takes back one attempt counted ahead of a check that then succeeded. */
  takeBack(key: string, now?: number): void;
  /** Deletes the rows whose window has ended: an ended window counts nothing and keeps nothing. */
  expire(now?: number): number;
  /** Deletes every row counted against a mobile number (its owner is erased). */
  forgetMobile(mobile: string): void;
  close(): void;
}

/**
 * What every attempt store does the same way: keys are stored as an HMAC under the server's secret,
 * never the number or address they name; the backend counts under the hashed key.
 */
export abstract class HashedAttemptStore implements AttemptStore {
  readonly #sweeper: NodeJS.Timeout;

  constructor(private readonly secret: Uint8Array) {
    this.#sweeper = setInterval(() => {
      try {
        this.expire();
      } catch {
        // The store cannot be reached now (a database restarting): the next sweep deletes them.
      }
    }, SWEEP_EVERY_MS).unref();
  }

  /** The stored form of a key: an HMAC, never the number or address it names. */
  protected hash(key: string): string {
    return createHmac('sha256', this.secret).update(`attempts\n${key}`).digest('base64url');
  }

  protected abstract addHashed(hash: string, amount: number, windowMs: number, now: number): number;
  protected abstract getHashed(hash: string, now: number): { count: number; resetAt: number } | null;
  protected abstract resetHashed(hashes: string[]): void;
  protected abstract takeBackHashed(hash: string, now: number): void;
  abstract expire(now?: number): number;
  protected abstract closeBackend(): void;

  count(key: string, windowMs: number, now = Date.now()): number {
    return this.add(key, 1, windowMs, now);
  }

  add(key: string, amount: number, windowMs: number, now = Date.now()): number {
    return this.addHashed(this.hash(key), amount, windowMs, now);
  }

  get(key: string, now = Date.now()): { count: number; resetAt: number } | null {
    return this.getHashed(this.hash(key), now);
  }

  reset(key: string): void {
    this.resetHashed([this.hash(key)]);
  }

  takeBack(key: string, now = Date.now()): void {
    this.takeBackHashed(this.hash(key), now);
  }

  forgetMobile(mobile: string): void {
    this.resetHashed(mobileAttemptKeys(mobile).map((key) => this.hash(key)));
  }

  close(): void {
    clearInterval(this.#sweeper);
    this.closeBackend();
  }
}

/**
 * Attempt counters in a small SQLite file in DATA_DIR: every API process on that data directory
 * counts into the same rows, and the counts survive a restart. Each count is one statement under
 * SQLite's write lock, so concurrent attempts from several processes never lose one.
 *
 * Keys name mobile numbers and client addresses, so a row stores only a keyed hash of its key (HMAC
 * under the server's secret: the file alone cannot be searched for a number), rows are deleted once
 * their window ends, and deleted bytes are zeroed (secure_delete) and leave the WAL at close.
 */
export class SqliteAttemptStore extends HashedAttemptStore {
  private readonly db: Database.Database;
  private readonly hit: Database.Statement<[{ key: string; now: number; windowMs: number; amount: number }]>;
  private readonly read: Database.Statement<[{ key: string; now: number }]>;
  private readonly clear: Database.Statement<[{ key: string }]>;
  private readonly forgive: Database.Statement<[{ key: string; now: number }]>;
  private readonly sweep: Database.Statement<[{ now: number }]>;

  constructor(file: string, secret: Uint8Array) {
    super(secret);
    this.db = openWalFile(file, 5000);
    this.db.pragma('secure_delete = ON');
    this.db.exec('CREATE TABLE IF NOT EXISTS attempts (key TEXT PRIMARY KEY, count INTEGER NOT NULL, reset_at INTEGER NOT NULL)');
    this.db.exec('CREATE INDEX IF NOT EXISTS attempts_reset_at ON attempts (reset_at)');
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

  protected addHashed(key: string, amount: number, windowMs: number, now: number): number {
    return (this.hit.get({ key, now, windowMs, amount }) as { count: number }).count;
  }

  protected getHashed(key: string, now: number): { count: number; resetAt: number } | null {
    return (this.read.get({ key, now }) as { count: number; resetAt: number } | undefined) ?? null;
  }

  protected resetHashed(keys: string[]): void {
    this.db.transaction(() => {
      for (const key of keys) this.clear.run({ key });
    })();
  }

  protected takeBackHashed(key: string, now: number): void {
    this.forgive.run({ key, now });
  }

  expire(now = Date.now()): number {
    return this.sweep.run({ now }).changes;
  }

  protected closeBackend(): void {
    try {
      this.expire();
      // Empties the WAL, so no deleted row's page stays in it (busy when another process reads: fine).
      this.db.pragma('wal_checkpoint(TRUNCATE)');
    } finally {
      this.db.close();
    }
  }
}
