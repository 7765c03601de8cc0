/**
 * The key store in PostgreSQL (EVENT_STORE=postgres): the same wrapped data keys and tombstones as
 * keys.sqlite, in tables `kamai.data_keys`, `kamai.key_tombstones` and `kamai.key_check`, shared by
 * every node on the database. The KEK stays outside the database (KEY_ENCRYPTION_KEY), as with SQLite:
 * the database alone opens no key.
 *
 * Queries are synchronous (the port is: see key-store.ts) through postgres-sync.ts. Keys are cached
 * as in every key store (CachingKeyStore); an erasure NOTIFYs at commit, and the other nodes' workers
 * count the notifications: that count is the mark each store looks at once per turn. So another node
 * stops opening an erased subject's data from its first turn after the notification arrives
 * (milliseconds on one network), and this node's other stores at once.
 *
 * Deleting a row in PostgreSQL does not overwrite its bytes (the old tuple stays until VACUUM reuses
 * the space, and the WAL and base backups keep it): docs/privacy.md says what stands for SQLite's
 * secure deletion there (the KEK, which never enters the database, and the backups' retention).
 */
import { randomBytes } from 'node:crypto';
import { SHARED_CHANNEL, type SyncPostgres, ensureTables, openSyncPostgres } from '../event-store/postgres-sync.ts';
import { CachingKeyStore, KeyStoreError, type Tombstone, kekCheck, unwrap, verifyKek, wrap } from './key-store.ts';

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

  constructor(url: string, kek: Buffer) {
    super();
    if (kek.length !== 32) throw new KeyStoreError('the key-encryption key must be 32 bytes');
    this.#kek = kek;
    const { pg, release } = openSyncPostgres(url);
    this.#pg = pg;
    this.#release = release;
    let lastTombstone: number;
    try {
      ensureTables(pg, SCHEMA);
      pg.query('INSERT INTO kamai.key_check (id, wrapped) VALUES (1, $1) ON CONFLICT (id) DO NOTHING', [kekCheck(kek)]);
      const [check] = pg.query<{ wrapped: Uint8Array }>('SELECT wrapped FROM kamai.key_check WHERE id = 1');
      verifyKek(kek, buffer(check!.wrapped), 'the key store in PostgreSQL');
      lastTombstone = Number(pg.query<{ seq: string }>('SELECT coalesce(max(seq), 0) AS seq FROM kamai.key_tombstones')[0]!.seq);
    } catch (err) {
      release();
      throw err;
    }
    this.opened(`postgres:${url}`, lastTombstone);
  }

  /** The count of notifications this node's worker heard: a load from shared memory, no round trip. */
  protected changeMark(): number {
    return this.#pg.changes;
  }

  protected tombstonesAfter(seq: number): Tombstone[] {
    return this.#pg
      .query<{ seq: string; subject: string }>('SELECT seq, subject FROM kamai.key_tombstones WHERE seq > $1 ORDER BY seq', [seq])
      .map((row) => ({ seq: Number(row.seq), subject: row.subject }));
  }

  protected lookup(subject: string): Buffer | null | undefined {
    const [row] = this.#pg.query<{ wrapped: Uint8Array | null; erased: boolean }>(
      `SELECT (SELECT wrapped FROM kamai.data_keys WHERE subject = $1) AS wrapped,
              EXISTS (SELECT 1 FROM kamai.key_tombstones WHERE subject = $1) AS erased`,
      [subject],
    );
    // A tombstone wins over a key (one created by a node racing the erasure is deleted now).
    if (row!.erased) {
      if (row!.wrapped) this.#pg.query('DELETE FROM kamai.data_keys WHERE subject = $1', [subject]);
      return null;
    }
    return row!.wrapped ? unwrap(this.#kek, subject, buffer(row!.wrapped)) : undefined;
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

  protected eraseStored(subject: string): void {
    this.#pg.transaction(() => {
      this.#pg.query('DELETE FROM kamai.data_keys WHERE subject = $1', [subject]);
      this.#pg.query('INSERT INTO kamai.key_tombstones (subject, erased_at) VALUES ($1, now()) ON CONFLICT (subject) DO NOTHING', [subject]);
      // Delivered at commit: the other nodes' stores look at the tombstones on their next turn.
      this.#pg.query(`SELECT pg_notify('${SHARED_CHANNEL}', 'erased')`);
    });
  }

  protected closeStorage(): void {
    this.#release();
  }
}
