import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import Database from 'better-sqlite3';
import { afterEach, describe, expect, it } from 'vitest';
import { AttemptStore, mobileAttemptKeys } from './attempts.ts';
import { LoginGuard } from './throttle.ts';

const dirs: string[] = [];
function store(file = join(mkdtempSync(join(tmpdir(), 'kamai-attempts-')), 'throttle.sqlite')): AttemptStore {
  dirs.push(dirname(file));
  return new AttemptStore(file, secret);
}
afterEach(() => {
  for (const dir of dirs.splice(0)) rmSync(dir, { recursive: true, force: true });
});
const secret = new Uint8Array(32).fill(7);
const t0 = 1_800_000_000_000;

describe('sign-in guard', () => {
  it('refuses an unknown client after ten attempts on a number until the 15-minute window ends', () => {
    const guard = new LoginGuard(store(), secret);
    for (let i = 0; i < 10; i++) expect(guard.attempt('9876543210', '1.2.3.4', null, t0 + i)).toBe(0);
    expect(guard.attempt('9876543210', '5.6.7.8', null, t0 + 20)).toBeGreaterThan(14 * 60_000);
    expect(guard.attempt('9876543210', '5.6.7.8', null, t0 + 15 * 60_000 + 1)).toBe(0);
  });

  it('gives a recognised device its own allowance, bound to its number and signature', () => {
    const guard = new LoginGuard(store(), secret);
    const cookie = guard.issueDevice('9876543210');
    const device = guard.recognise('9876543210', cookie);
    expect(device).not.toBeNull();
    expect(guard.recognise('9123456789', cookie)).toBeNull();
    expect(guard.recognise('9876543210', `${cookie.slice(0, -2)}xx`)).toBeNull();
    expect(new LoginGuard(store(), new Uint8Array(32).fill(8)).recognise('9876543210', cookie)).toBeNull();
    for (let i = 0; i < 20; i++) guard.attempt('9876543210', '6.6.6.6', null, t0);
    expect(guard.attempt('9876543210', '1.2.3.4', null, t0)).toBeGreaterThan(0);
    expect(guard.attempt('9876543210', '1.2.3.4', device, t0)).toBe(0);
  });

  it('counts in one file that two guards (two processes) share', () => {
    const dir = mkdtempSync(join(tmpdir(), 'kamai-attempts-'));
    dirs.push(dir);
    const a = new LoginGuard(new AttemptStore(join(dir, 't.sqlite'), secret), secret);
    const b = new LoginGuard(new AttemptStore(join(dir, 't.sqlite'), secret), secret);
    for (let i = 0; i < 10; i++) (i % 2 ? a : b).attempt('9876543210', `10.0.0.${i}`, null, t0);
    expect(a.attempt('9876543210', '10.0.1.1', null, t0)).toBeGreaterThan(0);
  });
});

describe('attempt store', () => {
  const keysIn = (file: string) => {
    const db = new Database(file, { readonly: true });
    try {
      return (db.prepare('SELECT key FROM attempts').all() as { key: string }[]).map((r) => r.key);
    } finally {
      db.close();
    }
  };

  it('stores keyed hashes, never the number or the address, and deletes a row once its window ends', () => {
    const file = join(mkdtempSync(join(tmpdir(), 'kamai-attempts-')), 'throttle.sqlite');
    const attempts = store(file);
    const guard = new LoginGuard(attempts, secret);
    guard.attempt('9876543210', '203.0.113.77', null, t0);
    const keys = keysIn(file);
    expect(keys).toHaveLength(2);
    expect(keys.join(' ')).not.toMatch(/9876543210|203\.0\.113\.77|mobile|client/);
    expect(attempts.expire(t0 + 15 * 60_000 - 1)).toBe(0);
    expect(attempts.expire(t0 + 15 * 60_000)).toBe(2);
    expect(keysIn(file)).toEqual([]);
  });

  it('forgets every count kept against a mobile number, and only those', () => {
    const file = join(mkdtempSync(join(tmpdir(), 'kamai-attempts-')), 'throttle.sqlite');
    const attempts = store(file);
    for (const key of [...mobileAttemptKeys('9876543210'), ...mobileAttemptKeys('9123456789')]) attempts.count(key, 60_000, t0);
    attempts.forgetMobile('9876543210');
    expect(mobileAttemptKeys('9876543210').map((key) => attempts.get(key, t0))).toEqual([null, null, null]);
    expect(mobileAttemptKeys('9123456789').map((key) => attempts.get(key, t0)?.count)).toEqual([1, 1, 1]);
    expect(keysIn(file)).toHaveLength(3);
  });
});
