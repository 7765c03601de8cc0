import { type SyncPostgres, ensureTables, openSyncPostgres } from '../event-store/postgres-sync.ts';
import { HashedAttemptStore } from './attempts.ts';

/**
 * Attempt counters in PostgreSQL (EVENT_STORE=postgres): one table, `kamai.attempts`, shared by
 * every node, so guesses spread over the nodes are counted together. Keys are stored as the same
 * HMAC as in SQLite (under the secret every node shares). Each count is one upsert, atomic under
 * the row's lock. Deleted rows are not overwritten in PostgreSQL (docs/privacy.md); they hold
 * hashes only.
 */
export class PostgresAttemptStore extends HashedAttemptStore {
  readonly #pg: SyncPostgres;
  readonly #release: () => void;

  constructor(url: string, secret: Uint8Array) {
    super(secret);
    const { pg, release } = openSyncPostgres(url);
    this.#pg = pg;
    this.#release = release;
    try {
      ensureTables(
        pg,
        `CREATE TABLE IF NOT EXISTS kamai.attempts (key text PRIMARY KEY, count bigint NOT NULL, reset_at bigint NOT NULL);
         CREATE INDEX IF NOT EXISTS attempts_reset_at ON kamai.attempts (reset_at)`,
      );
    } catch (err) {
      release();
      throw err;
    }
  }

  protected addHashed(key: string, amount: number, windowMs: number, now: number): number {
    // A new window when the old one has ended, else more in the current window.
    const [row] = this.#pg.query<{ count: number }>(
      `INSERT INTO kamai.attempts AS a (key, count, reset_at) VALUES ($1, $2, $3::bigint + $4::bigint)
       ON CONFLICT (key) DO UPDATE SET
         count = CASE WHEN a.reset_at <= $3 THEN $2 ELSE a.count + $2 END,
         reset_at = CASE WHEN a.reset_at <= $3 THEN $3::bigint + $4::bigint ELSE a.reset_at END
       RETURNING count::float8 AS count`,
      [key, amount, now, windowMs],
    );
    return row!.count;
  }

  protected getHashed(key: string, now: number): { count: number; resetAt: number } | null {
    const [row] = this.#pg.query<{ count: number; resetAt: number }>(
      'SELECT count::float8 AS count, reset_at::float8 AS "resetAt" FROM kamai.attempts WHERE key = $1 AND reset_at > $2',
      [key, now],
    );
    return row ?? null;
  }

  protected resetHashed(keys: string[]): void {
    this.#pg.query('DELETE FROM kamai.attempts WHERE key = ANY($1)', [keys]);
  }

  protected takeBackHashed(key: string, now: number): void {
    this.#pg.query('UPDATE kamai.attempts SET count = count - 1 WHERE key = $1 AND count > 0 AND reset_at > $2', [key, now]);
  }

  expire(now = Date.now()): number {
    return this.#pg.query<{ n: number }>('WITH gone AS (DELETE FROM kamai.attempts WHERE reset_at <= $1 RETURNING 1) SELECT count(*)::int AS n FROM gone', [now])[0]!.n;
  }

  protected closeBackend(): void {
    try {
      this.expire();
    } finally {
      this.#release();
    }
  }
}
