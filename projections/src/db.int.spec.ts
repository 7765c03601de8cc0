import { spawn } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { sql } from 'kysely';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { openReadDb } from './db.ts';

let dir: string;
beforeEach(() => {
  dir = mkdtempSync(join(tmpdir(), 'kamai-read-db-'));
});
afterEach(() => rmSync(dir, { recursive: true, force: true }));

/** Another process that creates `file` and holds its exclusive lock for `holdMs`; resolves once it holds it. */
async function holdLockElsewhere(file: string, holdMs: number): Promise<{ released: Promise<void> }> {
  const script = `
    const Database = require('better-sqlite3');
    const db = new Database(process.argv[1]);
    db.exec('BEGIN EXCLUSIVE; CREATE TABLE other_process (id INTEGER)');
    process.stdout.write('locked\\n');
    setTimeout(() => { db.exec('COMMIT'); db.close(); }, Number(process.argv[2]));`;
  const child = spawn(process.execPath, ['-e', script, file, String(holdMs)], { cwd: dirname(fileURLToPath(import.meta.url)), stdio: ['ignore', 'pipe', 'inherit'] });
  const exited = new Promise<void>((resolve, reject) => child.on('exit', (code) => (code === 0 ? resolve() : reject(new Error(`lock holder exited with ${code}`)))));
  await new Promise<void>((resolve, reject) => {
    child.stdout.on('data', (chunk: Buffer) => chunk.toString().includes('locked') && resolve());
    exited.catch(reject);
  });
  return { released: exited };
}

describe('opening the read database', () => {
  it('waits for the lock another process holds on a new file (two API processes starting on one new data directory)', async () => {
    const file = join(dir, 'read.sqlite');
    const { released } = await holdLockElsewhere(file, 300);
    const db = await openReadDb(file);
    try {
      const mode = await sql<{ journal_mode: string }>`PRAGMA journal_mode`.execute(db);
      expect(mode.rows[0]?.journal_mode).toBe('wal');
      // The other process's table is there too: this one opened after its commit, not around it.
      const tables = await sql<{ name: string }>`SELECT name FROM sqlite_master WHERE name = 'other_process'`.execute(db);
      expect(tables.rows).toHaveLength(1);
    } finally {
      await db.destroy();
      await released;
    }
  });
});

describe('turning a new file to WAL from several processes at once', () => {
  it('never fails with SQLITE_BUSY: the switch is tried again until the timeout', async () => {
    // Three processes open the same new file at the same instant, round after round. Without the
    // retry about one round in fifteen failed with "database is locked" (a lock upgrade SQLite
    // refuses at once, without the busy handler, to avoid a deadlock).
    const rounds = 40;
    const start = Date.now() + 1500;
    const script = `
      import Database from 'better-sqlite3';
      import { useWal } from './sqlite-wal.ts';
      const [dir, start, rounds] = process.argv.slice(-3).map((v, i) => (i === 0 ? v : Number(v)));
      const failures = [];
      for (let round = 0; round < rounds; round++) {
        const at = start + round * 60;
        while (Date.now() < at) {}
        const db = new Database(dir + '/round-' + round + '.sqlite');
        try {
          useWal(db, 5000);
          db.exec('CREATE TABLE IF NOT EXISTS t (id INTEGER PRIMARY KEY)');
        } catch (err) {
          failures.push(round + ': ' + err.message);
        } finally {
          db.close();
        }
      }
      process.stdout.write(JSON.stringify(failures));`;
    const here = dirname(fileURLToPath(import.meta.url));
    const runs = [1, 2, 3].map(
      () =>
        new Promise<string[]>((resolve, reject) => {
          const child = spawn(process.execPath, ['--import', 'tsx', '--input-type=module', '-e', script, dir, String(start), String(rounds)], { cwd: here, stdio: ['ignore', 'pipe', 'inherit'] });
          let out = '';
          child.stdout.on('data', (chunk: Buffer) => (out += chunk.toString()));
          child.on('exit', (code) => (code === 0 ? resolve(JSON.parse(out) as string[]) : reject(new Error(`exited with ${code}`))));
        }),
    );
    expect((await Promise.all(runs)).flat()).toEqual([]);
  }, 60_000);
});
