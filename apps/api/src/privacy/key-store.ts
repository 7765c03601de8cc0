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

/** A tombstone as the stores list them: the order it was written in, and whose key it ended. */
export interface Tombstone {
  seq: number;
  subject: string;
}

/**
 * What both key stores keep the same way in each process, around their storage calls: keys cached
 * in memory; once per event-loop turn that uses a key, a cheap mark of what other processes
 * committed (`changeMark`) is looked at, and when it moved, the tombstones written since drop their
 * keys from the cache; the open stores of this process on the same storage hear of an erasure at
 * once. A key is created on first use (the store's `create`, race-safe between processes), a read
 * never creates one, and system keys are subjects under a prefix.
 */
export abstract class CachingKeyStore implements KeyStore {
  readonly #cache = new Map<string, Buffer | null>();
  #mark = -1;
  #lastTombstone = 0;
  /** The mark is looked at once per event-loop turn. */
  readonly #turn = new OncePerTurn();
  /** The open key stores of this process, by storage: an erasure reaches its siblings at once. */
  static readonly #open = new Map<string, Set<CachingKeyStore>>();
  #storage = '';

  /** The subject's stored key, unwrapped; null when a tombstone stands; undefined when it has none yet. */
  protected abstract lookup(subject: string): Buffer | null | undefined;
  /** Creates the subject's key unless it exists or was erased (the first creator wins). */
  protected abstract create(subject: string): void;
  /** Deletes the subject's key and writes its tombstone, for every process on the storage. */
  protected abstract eraseStored(subject: string): void;
  /** Something that changes whenever another process commits to the storage, cheap to read. */
  protected abstract changeMark(): number;
  /** The tombstones written after `seq`, in order. */
  protected abstract tombstonesAfter(seq: number): Tombstone[];
  protected abstract closeStorage(): void;

  /** Called by a store once its storage is open: `storage` names it (siblings share the name). */
  protected opened(storage: string, lastTombstone: number): void {
    this.#storage = storage;
    this.#lastTombstone = lastTombstone;
    this.#mark = this.changeMark();
    const siblings = CachingKeyStore.#open.get(storage) ?? new Set<CachingKeyStore>();
    siblings.add(this);
    CachingKeyStore.#open.set(storage, siblings);
  }

  /** Forgets cached keys of subjects another process erased since the last look. */
  #refresh(): void {
    this.#turn.lookFirst(() => {
      const mark = this.changeMark();
      if (mark === this.#mark) return;
      for (const row of this.tombstonesAfter(this.#lastTombstone)) {
        this.#cache.set(row.subject, null);
        this.#lastTombstone = row.seq;
      }
      // Only once every tombstone is read: a failed read is looked at again.
      this.#mark = mark;
    });
  }

  #read(subject: string): Buffer | null | undefined {
    this.#refresh();
    if (this.#cache.has(subject)) return this.#cache.get(subject);
    const key = this.lookup(subject);
    if (key !== undefined) this.#cache.set(subject, key);
    return key;
  }

  keyFor(subject: string): Buffer | null {
    const known = this.#read(subject);
    if (known !== undefined) return known;
    this.create(subject);
    const created = this.#read(subject);
    if (created === undefined) throw new KeyStoreError(`no key for ${subject} after creating it`);
    return created;
  }

  existingKey(subject: string): Buffer | null {
    return this.#read(subject) ?? null;
  }

  isErased(subject: string): boolean {
    return this.#read(subject) === null;
  }

  systemKey(name: string): Buffer {
    const key = this.keyFor(SYSTEM_PREFIX + name);
    if (!key) throw new KeyStoreError(`system key ${name} is missing`);
    return key;
  }

  erase(subject: string): void {
    if (subject.startsWith(SYSTEM_PREFIX)) throw new KeyStoreError('system keys are never erased');
    this.eraseStored(subject);
    for (const store of CachingKeyStore.#open.get(this.#storage) ?? [this]) store.#cache.set(subject, null);
  }

  close(): void {
    const siblings = CachingKeyStore.#open.get(this.#storage);
    siblings?.delete(this);
    if (siblings?.size === 0) CachingKeyStore.#open.delete(this.#storage);
    this.closeStorage();
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
 * directory. The mark of other processes' commits is the file's `data_version`, so an erasure in
 * another process stops this one from opening that subject's data from its next turn on. (Asking
 * SQLite on every key use cost about 5 % of a withdrawal's event-loop time: an event seals or opens
 * several fields, a read opens many events.)
 */
export class SqliteKeyStore extends CachingKeyStore {
  readonly file: string;
  readonly #db: Database.Database;
  readonly #kek: Buffer;
  readonly #sql: {
    dataVersion: Database.Statement<[], number>;
    key: Database.Statement<[string], Buffer>;
    tombstone: Database.Statement<[string], number>;
    tombstonesAfter: Database.Statement<[number], Tombstone>;
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
    this.opened(`sqlite:${this.file}`, db.prepare<[], number>('SELECT coalesce(max(seq), 0) FROM tombstones').pluck().get() ?? 0);
  }

  protected changeMark(): number {
    return this.#sql.dataVersion.get() ?? 0;
  }

  protected tombstonesAfter(seq: number): Tombstone[] {
    return this.#sql.tombstonesAfter.all(seq);
  }

  protected lookup(subject: string): Buffer | null | undefined {
    const wrapped = this.#sql.key.get(subject);
    if (wrapped) return unwrap(this.#kek, subject, wrapped);
    return this.#sql.tombstone.get(subject) !== undefined ? null : undefined;
  }

  protected create(subject: string): void {
    // Race-safe across processes: the write lock is taken before the tombstone is looked at, and the
    // first process to insert wins (INSERT OR IGNORE); everyone then reads the winner's key.
    this.#db.transaction(() => {
      if (this.#sql.tombstone.get(subject) !== undefined) return;
      this.#sql.insertKey.run(subject, wrap(this.#kek, subject, randomBytes(32)));
    }).immediate();
  }

  protected eraseStored(subject: string): void {
    this.#db.transaction(() => {
      this.#sql.deleteKey.run(subject);
      this.#sql.insertTombstone.run(subject, new Date().toISOString());
    }).immediate();
    // The deleted page's old bytes may still sit in the WAL: copy it into the file (secure_delete
    // zeroes the freed cells there) and truncate the WAL to nothing. A reader holding an old
    // snapshot can stop the truncation; the next erasure's checkpoint (or SQLite's own) finishes it.
    this.#db.pragma('wal_checkpoint(TRUNCATE)');
  }

  protected closeStorage(): void {
    if (this.#db.open) this.#db.close();
  }
}
