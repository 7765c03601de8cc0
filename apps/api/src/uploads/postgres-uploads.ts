import { type SyncPostgres, ensureTables, openSyncPostgres } from '../event-store/postgres-sync.ts';
import type { UploadLedger } from './sweep.ts';

/**
 * The upload ledger in PostgreSQL (EVENT_STORE=postgres), `kamai.pending_uploads`: an upload handed
 * out by one node and used through another is still known, and any node's sweep may delete it.
 */
export class PostgresUploadLedger implements UploadLedger {
  readonly #pg: SyncPostgres;
  readonly #release: () => void;

  constructor(url: string) {
    const { pg, release } = openSyncPostgres(url);
    this.#pg = pg;
    this.#release = release;
    try {
      ensureTables(pg, 'CREATE TABLE IF NOT EXISTS kamai.pending_uploads (key text PRIMARY KEY, created_at bigint NOT NULL)');
    } catch (err) {
      release();
      throw err;
    }
  }

  record(key: string, now = Date.now()): void {
    this.#pg.query('INSERT INTO kamai.pending_uploads (key, created_at) VALUES ($1, $2) ON CONFLICT (key) DO NOTHING', [key, now]);
  }

  olderThan(cutoff: number): string[] {
    return this.#pg
      .query<{ key: string }>('SELECT key FROM kamai.pending_uploads WHERE created_at <= $1 ORDER BY created_at LIMIT 1000', [cutoff])
      .map((r) => r.key);
  }

  forget(key: string): void {
    this.#pg.query('DELETE FROM kamai.pending_uploads WHERE key = $1', [key]);
  }

  close(): void {
    this.#release();
  }
}
