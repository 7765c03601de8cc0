import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import Database from 'better-sqlite3';
import pg from 'pg';
import { afterAll, afterEach, describe, expect, it } from 'vitest';
import { databasesForSpec } from '../event-store/postgres-testing.ts';
import { type AttemptStore, SqliteAttemptStore, mobileAttemptKeys } from './attempts.ts';
import { PostgresAttemptStore } from './postgres-attempts.ts';
import { LoginGuard } from './throttle.ts';

const dir = mkdtempSync(join(tmpdir(), 'kamai-attempts-'));
let files = 0;
afterAll(() => rmSync(dir, { recursive: true, force: true }));
const secret = new Uint8Array(32).fill(7);
const t0 = 1_800_000_000_000;

/** One implementation under test: a new place for counters, a store on it, and its stored keys read past the store. */
interface Backend {
  place(): Promise<string>;
  open(place: string, secret: Uint8Array): AttemptStore;
  keysIn(place: string): Promise<string[]>;
}

const sqlite: Backend = {
  place: async () => join(dir, `throttle-${++files}.sqlite`),
  open: (file, s) => new SqliteAttemptStore(file, s),
  async keysIn(file) {
    const db = new Database(file, { readonly: true });
    try {
      return (db.prepare('SELECT key FROM attempts').all() as { key: string }[]).map((r) => r.key);
    } finally {
      db.close();
    }
  },
};

const postgres: Backend = {
  place: databasesForSpec(),
  open: (url, s) => new PostgresAttemptStore(url, s),
  async keysIn(url) {
    const client = new pg.Client({ connectionString: url });
    await client.connect();
    try {
      return (await client.query<{ key: string }>('SELECT key FROM kamai.attempts')).rows.map((r) => r.key);
    } finally {
      await client.end();
    }
  },
};

describe.each([
  ['SQLite', sqlite],
  ['PostgreSQL', postgres],
] as const)('attempts on %s', (_name, backend) => {
  const open: AttemptStore[] = [];
  const store = (place: string, s = secret) => {
    const attempts = backend.open(place, s);
    open.push(attempts);
    return attempts;
  };
  afterEach(() => {
    for (const attempts of open.splice(0)) attempts.close();
  });

  it('refuses an unknown client after ten attempts on a number until the 15-minute window ends', async () => {
    const guard = new LoginGuard(store(await backend.place()), secret);
    for (let i = 0; i < 10; i++) expect(guard.attempt('9876543210', '1.2.3.4', null, t0 + i)).toBe(0);
    expect(guard.attempt('9876543210', '5.6.7.8', null, t0 + 20)).toBeGreaterThan(14 * 60_000);
    expect(guard.attempt('9876543210', '5.6.7.8', null, t0 + 15 * 60_000 + 1)).toBe(0);
  });

  it('gives a recognised device its own allowance, bound to its number and signature', async () => {
    const place = await backend.place();
    const guard = new LoginGuard(store(place), secret);
    const cookie = guard.issueDevice('9876543210');
    const device = guard.recognise('9876543210', cookie);
    expect(device).not.toBeNull();
    expect(guard.recognise('9123456789', cookie)).toBeNull();
    expect(guard.recognise('9876543210', `${cookie.slice(0, -2)}xx`)).toBeNull();
    expect(new LoginGuard(store(place), new Uint8Array(32).fill(8)).recognise('9876543210', cookie)).toBeNull();
    for (let i = 0; i < 20; i++) guard.attempt('9876543210', '6.6.6.6', null, t0);
    expect(guard.attempt('9876543210', '1.2.3.4', null, t0)).toBeGreaterThan(0);
    expect(guard.attempt('9876543210', '1.2.3.4', device, t0)).toBe(0);
  });

  it('counts in one place that two guards (two processes, two nodes) share', async () => {
    const place = await backend.place();
    const a = new LoginGuard(store(place), secret);
    const b = new LoginGuard(store(place), secret);
    for (let i = 0; i < 10; i++) (i % 2 ? a : b).attempt('9876543210', `10.0.0.${i}`, null, t0);
    expect(a.attempt('9876543210', '10.0.1.1', null, t0)).toBeGreaterThan(0);
  });

  it('stores keyed hashes, never the number or the address, and deletes a row once its window ends', async () => {
    const place = await backend.place();
    const attempts = store(place);
    const guard = new LoginGuard(attempts, secret);
    guard.attempt('9876543210', '203.0.113.77', null, t0);
    const keys = await backend.keysIn(place);
    expect(keys).toHaveLength(2);
    expect(keys.join(' ')).not.toMatch(/9876543210|203\.0\.113\.77|mobile|client/);
    expect(attempts.expire(t0 + 15 * 60_000 - 1)).toBe(0);
    expect(attempts.expire(t0 + 15 * 60_000)).toBe(2);
    expect(await backend.keysIn(place)).toEqual([]);
  });

  it('forgets every count kept against a mobile number, and only those', async () => {
    const place = await backend.place();
    const attempts = store(place);
    for (const key of [...mobileAttemptKeys('9876543210'), ...mobileAttemptKeys('9123456789')]) attempts.count(key, 60_000, t0);
    attempts.forgetMobile('9876543210');
    expect(mobileAttemptKeys('9876543210').map((key) => attempts.get(key, t0))).toEqual([null, null, null]);
    expect(mobileAttemptKeys('9123456789').map((key) => attempts.get(key, t0)?.count)).toEqual([1, 1, 1]);
    expect(await backend.keysIn(place)).toHaveLength(3);
  });

  it('adds amounts and takes one back within the window only', async () => {
    const attempts = store(await backend.place());
    expect(attempts.add('bytes:u1', 1_500_000, 60_000, t0)).toBe(1_500_000);
    expect(attempts.add('bytes:u1', 2_500_000, 60_000, t0 + 1)).toBe(4_000_000);
    expect(attempts.get('bytes:u1', t0 + 2)).toEqual({ count: 4_000_000, resetAt: t0 + 60_000 });
    attempts.count('k', 60_000, t0);
    attempts.count('k', 60_000, t0);
    attempts.takeBack('k', t0);
    expect(attempts.get('k', t0)?.count).toBe(1);
    // A new window starts afresh.
    expect(attempts.count('k', 60_000, t0 + 60_000)).toBe(1);
  });
});
