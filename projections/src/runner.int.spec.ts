import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { KamaiEvent } from '@kamai/contracts';
import { sql } from 'kysely';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { type ReadDbHandle, openReadDb } from './db.ts';
import type { Projection } from './projection.ts';
import { allProjections } from './registry.ts';
import { rebuildReadModels } from './rebuild.ts';
import { ProjectionRunner } from './runner.ts';
import { CheckpointWatcher } from './watcher.ts';
import { tasksProjection } from './tasks/projection.ts';
import { listActiveTasks } from './tasks/queries.ts';
import { readCheckpoints } from './tables.ts';
import { listStore, recordEvents, rowsOf, taskCreated } from './testing.ts';

const at = (i: number) => new Date(Date.UTC(2026, 10, 21, 10, 0, i)).toISOString();

const settings = (i: number): { stream: string; event: KamaiEvent } => ({
  stream: 'settings',
  event: { type: 'SettingsUpdated', data: { supportEmail: `s${i}@kamai.in`, updatedBy: 'admin', updatedAt: at(i) } },
});

// The table of the read model below, added to the read database's type as a new read model's schema.ts would.
declare module './schema.ts' {
  interface ReadDb {
    task_titles: { id: string; title: string };
  }
}

/** A read model added later: each task's title, upper-cased. */
const titlesProjection: Projection = {
  name: 'task-titles',
  version: 1,
  tables: { task_titles: { columns: 'id TEXT PRIMARY KEY, title TEXT NOT NULL' } },
  handles: ['TaskCreated'],
  apply(rows, event) {
    if (event.type !== 'TaskCreated') return;
    rows.insert('task_titles', { id: event.data.taskId, title: event.data.title.toUpperCase() });
  },
};

let dir: string;
let db: ReadDbHandle;
beforeEach(async () => {
  dir = mkdtempSync(join(tmpdir(), 'kamai-runner-'));
  db = await openReadDb(join(dir, 'read.sqlite'));
});
afterEach(async () => {
  await db.destroy();
  rmSync(dir, { recursive: true, force: true });
});

