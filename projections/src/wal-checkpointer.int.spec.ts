import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import Database from 'better-sqlite3';
import { afterAll, describe, expect, it } from 'vitest';
import { WAL_AUTOCHECKPOINT_PAGES, startWalCheckpointer } from './wal-checkpointer.ts';

const dir = mkdtempSync(join(tmpdir(), 'kamai-wal-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

/** Frames in the WAL, and how many of them are already copied into the database file. */
function walState(db: Database.Database): { frames: number; checkpointed: number } {
  // NOOP (SQLite 3.51+) reports the WAL's state and copies nothing.
  const [row] = db.pragma('wal_checkpoint(NOOP)') as Array<{ log: number; checkpointed: number }>;
  return { frames: row!.log, checkpointed: row!.checkpointed };
}

describe('WAL checkpointer', () => {
  it('copies committed pages into the database file from its own thread, while the writer never checkpoints', async () => {
    const file = join(dir, 'app.sqlite');
    const db = new Database(file);
    db.pragma('journal_mode = WAL');
    db.pragma(`wal_autocheckpoint = ${WAL_AUTOCHECKPOINT_PAGES}`);
    db.exec('CREATE TABLE t (id INTEGER PRIMARY KEY, body TEXT NOT NULL)');
    const insert = db.prepare('INSERT INTO t (body) VALUES (?)');
    for (let i = 0; i < 200; i++) insert.run('x'.repeat(2000));
    // Below the raised threshold nothing was checkpointed by the writer's commits.
    expect(walState(db)).toMatchObject({ checkpointed: 0 });
    expect(walState(db).frames).toBeGreaterThan(100);

    const checkpointer = startWalCheckpointer([file], { everyMs: 20 });
    try {
      const deadline = Date.now() + 5000;
      let state = walState(db);
      while (state.checkpointed < state.frames && Date.now() < deadline) {
        await new Promise((resolve) => setTimeout(resolve, 20));
        state = walState(db);
      }
      expect(state.checkpointed).toBe(state.frames);
    } finally {
      await checkpointer.stop();
      db.close();
    }
  });
});
