/**
 * `npm run cli -- backup <dir>` and `restore <backup> <data dir>`: a consistent copy of a data
 * directory taken while the app runs, and a restore that keeps erased people erased.
 *
 * What is copied: the event log, the read models, the key store, the throttle store (each through
 * SQLite's online backup API, consistent while other processes write) and the local object store.
 * Never the key-encryption key (`kek.key`) nor the app secret (`secret.key`): they are kept apart
 * from the data, so a stolen backup alone opens nothing personal.
 */
import { createHash } from 'node:crypto';
import { cp, copyFile, mkdir, readFile, readdir, rm, stat, writeFile } from 'node:fs/promises';
import { basename, join, relative } from 'node:path';
import Database from 'better-sqlite3';
import { SCHEMA_VERSION_KEY, eventCodec, streams } from '@kamai/contracts';
import { type Json, mobileDecider } from '@kamai/domain';
import { allProjections, openReadDb, rebuildReadModels } from '@kamai/projections';
import { SqliteAttemptStore } from '../auth/attempts.ts';
import { handleCommand } from '../commands/handle.ts';
import type { Config } from '../config.ts';
import { newEventId } from '../event-store/event-id.ts';
import { readAheadFor } from '../projections/read-ahead.ts';
import type { SealedEventStore } from '../privacy/sealed-store.ts';
import { loadSecret, openEventStore } from '../server.ts';
import { type ErasureRecord, readErasures } from './erasure-list.ts';

export const MANIFEST = 'backup.json';
const OBJECTS = 'objects';
/** Actor of the events a restore appends. */
const ACTOR = 'restore';

export interface BackupManifest {
  format: 1;
  createdAt: string;
  /** Every file copied, relative to the backup, with its size and SHA-256: a restore checks them first. */
  files: { path: string; bytes: number; sha256: string }[];
}

type BackupConfig = Pick<Config, 'dataDir' | 'eventStore' | 'readDbFile' | 'keysFile' | 'throttleFile' | 'objectStorage'>;

/**
 * The SQLite files in the order they are copied. The read models go before the log, so their
 * checkpoints never point past the copied log's head (they catch up after a restore); the key
 * store goes after it, so every copied event finds its subject's key, or the tombstone of an
 * erasure made meanwhile.
 */
function databases(config: BackupConfig): string[] {
  return [config.readDbFile, ...(config.eventStore.kind === 'sqlite' ? [config.eventStore.file] : []), config.keysFile, config.throttleFile];
}

async function exists(path: string): Promise<boolean> {
  return stat(path).then(
    () => true,
    (err: NodeJS.ErrnoException) => {
      if (err.code === 'ENOENT') return false;
      throw err;
    },
  );
}

async function filesUnder(dir: string): Promise<string[]> {
  const entries = await readdir(dir, { recursive: true, withFileTypes: true });
  return entries.filter((e) => e.isFile()).map((e) => join(e.parentPath, e.name));
}

const sha256Of = async (file: string) => createHash('sha256').update(await readFile(file)).digest('hex');

export class BackupError extends Error {
  override readonly name = 'BackupError';
}

/**
 * What `backup` and `restore` answer with EVENT_STORE=postgres. There the database is the whole
 * state (the log, the keys, the throttles, the outboxes) and a node's DATA_DIR holds read models
 * any node rebuilds from the log: a copy of DATA_DIR would be a backup of nothing. A money ledger on
 * PostgreSQL is backed up by PostgreSQL, to any moment (base backups and WAL archiving, or the
 * managed service's), not by a dump this command would take once; docs/scale-out.md says how,
 * and how to re-apply erasures made since the moment restored.
 */
