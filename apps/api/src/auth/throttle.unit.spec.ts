import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { AttemptStore } from './attempts.ts';
import { LoginGuard } from './throttle.ts';

const dirs: string[] = [];
function store(): AttemptStore {
  const dir = mkdtempSync(join(tmpdir(), 'kamai-attempts-'));
  dirs.push(dir);
  return new AttemptStore(join(dir, 'throttle.sqlite'));
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
    const a = new LoginGuard(new AttemptStore(join(dir, 't.sqlite')), secret);
    const b = new LoginGuard(new AttemptStore(join(dir, 't.sqlite')), secret);
    for (let i = 0; i < 10; i++) (i % 2 ? a : b).attempt('9876543210', `10.0.0.${i}`, null, t0);
    expect(a.attempt('9876543210', '10.0.1.1', null, t0)).toBeGreaterThan(0);
  });
});
