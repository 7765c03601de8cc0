/**
 * Data keys of personal data, kept outside the event log (crypto-shredding): one AES-256 key per
 * data subject (a user id), created on first use and stored wrapped by a key-encryption key (KEK).
 * Erasing a subject deletes its key and leaves a tombstone, so the key is never created again and
 * whatever was sealed with it stays unreadable for good.
 *
 * The port is synchronous because the event store's synchronous reads (the session cache, the
 * subscriptions) unseal events; a cloud KMS adapter would keep the same shape by unwrapping each data
 * key through the KMS once and caching it, as this one caches keys in memory.
 */
import type Database from 'better-sqlite3';
import { randomBytes } from 'node:crypto';
import { resolve } from 'node:path';
import { OncePerTurn } from '../once-per-turn.ts';
import { openWalFile } from '../sqlite-file.ts';
import { gcmOpenPacked, gcmSealPacked } from './aead.ts';

export interface KeyStore {
  /** The subject's data key, created on first use; null once the subject was erased. */
  keyFor(subject: string): Buffer | null;
  /** The subject's data key if it exists (a read never creates one); null when absent or erased. */
  existingKey(subject: string): Buffer | null;
  /** Whether the subject's key was erased. */
  isErased(subject: string): boolean;
  /** Deletes the subject's key for good, in every process that shares the store. */
  erase(subject: string): void;
  /** A key of the system itself (the mobile-number HMAC key, the snapshot key), created once. */
  systemKey(name: string): Buffer;
  close(): void;
}

const SCHEMA = `
  CREATE TABLE IF NOT EXISTS data_keys (
    subject TEXT PRIMARY KEY,
    wrapped BLOB NOT NULL
  ) STRICT;
  CREATE TABLE IF NOT EXISTS tombstones (
    seq       INTEGER PRIMARY KEY,
    subject   TEXT    NOT NULL UNIQUE,
    erased_at TEXT    NOT NULL
  ) STRICT;
  CREATE TABLE IF NOT EXISTS kek_check (
    id      INTEGER PRIMARY KEY CHECK (id = 1),
    wrapped BLOB    NOT NULL
  ) STRICT;
`;

/** System keys live beside the subjects' under a prefix no user id has. */
export const SYSTEM_PREFIX = 'system:';
/** What the KEK check wraps: a wrong KEK fails on it at open instead of reading as "every key erased". */
const CHECK_VALUE = Buffer.from('kamai key store');

/** AES-256-GCM with the subject as associated data: a wrapped key moved to another row does not open. */
export const wrap = (kek: Buffer, subject: string, key: Buffer): Buffer => gcmSealPacked(kek, key, Buffer.from(subject));
export const unwrap = (kek: Buffer, subject: string, wrapped: Buffer): Buffer => gcmOpenPacked(kek, wrapped, Buffer.from(subject));

export class KeyStoreError extends Error {
  override readonly name = 'KeyStoreError';
}

/**
 * What both key stores do the same way around their reads: a key is created on first use (the
 * store's `create`, race-safe between processes), a read never creates one, and system keys are
 * subjects under a prefix.
 */
export abstract class CachingKeyStore implements KeyStore {
  /** The subject's key; null once erased; undefined when it has none yet. */
  protected abstract read(subject: string): Buffer | null | undefined;
  /** Creates the subject's key unless it exists or was erased (the first creator wins). */
  protected abstract create(subject: string): void;
  abstract erase(subject: string): void;
  abstract close(): void;

  keyFor(subject: string): Buffer | null {
    const known = this.read(subject);
    if (known !== undefined) return known;
    this.create(subject);
    const created = this.read(subject);
    if (created === undefined) throw new KeyStoreError(`no key for ${subject} after creating it`);
    return created;
  }

  existingKey(subject: string): Buffer | null {
    return this.read(subject) ?? null;
  }

  isErased(subject: string): boolean {
    return this.read(subject) === null;
  }

  systemKey(name: string): Buffer {
    const key = this.keyFor(SYSTEM_PREFIX + name);
    if (!key) throw new KeyStoreError(`system key ${name} is missing`);
    return key;
  }
}

/** The KEK check a store made with its first KEK: another KEK fails here, at open. */
export const kekCheck = (kek: Buffer): Buffer => wrap(kek, 'kek-check', CHECK_VALUE);

/** Throws unless `check` (what {@link kekCheck} made when `where` was created) opens with `kek`. */
export function verifyKek(kek: Buffer, check: Buffer, where: string): void {
  let opened: Buffer | null = null;
  try {
    opened = unwrap(kek, 'kek-check', check);
  } catch {
    // reported below
  }
  if (!opened?.equals(CHECK_VALUE)) throw new KeyStoreError(`${where} was made with another key-encryption key (KEY_ENCRYPTION_KEY)`);
}

/**
 * The key store in one SQLite file (DATA_DIR/keys.sqlite), shared by every process on the data
 * directory. Keys are cached in memory; in each turn of the event loop that uses a key, the file's
 * `data_version` is looked at once, and when another connection committed since, the tombstones
 * added meanwhile drop their keys from the cache: an erasure in another process stops this one from
 * opening that subject's data from its next turn on. Connections in this process to the same file
 * hear of an erasure at once. (Asking SQLite on every key use cost about 5 % of a withdrawal's
 * event-loop time: an event seals or opens several fields, a read opens many events.)
 */
