import { randomBytes, randomUUID } from 'node:crypto';
import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import Database from 'better-sqlite3';
import pg from 'pg';
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { databasesForSpec } from '../event-store/postgres-testing.ts';
import { SHARED_CHANNEL } from '../event-store/postgres-sync.ts';
import { type KeyStore, SqliteKeyStore } from './key-store.ts';
import { PostgresKeyStore } from './postgres-key-store.ts';

const dir = mkdtempSync(join(tmpdir(), 'kamai-keys-'));
let files = 0;
afterAll(() => rmSync(dir, { recursive: true, force: true }));

/** One implementation under test: where a store lives, and what another process does there. */
interface Backend {
  /** A new, empty place for a key store (a file, a database). */
  place(): Promise<string>;
  open(place: string, kek: Buffer): KeyStore;
  /** The wrapped key as stored, read past the store. */
  wrapped(place: string, subject: string): Promise<Buffer>;
  /** Erases as another process does: its own connection, so this process's stores are not told. */
  eraseElsewhere(place: string, subject: string): Promise<void>;
}

const sqlite: Backend = {
  place: async () => join(dir, `keys-${++files}.sqlite`),
  open: (file, kek) => new SqliteKeyStore(file, kek),
  async wrapped(file, subject) {
    const raw = new Database(file, { readonly: true });
    try {
      return raw.prepare<[string], Buffer>('SELECT wrapped FROM data_keys WHERE subject = ?').pluck().get(subject)!;
    } finally {
      raw.close();
    }
  },
  async eraseElsewhere(file, subject) {
    const other = new Database(file);
    other.transaction(() => {
      other.prepare('DELETE FROM data_keys WHERE subject = ?').run(subject);
      other.prepare('INSERT INTO tombstones (subject, erased_at) VALUES (?, ?)').run(subject, new Date().toISOString());
    })();
    other.close();
  },
};

async function withClient<T>(url: string, work: (client: pg.Client) => Promise<T>): Promise<T> {
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  try {
    return await work(client);
  } finally {
    await client.end();
  }
}

const postgres: Backend = {
  place: databasesForSpec(),
  open: (url, kek) => new PostgresKeyStore(url, kek),
  wrapped: (url, subject) =>
    withClient(url, async (c) => (await c.query<{ wrapped: Buffer }>('SELECT wrapped FROM kamai.data_keys WHERE subject = $1', [subject])).rows[0]!.wrapped),
  eraseElsewhere: (url, subject) =>
    withClient(url, async (c) => {
      await c.query('BEGIN');
      await c.query('DELETE FROM kamai.data_keys WHERE subject = $1', [subject]);
      await c.query('INSERT INTO kamai.key_tombstones (subject, erased_at) VALUES ($1, now())', [subject]);
      await c.query(`NOTIFY ${SHARED_CHANNEL}`);
      await c.query('COMMIT');
    }),
};

describe.each([
  ['SQLite', sqlite],
  ['PostgreSQL', postgres],
] as const)('the %s key store', (name, backend) => {
  const open: KeyStore[] = [];
  const openKeys = (place: string, kek: Buffer) => {
    const keys = backend.open(place, kek);
    open.push(keys);
    return keys;
  };
  afterEach(() => {
    for (const keys of open.splice(0)) keys.close();
  });
  let place = '';
  const kek = randomBytes(32);
  beforeAll(async () => {
    place = await backend.place();
  });

  it('creates one key per subject, the same for every connection, and never reads one into being', () => {
    const [a, b] = [openKeys(place, kek), openKeys(place, kek)];
    const subject = randomUUID();
    expect(b.existingKey(subject)).toBeNull();
    const key = a.keyFor(subject);
    expect(key).toHaveLength(32);
    expect(b.existingKey(subject)).toEqual(key);
    expect(b.keyFor(subject)).toEqual(key);
    expect(a.systemKey('mobile-hmac')).toEqual(b.systemKey('mobile-hmac'));
  });

  it('erases a key in every connection at once, deletes its row, and never re-creates it', async () => {
    const file = await backend.place();
    const kek = randomBytes(32);
    const [a, b] = [openKeys(file, kek), openKeys(file, kek)];
    const subject = randomUUID();
    expect(b.keyFor(subject)).toEqual(a.keyFor(subject));
    const wrapped = await backend.wrapped(file, subject);

    a.erase(subject);
    // b had the key cached: it stops using it at once.
    expect(b.existingKey(subject)).toBeNull();
    expect(b.isErased(subject)).toBe(true);
    expect(b.keyFor(subject)).toBeNull();
    expect(openKeys(file, kek).keyFor(subject)).toBeNull();
    if (name === 'SQLite') {
      // Secure deletion: the bytes are gone from the file and its WAL (PostgreSQL has no such thing: docs/privacy.md).
      for (const path of [file, `${file}-wal`]) {
        if (existsSync(path)) expect(readFileSync(path).includes(wrapped)).toBe(false);
      }
    } else {
      await expect(backend.wrapped(file, subject)).rejects.toThrow();
    }
  });

  it("hears of another process's erasure from its next event-loop turn on", async () => {
    const keys = openKeys(place, kek);
    const subject = randomUUID();
    const key = keys.keyFor(subject);
    await backend.eraseElsewhere(place, subject);
    if (name === 'SQLite') {
      // This turn looked already: the cached key is still in hand until the next turn.
      expect(keys.existingKey(subject)).toEqual(key);
      await new Promise((next) => setImmediate(next));
    }
    // PostgreSQL's nodes hear it on the first turn after the notification arrives.
    await vi.waitFor(() => expect(keys.existingKey(subject)).toBeNull(), { timeout: 5000, interval: 5 });
    expect(keys.isErased(subject)).toBe(true);
    expect(keys.keyFor(subject)).toBeNull();
  });

  it('refuses to open with another key-encryption key', async () => {
    const other = await backend.place();
    openKeys(other, randomBytes(32)).keyFor(randomUUID());
    expect(() => openKeys(other, randomBytes(32))).toThrow(/another key-encryption key/);
  });
});