export const POSTGRES_BACKUP_REFUSAL =
  "with EVENT_STORE=postgres the data is in PostgreSQL, not in DATA_DIR: back it up with PostgreSQL's own tools " +
  '(continuous WAL archiving and base backups with pg_basebackup, or your managed service\'s point-in-time backups; ' +
  "for a one-off copy, pg_dump --schema=kamai). A node's DATA_DIR holds read models only, rebuilt from the log. See docs/scale-out.md, \"Backups and failover\".";

/** Copies the data directory's files into `target` (new or empty), safe while the app runs. */
export async function backupDataDir(config: BackupConfig, target: string): Promise<BackupManifest> {
  if (config.eventStore.kind === 'postgres') throw new BackupError(POSTGRES_BACKUP_REFUSAL);
  if ((await exists(target)) && (await readdir(target)).length > 0) throw new BackupError(`${target} is not empty: give a new directory for each backup`);
  await mkdir(target, { recursive: true });
  for (const file of databases(config)) {
    if (!(await exists(file))) continue;
    const source = new Database(file, { readonly: true, fileMustExist: true });
    try {
      await source.backup(join(target, basename(file)));
    } finally {
      source.close();
    }
  }
  // Last: an image an event in the copy names was written before its event, so it is in the copy.
  const objects = join(config.dataDir, OBJECTS);
  if (config.objectStorage === 'disk' && (await exists(objects))) {
    // `.tmp` holds uploads still being written.
    await cp(objects, join(target, OBJECTS), { recursive: true, filter: (path) => !relative(objects, path).startsWith('.tmp') });
  }
  const files = [];
  for (const file of (await filesUnder(target)).sort()) {
    files.push({ path: relative(target, file), bytes: (await stat(file)).size, sha256: await sha256Of(file) });
  }
  const manifest: BackupManifest = { format: 1, createdAt: new Date().toISOString(), files };
  await writeFile(join(target, MANIFEST), `${JSON.stringify(manifest, null, 2)}\n`);
  return manifest;
}

export interface RestoreReport {
  files: number;
  /** Users whose erasure the backup predates, erased again. */
  reapplied: string[];
  /** Whether the read models were rebuilt from the log (they are, when an erasure was re-applied). */
  readModelsRebuilt: boolean;
}

/**
 * Copies a backup into the data directory (the app stopped), then re-applies every erasure in the
 * erasure list that the restored files do not hold yet, and rebuilds the read models if it did.
 */
export async function restoreBackup(backup: string, config: Config, log: (line: string) => void = () => {}): Promise<RestoreReport> {
  if (config.eventStore.kind === 'postgres') throw new BackupError(POSTGRES_BACKUP_REFUSAL);
  let manifest: BackupManifest;
  try {
    manifest = JSON.parse(await readFile(join(backup, MANIFEST), 'utf8')) as BackupManifest;
  } catch {
    throw new BackupError(`${backup} holds no ${MANIFEST}: not a backup made by the backup command`);
  }
  // A damaged or partial backup is refused before anything in the data directory is touched.
  for (const file of manifest.files) {
    const path = join(backup, file.path);
    if (!(await exists(path)) || (await sha256Of(path)) !== file.sha256) throw new BackupError(`${path} is missing or differs from the backup's manifest`);
  }
  // The KEK is never in a backup: without it the restored key store opens nothing.
  if (!config.keyEncryptionKey && !(await exists(join(config.dataDir, 'kek.key')))) {
    throw new BackupError(
      'a backup holds no key-encryption key: set KEY_ENCRYPTION_KEY to the key the backed-up data was made with ' +
        `(in development, copy kek.key from the old data directory into ${config.dataDir})`,
    );
  }
  await mkdir(config.dataDir, { recursive: true });
  for (const file of databases(config)) {
    // A WAL left beside a replaced file would be applied to it: the three go together.
    for (const suffix of ['', '-wal', '-shm']) await rm(`${file}${suffix}`, { force: true });
    const copy = join(backup, basename(file));
    if (await exists(copy)) await copyFile(copy, file);
  }
  if (config.objectStorage === 'disk') {
    await rm(join(config.dataDir, OBJECTS), { recursive: true, force: true });
    if (await exists(join(backup, OBJECTS))) await cp(join(backup, OBJECTS), join(config.dataDir, OBJECTS), { recursive: true });
  }
  log(`restored ${manifest.files.length} files of the backup made at ${manifest.createdAt}`);

  const store = await openEventStore(config);
  try {
    const reapplied: string[] = [];
    for (const erasure of await readErasures(config.erasureList)) {
      if (await reapplyErasure(store, config, erasure)) reapplied.push(erasure.userId);
    }
    if (reapplied.length === 0) return { files: manifest.files.length, reapplied, readModelsRebuilt: false };
    log(`erased again (erased since the backup): ${reapplied.join(', ')}`);
    // The copied read models hold the people erased since as they were: they are built anew.
    for (const suffix of ['', '-wal', '-shm']) await rm(`${config.readDbFile}${suffix}`, { force: true });
    const db = await openReadDb(config.readDbFile);
    try {
      await rebuildReadModels(db, store, allProjections, { readAhead: readAheadFor(store) });
    } finally {
      await db.destroy();
    }
    return { files: manifest.files.length, reapplied, readModelsRebuilt: true };
  } finally {
    await store.close();
  }
}

