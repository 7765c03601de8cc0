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
