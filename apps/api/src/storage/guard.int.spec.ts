import { mkdtempSync, rmSync, statfsSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { StorageGuard, commandRefusal } from './guard.ts';

describe('the storage guard on a real directory', () => {
  let dir: string;
  let lines: string[];
  beforeEach(() => {
    dir = mkdtempSync(join(tmpdir(), 'kamai-guard-'));
    writeFileSync(join(dir, 'events.sqlite'), '');
    lines = [];
  });
  afterEach(() => rmSync(dir, { recursive: true, force: true }));

  const free = () => {
    const fs = statfsSync(dir);
    return fs.bavail * fs.bsize;
  };
  const guard = (reserveBytes: number) =>
    new StorageGuard({ dataDir: dir, files: [join(dir, 'events.sqlite')], reserveBytes, log: (level, line) => lines.push(`${level} ${line}`) });

  it('warns once below twice the reserve, and refuses nothing while above the reserve', async () => {
    // A reserve just under the free space: above it, but below twice it.
    const g = guard(Math.floor(free() * 0.6));
    await g.start();
    await g.check();
    g.stop();
    expect(g.state).toBe('ok');
    expect(lines.filter((l) => l.startsWith('warn'))).toHaveLength(1);
    expect(lines[0]).toMatch(/below twice the reserve/);
    expect(commandRefusal(g, 'POST', '/api/auth/register', false)).toBeNull();
  });

  it('below the reserve: refuses earners\' commands, lets staff, sign-in and sign-out through', async () => {
    const g = guard(free() * 2);
    await g.start();
    g.stop();
    expect(g.status()).toMatchObject({ state: 'low', files: [{ name: 'events.sqlite' }] });
    expect(lines.some((l) => l.startsWith('error storage: low'))).toBe(true);
    expect(commandRefusal(g, 'POST', '/api/auth/register', false)).toBe('full');
    expect(commandRefusal(g, 'POST', '/api/withdrawals', true)).toBeNull();
    expect(commandRefusal(g, 'POST', '/api/auth/login', false)).toBeNull();
    expect(commandRefusal(g, 'DELETE', '/api/auth/sessions/abc', false)).toBeNull();
  });

  it('a write that failed read-only refuses every command until the hold ends and the disk is writable', async () => {
    const g = new StorageGuard({ dataDir: dir, files: [], reserveBytes: 0, log: () => {}, holdMs: 50 });
    await g.start();
    g.stop();
    g.noteFault('read_only');
    expect(commandRefusal(g, 'POST', '/api/withdrawals', true)).toBe('read_only');
    await new Promise((resolve) => setTimeout(resolve, 60));
    expect(commandRefusal(g, 'POST', '/api/withdrawals', true)).toBeNull();
  });
});