export class SqliteKeyStore extends CachingKeyStore {
  readonly file: string;
  readonly #db: Database.Database;
  readonly #kek: Buffer;
  readonly #cache = new Map<string, Buffer | null>();
  #dataVersion = -1;
  #lastTombstone = 0;
  /** `data_version` is looked at once per event-loop turn. */
  readonly #turn = new OncePerTurn();
  /** The open key stores of this process, by file: an erasure reaches its siblings at once. */
  static readonly #open = new Map<string, Set<SqliteKeyStore>>();
  readonly #sql: {
    dataVersion: Database.Statement<[], number>;
    key: Database.Statement<[string], Buffer>;
    tombstone: Database.Statement<[string], number>;
    tombstonesAfter: Database.Statement<[number], { seq: number; subject: string }>;
    insertKey: Database.Statement<[string, Buffer]>;
    deleteKey: Database.Statement<[string]>;
    insertTombstone: Database.Statement<[string, string]>;
  };

  constructor(file: string, kek: Buffer) {
    super();
    if (kek.length !== 32) throw new KeyStoreError('the key-encryption key must be 32 bytes');
    this.file = resolve(file);
    this.#kek = kek;
    const db = openWalFile(file, 5000);
    this.#db = db;
    try {
      db.pragma('synchronous = FULL');
      // An erased key's bytes are overwritten, not just unlinked from the b-tree.
      db.pragma('secure_delete = ON');
      db.transaction(() => {
        db.exec(SCHEMA);
        const check = db.prepare<[], Buffer>('SELECT wrapped FROM kek_check WHERE id = 1').pluck().get();
        if (!check) {
          db.prepare('INSERT INTO kek_check (id, wrapped) VALUES (1, ?)').run(kekCheck(kek));
          return;
        }
        verifyKek(kek, check, file);
      }).immediate();
    } catch (err) {
      db.close();
      throw err;
    }
    this.#sql = {
      dataVersion: db.prepare<[], number>('PRAGMA data_version').pluck(),
      key: db.prepare<[string], Buffer>('SELECT wrapped FROM data_keys WHERE subject = ?').pluck(),
      tombstone: db.prepare<[string], number>('SELECT seq FROM tombstones WHERE subject = ?').pluck(),
      tombstonesAfter: db.prepare('SELECT seq, subject FROM tombstones WHERE seq > ? ORDER BY seq'),
      insertKey: db.prepare('INSERT OR IGNORE INTO data_keys (subject, wrapped) VALUES (?, ?)'),
      deleteKey: db.prepare('DELETE FROM data_keys WHERE subject = ?'),
      insertTombstone: db.prepare('INSERT OR IGNORE INTO tombstones (subject, erased_at) VALUES (?, ?)'),
    };
    this.#lastTombstone = db.prepare<[], number>('SELECT coalesce(max(seq), 0) FROM tombstones').pluck().get() ?? 0;
    this.#dataVersion = this.#sql.dataVersion.get() ?? 0;
    const siblings = SqliteKeyStore.#open.get(this.file) ?? new Set<SqliteKeyStore>();
    siblings.add(this);
    SqliteKeyStore.#open.set(this.file, siblings);
  }

  /** Forgets cached keys of subjects another process erased since the last look. */
  #refresh(): void {
    this.#turn.lookFirst(() => {
      const version = this.#sql.dataVersion.get() ?? 0;
      if (version === this.#dataVersion) return;
      for (const row of this.#sql.tombstonesAfter.all(this.#lastTombstone)) {
        this.#cache.set(row.subject, null);
        this.#lastTombstone = row.seq;
      }
      // Only once every tombstone is read: a failed read is looked at again.
      this.#dataVersion = version;
    });
  }

  protected read(subject: string): Buffer | null | undefined {
    this.#refresh();
    if (this.#cache.has(subject)) return this.#cache.get(subject);
    const wrapped = this.#sql.key.get(subject);
    if (wrapped) {
      const key = unwrap(this.#kek, subject, wrapped);
      this.#cache.set(subject, key);
      return key;
    }
    if (this.#sql.tombstone.get(subject) !== undefined) {
      this.#cache.set(subject, null);
      return null;
    }
    return undefined;
  }

  protected create(subject: string): void {
    // Race-safe across processes: the write lock is taken before the tombstone is looked at, and the
    // first process to insert wins (INSERT OR IGNORE); everyone then reads the winner's key.
    this.#db.transaction(() => {
      if (this.#sql.tombstone.get(subject) !== undefined) return;
      this.#sql.insertKey.run(subject, wrap(this.#kek, subject, randomBytes(32)));
    }).immediate();
  }

  erase(subject: string): void {
    if (subject.startsWith(SYSTEM_PREFIX)) throw new KeyStoreError('system keys are never erased');
    this.#db.transaction(() => {
      this.#sql.deleteKey.run(subject);
      this.#sql.insertTombstone.run(subject, new Date().toISOString());
    }).immediate();
    for (const store of SqliteKeyStore.#open.get(this.file) ?? [this]) store.#cache.set(subject, null);
    // The deleted page's old bytes may still sit in the WAL: copy it into the file (secure_delete
    // zeroes the freed cells there) and truncate the WAL to nothing. A reader holding an old
    // snapshot can stop the truncation; the next erasure's checkpoint (or SQLite's own) finishes it.
    this.#db.pragma('wal_checkpoint(TRUNCATE)');
  }

  close(): void {
    const siblings = SqliteKeyStore.#open.get(this.file);
    siblings?.delete(this);
    if (siblings?.size === 0) SqliteKeyStore.#open.delete(this.file);
    if (this.#db.open) this.#db.close();
  }
}
