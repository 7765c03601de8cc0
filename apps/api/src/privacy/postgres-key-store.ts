/**
 * The key store in PostgreSQL (EVENT_STORE=postgres): the same wrapped data keys and tombstones as
 * keys.sqlite, in tables `kamai.data_keys`, `kamai.key_tombstones` and `kamai.key_check`, shared by
 * every node on the database. The KEK stays outside the database (KEY_ENCRYPTION_KEY), as with SQLite:
 * the database alone opens no key.
 *
 * Queries are synchronous (the port is: see key-store.ts) through postgres-sync.ts. Keys are cached
 * in memory; an erasure NOTIFYs at commit, and the other nodes' workers count the notification, which
 * each store looks at once per event-loop turn (a load from shared memory, no round trip): when it
 * moved, the tombstones added since are read and their keys dropped from the cache. So another node
 * stops opening an erased subject's data from its first turn after the notification arrives
 * (milliseconds on one network), and this node's other stores at once.
 *
 * Deleting a row in PostgreSQL does not overwrite its bytes (the old tuple stays until VACUUM reuses
 * the space, and the WAL and base backups keep it): docs/privacy.md says what stands for SQLite's
 * secure deletion there (the KEK, which never enters the database, and the backups' retention).
 */
import { randomBytes } from 'node:crypto';
import { OncePerTurn } from '../once-per-turn.ts';
import { SHARED_CHANNEL, type SyncPostgres, ensureTables, openSyncPostgres } from '../event-store/postgres-sync.ts';
import { CachingKeyStore, KeyStoreError, SYSTEM_PREFIX, kekCheck, unwrap, verifyKek, wrap } from './key-store.ts';

const SCHEMA = `
  CREATE TABLE IF NOT EXISTS kamai.data_keys (
    subject text  PRIMARY KEY,
    wrapped bytea NOT NULL
  );
  CREATE TABLE IF NOT EXISTS kamai.key_tombstones (
    seq       bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
    subject   text        NOT NULL UNIQUE,
    erased_at timestamptz NOT NULL
  );
  CREATE TABLE IF NOT EXISTS kamai.key_check (
    id      int   PRIMARY KEY CHECK (id = 1),
    wrapped bytea NOT NULL
  )
`;

const buffer = (bytes: Uint8Array): Buffer => Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength);

export class PostgresKeyStore extends CachingKeyStore {
  readonly #pg: SyncPostgres;
  readonly #release: () => void;
  readonly #kek: Buffer;
  readonly #cache = new Map<string, Buffer | null>();
  /** The notification count last looked at, and the last tombstone read. */
  #changes = -1;
  #lastTombstone = 0;
  readonly #turn = new OncePerTurn();
  /** The open key stores of this process, by database: an erasure reaches its siblings at once. */
  static readonly #open = new Map<string, Set<PostgresKeyStore>>();
  readonly #url: string;

  constructor(url: string, kek: Buffer) {
    super();
    if (kek.length !== 32) throw new KeyStoreError('the key-encryption key must be 32 bytes');
    this.#kek = kek;
    this.#url = url;
    const { pg, release } = openSyncPostgres(url);
    this.#pg = pg;
    this.#release = release;
    try {
      ensureTables(pg, SCHEMA);
      pg.query('INSERT INTO kamai.key_check (id, wrapped) VALUES (1, $1) ON CONFLICT (id) DO NOTHING', [kekCheck(kek)]);
      const [check] = pg.query<{ wrapped: Uint8Array }>('SELECT wrapped FROM kamai.key_check WHERE id = 1');
      verifyKek(kek, buffer(check!.wrapped), 'the key store in PostgreSQL');
      this.#changes = pg.changes;
      this.#lastTombstone = Number(pg.query<{ seq: string }>('SELECT coalesce(max(seq), 0) AS seq FROM kamai.key_tombstones')[0]!.seq);
    } catch (err) {
      release();
      throw err;
    }
    const siblings = PostgresKeyStore.#open.get(url) ?? new Set<PostgresKeyStore>();
    siblings.add(this);
    PostgresKeyStore.#open.set(url, siblings);
  }

  /** Forgets cached keys of subjects another node erased since the last look. */
  #refresh(): void {
    this.#turn.lookFirst(() => {
      const changes = this.#pg.changes;
      if (changes === this.#changes) return;
      const rows = this.#pg.query<{ seq: string; subject: string }>('SELECT seq, subject FROM kamai.key_tombstones WHERE seq > $1 ORDER BY seq', [this.#lastTombstone]);
      for (const row of rows) {
        this.#cache.set(row.subject, null);
        this.#lastTombstone = Number(row.seq);
      }
      this.#changes = changes;
    });
  }

  protected read(subject: string): Buffer | null | undefined {
    this.#refresh();
    if (this.#cache.has(subject)) return this.#cache.get(subject);
    const [row] = this.#pg.query<{ wrapped: Uint8Array | null; erased: boolean }>(
      `SELECT (SELECT wrapped FROM kamai.data_keys WHERE subject = $1) AS wrapped,
              EXISTS (SELECT 1 FROM kamai.key_tombstones WHERE subject = $1) AS erased`,
      [subject],
    );
    // A tombstone wins over a key (one created by a node racing the erasure is deleted now).
    if (row!.erased) {
      if (row!.wrapped) this.#pg.query('DELETE FROM kamai.data_keys WHERE subject = $1', [subject]);
      this.#cache.set(subject, null);
      return null;
    }
    if (!row!.wrapped) return undefined;
    const key = unwrap(this.#kek, subject, buffer(row!.wrapped));
    this.#cache.set(subject, key);
    return key;
  }

  protected create(subject: string): void {
    // The first node to insert wins; everyone then reads the winner's key.
    this.#pg.query(
      `INSERT INTO kamai.data_keys (subject, wrapped)
       SELECT $1, $2 WHERE NOT EXISTS (SELECT 1 FROM kamai.key_tombstones WHERE subject = $1)
       ON CONFLICT (subject) DO NOTHING`,
      [subject, wrap(this.#kek, subject, randomBytes(32))],
    );
  }

  erase(subject: string): void {
    if (subject.startsWith(SYSTEM_PREFIX)) throw new KeyStoreError('system keys are never erased');
    this.#pg.transaction(() => {
      this.#pg.query('DELETE FROM kamai.data_keys WHERE subject = $1', [subject]);
      this.#pg.query('INSERT INTO kamai.key_tombstones (subject, erased_at) VALUES ($1, now()) ON CONFLICT (subject) DO NOTHING', [subject]);
      // Delivered at commit: the other nodes' stores look at the tombstones on their next turn.
      this.#pg.query(`SELECT pg_notify('${SHARED_CHANNEL}', 'erased')`);
    });
    for (const store of PostgresKeyStore.#open.get(this.#url) ?? [this]) store.#cache.set(subject, null);
  }

  close(): void {
    const siblings = PostgresKeyStore.#open.get(this.#url);
    siblings?.delete(this);
    if (siblings?.size === 0) PostgresKeyStore.#open.delete(this.#url);
    this.#release();
  }
}