/** A user id as it appears in object keys: nothing that could walk out of the objects directory. */
const USER_ID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/**
 * Erases a person again in the restored files, each step safe to repeat: `UserErased` on their
 * stream (the request's own events may be newer than the backup, so it is appended as the fact it
 * is, not decided again), their number's reservation released, the throttle rows of the number
 * forgotten, every object under their id deleted, and last their key. Returns whether anything was
 * left to do.
 */
async function reapplyErasure(store: SealedEventStore, config: Config, erasure: ErasureRecord): Promise<boolean> {
  const { userId } = erasure;
  if (!USER_ID.test(userId)) throw new BackupError(`the erasure list names ${JSON.stringify(userId)}, which is not a user id`);
  const events = await store.readStream(streams.user(userId));
  const erasedInLog = events.some((e) => e.type === 'UserErased');
  const keys = store.personal.keys;
  if (keys.isErased(userId) && (erasedInLog || events.length === 0)) return false;

  const registered = events[0] ? eventCodec.decode(events[0]) : null;
  const mobile = registered?.type === 'UserRegistered' && keys.existingKey(userId) ? registered.data.mobile : null;
  if (events.length > 0 && !erasedInLog) {
    const { type, data, schemaVersion } = eventCodec.encode({ type: 'UserErased', data: { requestId: erasure.requestId, erasedBy: erasure.erasedBy, erasedAt: erasure.erasedAt } });
    await store.append(
      streams.user(userId),
      [{ id: newEventId(), type, data: data as Json, metadata: { actor: ACTOR, [SCHEMA_VERSION_KEY]: schemaVersion } }],
      events[events.length - 1]!.revision,
    );
  }
  if (mobile !== null) {
    const now = new Date().toISOString();
    for (const streamId of new Set([store.personal.mobileStreamId(mobile), store.personal.legacyMobileStreamId(mobile)])) {
      await handleCommand(store, streamId, mobileDecider, { type: 'ReleaseMobile', userId, now }, { actor: ACTOR });
    }
    const attempts = new SqliteAttemptStore(config.throttleFile, loadSecret(config));
    try {
      attempts.forgetMobile(mobile);
    } finally {
      attempts.close();
    }
  }
  // Object keys are `<kind>/<user id>/<uuid>`: everything the person uploaded, whatever an event says.
  if (config.objectStorage === 'disk') {
    const objects = join(config.dataDir, OBJECTS);
    for (const kind of (await exists(objects)) ? await readdir(objects) : []) await rm(join(objects, kind, userId), { recursive: true, force: true });
  }
  await store.personal.erase(userId);
  return true;
}