describe('a checkpoint per projection', () => {
  it('a new projection catches up from zero on its own; the others keep their checkpoints and rows', async () => {
    const events = recordEvents([...Array.from({ length: 30 }, (_, i) => taskCreated(i + 1)), ...Array.from({ length: 2000 }, (_, i) => settings(i))]);
    const store = listStore(events);
    const first = new ProjectionRunner(db, store, allProjections);
    await first.start();
    expect(await first.waitFor(events.length, 10_000)).toBe(true);
    await first.stop();
    const before = await readCheckpoints(db);
    const tasksBefore = await rowsOf(db, 'tasks');

    const runner = new ProjectionRunner(db, store, [...allProjections, titlesProjection]);
    await runner.start();
    const after = await readCheckpoints(db);
    // The others' checkpoints were not touched (same position, same write time).
    for (const p of allProjections) expect(after.get(p.name)).toEqual(before.get(p.name));
    expect(after.get('task-titles')).toMatchObject({ version: 1, position: events.length });
    expect(await rowsOf(db, 'task_titles')).toHaveLength(30);
    expect((await rowsOf(db, 'task_titles'))[0]).toEqual({ id: 't1', title: 'TASK 1' });
    expect(await rowsOf(db, 'tasks')).toEqual(tasksBefore);

    // Then it follows live with the others.
    events.push(...recordEvents([...Array.from({ length: 2030 }, () => settings(0)), taskCreated(31)]).slice(2030));
    expect(await runner.waitFor(events.length, 10_000)).toBe(true);
    expect(await rowsOf(db, 'task_titles')).toHaveLength(31);
    expect((await listActiveTasks(db)).length).toBe(31);
    expect((await runner.status()).every((m) => m.state === 'live')).toBe(true);
    await runner.stop();
  });

  it('a version bump rebuilds that read model aside with its new tables, and leaves the others alone', async () => {
    const events = recordEvents(Array.from({ length: 20 }, (_, i) => taskCreated(i + 1)));
    const store = listStore(events);
    const first = new ProjectionRunner(db, store, allProjections);
    await first.start();
    await first.stop();
    const before = await readCheckpoints(db);

    // Version 2 of the catalogue keeps a new column.
    const tasksV2: Projection = {
      ...tasksProjection,
      version: tasksProjection.version + 1,
      tables: { tasks: { ...tasksProjection.tables.tasks!, columns: `${tasksProjection.tables.tasks!.columns}, reward_rupees INTEGER` } },
      apply(rows, event) {
        tasksProjection.apply(rows, event);
        if (event.type === 'TaskCreated') {
          // A column version 1's row type does not have.
          rows.update('tasks', { id: event.data.taskId }, { set: { reward_rupees: event.data.rewardPaise / 100 } as never });
        }
      },
    };
    const projections = allProjections.map((p) => (p.name === 'tasks' ? tasksV2 : p));
    const runner = new ProjectionRunner(db, store, projections);
    await runner.start();
    const after = await readCheckpoints(db);
    expect(after.get('tasks')).toMatchObject({ version: tasksProjection.version + 1, position: 20 });
    for (const p of allProjections.filter((p) => p.name !== 'tasks')) expect(after.get(p.name)).toEqual(before.get(p.name));
    const rows = await rowsOf(db, 'tasks');
    expect(rows).toHaveLength(20);
    expect(rows[2]).toMatchObject({ id: 't3', reward_paise: 300, reward_rupees: 3 });
    // Nothing of the build is left behind: no shadow or swapped-out table, no claim.
    const tables = (await sql<{ name: string }>`SELECT name FROM sqlite_master WHERE type = 'table' AND name LIKE 'tasks%'`.execute(db)).rows;
    expect(tables.map((t) => t.name)).toEqual(['tasks']);
    expect(await db.selectFrom('projection_builds').selectAll().execute()).toEqual([]);
    await runner.stop();

    // Code that still has the older version leaves the newer version's rows alone.
    const old = new ProjectionRunner(db, store, allProjections);
    await old.start();
    expect((await old.status()).find((m) => m.name === 'tasks')).toMatchObject({ state: 'newer', storedVersion: tasksProjection.version + 1, version: tasksProjection.version });
    await old.stop();
  });

  it('a version without a table of the last one drops it in the swap, its rows serving until then', async () => {
    const events = recordEvents(Array.from({ length: 20 }, (_, i) => taskCreated(i + 1)));
    const store = listStore(events);
    // The version before kept a second table.
    const tasksV1: Projection = { ...tasksProjection, tables: { ...tasksProjection.tables, task_notes: { columns: 'id TEXT PRIMARY KEY' } } };
    const first = new ProjectionRunner(db, store, allProjections.map((p) => (p.name === 'tasks' ? tasksV1 : p)));
    await first.start();
    await first.stop();
    await sql`INSERT INTO task_notes (id) VALUES ('t1')`.execute(db);

    const tasksV2: Projection = { ...tasksProjection, version: tasksProjection.version + 1, retired: ['task_notes'] };
    const runner = new ProjectionRunner(db, store, allProjections.map((p) => (p.name === 'tasks' ? tasksV2 : p)));
    await runner.start();
    expect((await readCheckpoints(db)).get('tasks')).toMatchObject({ version: tasksProjection.version + 1, position: 20 });
    expect(await rowsOf(db, 'tasks')).toHaveLength(20);
    const tables = (await sql<{ name: string }>`SELECT name FROM sqlite_master WHERE type = 'table' AND name IN ('tasks', 'task_notes')`.execute(db)).rows;
    expect(tables.map((t) => t.name)).toEqual(['tasks']);
    await runner.stop();
  });

  it('a data directory from before per-projection checkpoints keeps its rows serving and rebuilds itself', async () => {
    const events = recordEvents(Array.from({ length: 5 }, (_, i) => taskCreated(i + 1)));
    // The old layout: one 'read-models' checkpoint and kysely's migration tables.
    await sql`DELETE FROM checkpoints`.execute(db);
    await sql`CREATE TABLE kysely_migration (name TEXT PRIMARY KEY, timestamp TEXT)`.execute(db);
    await sql`INSERT INTO checkpoints (name, position, updated_at) VALUES ('read-models', 3, 'then')`.execute(db);
    await db.destroy();
    db = await openReadDb(join(dir, 'read.sqlite'));
    expect((await readCheckpoints(db)).size).toBe(0);
    const runner = new ProjectionRunner(db, listStore(events), allProjections);
    await runner.start();
    expect((await readCheckpoints(db)).get('tasks')).toMatchObject({ version: tasksProjection.version, position: 5 });
    expect(await listActiveTasks(db)).toHaveLength(5);
    await runner.stop();
  });

  it('a build that finds a dead one drops what it left (its shadows and swapped-out tables), however many rows, and builds', async () => {
    const events = recordEvents(Array.from({ length: 5 }, (_, i) => taskCreated(i + 1)));
    // A build that died: its claim's heartbeat long stale, a shadow and an old table full of rows.
    await sql`INSERT INTO projection_builds (name, version, generation, heartbeat_at) VALUES ('tasks', 1, 'dead1', 0)`.execute(db);
    for (const leftover of ['tasks__rdead1', 'tasks__oldgone']) {
      await sql`CREATE TABLE ${sql.table(leftover)} (id INTEGER PRIMARY KEY, body TEXT NOT NULL)`.execute(db);
      await sql`WITH RECURSIVE n(i) AS (SELECT 1 UNION ALL SELECT i + 1 FROM n WHERE i < 20000) INSERT INTO ${sql.table(leftover)} (body) SELECT 'x' FROM n`.execute(db);
    }
    await rebuildReadModels(db, listStore(events), [tasksProjection], { chunkMs: 1, pauseMs: 0 });
    const tables = (await sql<{ name: string }>`SELECT name FROM sqlite_master WHERE type = 'table' AND name LIKE 'tasks%'`.execute(db)).rows;
    expect(tables.map((t) => t.name)).toEqual(['tasks']);
    expect(await db.selectFrom('projection_builds').selectAll().execute()).toEqual([]);
    expect(await listActiveTasks(db)).toHaveLength(5);
  });
});

describe('stopping', () => {
  it('a wait for a position the read models have not reached settles false when they stop, and a later one at once', async () => {
    const events = recordEvents([taskCreated(1), taskCreated(2)]);
    const runner = new ProjectionRunner(db, listStore(events), allProjections);
    await runner.start();
    expect(await runner.waitFor(events.length, 10_000)).toBe(true);
    // Far longer than the test may run: only the stop can settle it.
    const waiting = runner.waitFor(events.length + 1, 600_000);
    await runner.stop();
    await expect(waiting).resolves.toBe(false);
    await expect(runner.waitFor(events.length + 1, 600_000)).resolves.toBe(false);
    // What they did reach is still reached.
    await expect(runner.waitFor(events.length, 600_000)).resolves.toBe(true);
  });

  it("a watcher of a worker's checkpoints does the same", async () => {
    const watcher = new CheckpointWatcher(db, allProjections, { pollMs: 5, idleMs: 5 });
    await watcher.start();
    const waiting = watcher.waitFor(1, 600_000);
    await watcher.stop();
    await expect(waiting).resolves.toBe(false);
    await expect(watcher.waitFor(1, 600_000)).resolves.toBe(false);
  });
});
