import type Database from 'better-sqlite3';
import type { ReadDbHandle, ReadModels } from '@kamai/projections';
import type { EventStore } from '@kamai/domain';
import { type ObjectKey, type ObjectStorage, objectURLFor } from '../object-storage/index.ts';
import { openWalFile } from '../sqlite-file.ts';

const UNREFERENCED_UPLOAD_TTL_MS = 24 * 60 * 60_000;

/** Uploads handed out and not yet known to be used, shared by every process (and node). */
export interface UploadLedger {
  record(key: string, now?: number): void;
  /** Up to 1000 keys recorded at `cutoff` or before, oldest first. */
  olderThan(cutoff: number): string[];
  forget(key: string): void;
  close(): void;
}

/**
 * The upload ledger in DATA_DIR/throttle.sqlite beside the counters (every process records into the
 * same table).
 */
export class SqliteUploadLedger implements UploadLedger {
  private readonly db: Database.Database;

  constructor(file: string) {
    this.db = openWalFile(file, 5000);
    this.db.exec('CREATE TABLE IF NOT EXISTS pending_uploads (key TEXT PRIMARY KEY, created_at INTEGER NOT NULL)');
  }

  record(key: string, now = Date.now()): void {
    this.db.prepare('INSERT OR IGNORE INTO pending_uploads (key, created_at) VALUES (?, ?)').run(key, now);
  }

  olderThan(cutoff: number): string[] {
    return (this.db.prepare('SELECT key FROM pending_uploads WHERE created_at <= ? ORDER BY created_at LIMIT 1000').all(cutoff) as Array<{ key: string }>).map(
      (r) => r.key,
    );
  }

  forget(key: string): void {
    this.db.prepare('DELETE FROM pending_uploads WHERE key = ?').run(key);
  }

  close(): void {
    this.db.close();
  }
}

/**
 * Where a command may have referenced an upload, by its object URL. Each area that accepts uploads
 * adds its check here (proof images, profile pictures). Proof and KYC commands also move the upload
 * to a re-encoded copy and delete it, which the sweep sees as used.
 */
const UPLOAD_REFERENCES: Array<(db: ReadDbHandle, objectURL: string) => Promise<boolean>> = [
  async (db, url) => (await db.selectFrom('proof_submissions').select('id').where('proof_image_url', '=', url).executeTakeFirst()) !== undefined,
  async (db, url) => (await db.selectFrom('users').select('id').where('profile_image_url', '=', url).executeTakeFirst()) !== undefined,
];

/**
 * Deletes uploads that no command referenced within 24 hours of being handed out; forgets the ones
 * that were. The read model is caught up with the store first, so a reference just made counts.
 * Returns the keys deleted.
 */
export async function sweepUnreferencedUploads(parts: {
  ledger: UploadLedger;
  storage: ObjectStorage;
  db: ReadDbHandle;
  store: EventStore;
  runner: ReadModels;
  now?: number;
}): Promise<string[]> {
  const { ledger, storage, db, store, runner } = parts;
  const head = await store.headPosition();
  if (head > runner.position && !(await runner.waitFor(head, 10_000))) return [];
  const deleted: string[] = [];
  for (const key of ledger.olderThan((parts.now ?? Date.now()) - UNREFERENCED_UPLOAD_TTL_MS)) {
    const url = objectURLFor(key as ObjectKey);
    let referenced = false;
    for (const isReferenced of UPLOAD_REFERENCES) if (await isReferenced(db, url)) referenced = true;
    // A command that used an upload keeps a re-encoded copy and removes the upload itself, so an
    // upload already gone was used (or swept by another process): nothing to delete.
    if (!referenced && (await storage.stat(key as ObjectKey))) {
      await storage.delete(key as ObjectKey);
      deleted.push(key);
    }
    ledger.forget(key);
  }
  return deleted;
}
