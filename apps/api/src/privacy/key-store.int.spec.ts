import { randomBytes, randomUUID } from 'node:crypto';
import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import Database from 'better-sqlite3';
import { afterAll, afterEach, describe, expect, it } from 'vitest';
import { SqliteKeyStore } from './key-store.ts';

const dir = mkdtempSync(join(tmpdir(), 'kamai-keys-'));
let files = 0;
afterAll(() => rmSync(dir, { recursive: true, force: true }));

describe('the SQLite key store', () => {
  const open: SqliteKeyStore[] = [];
  const openKeys = (file: string, kek: Buffer) => {
    const keys = new SqliteKeyStore(file, kek);
    open.push(keys);
    return keys;
  };
  afterEach(() => {
    for (const keys of open.splice(0)) keys.close();
  });

  it('creates one key per subject, the same for every connection, and never reads one into being', () => {
    const file = join(dir, `keys-${++files}.sqlite`);
    const kek = randomBytes(32);
    const [a, b] = [openKeys(file, kek), openKeys(file, kek)];
    const subject = randomUUID();
    expect(b.existingKey(subject)).toBeNull();
    const key = a.keyFor(subject);
    expect(key).toHaveLength(32);
    expect(b.existingKey(subject)).toEqual(key);
    expect(b.keyFor(subject)).toEqual(key);
    expect(a.systemKey('mobile-hmac')).toEqual(b.systemKey('mobile-hmac'));
  });

  it('erases a key in every connection at once, wipes its bytes from the file and its WAL, and never re-creates it', () => {
    const file = join(dir, `keys-${++files}.sqlite`);
    const kek = randomBytes(32);
    const [a, b] = [openKeys(file, kek), openKeys(file, kek)];
    const subject = randomUUID();
    expect(b.keyFor(subject)).toEqual(a.keyFor(subject));
    const raw = new Database(file, { readonly: true });
    const wrapped = raw.prepare<[string], Buffer>('SELECT wrapped FROM data_keys WHERE subject = ?').pluck().get(subject)!;
    raw.close();

    a.erase(subject);
    // b had the key cached: it stops using it at once.
    expect(b.existingKey(subject)).toBeNull();
    expect(b.isErased(subject)).toBe(true);
    expect(b.keyFor(subject)).toBeNull();
    expect(openKeys(file, kek).keyFor(subject)).toBeNull();
    for (const path of [file, `${file}-wal`]) {
      if (existsSync(path)) expect(readFileSync(path).includes(wrapped)).toBe(false);
    }
  });

  it("hears of another process's erasure from its next event-loop turn on", async () => {
    const file = join(dir, `keys-${++files}.sqlite`);
    const kek = randomBytes(32);
    const keys = openKeys(file, kek);
    const subject = randomUUID();
    const key = keys.keyFor(subject);
    // Another process erases: its own connection, so this process's key stores are not told.
    const other = new Database(file);
    other.transaction(() => {
      other.prepare('DELETE FROM data_keys WHERE subject = ?').run(subject);
      other.prepare('INSERT INTO tombstones (subject, erased_at) VALUES (?, ?)').run(subject, new Date().toISOString());
    })();
    other.close();
    // This turn looked at the file already: the cached key is still in hand.
    expect(keys.existingKey(subject)).toEqual(key);
    await new Promise((next) => setImmediate(next));
    expect(keys.existingKey(subject)).toBeNull();
    expect(keys.isErased(subject)).toBe(true);
    expect(keys.keyFor(subject)).toBeNull();
  });

  it('refuses to open with another key-encryption key', () => {
    const file = join(dir, `keys-${++files}.sqlite`);
    openKeys(file, randomBytes(32)).keyFor(randomUUID());
    expect(() => openKeys(file, randomBytes(32))).toThrow(/another key-encryption key/);
  });
});
