import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { EventStore, RecordedEvent } from '@kamai/domain';
import { sql } from 'kysely';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { type ReadDbHandle, openReadDb, writeTransaction } from './db.ts';
import { notificationsProjection } from './notifications/projection.ts';
import { rebuildReadModels } from './rebuild.ts';
import { tasksProjection } from './tasks/projection.ts';
import { listActiveTasks } from './tasks/queries.ts';
import { listAsEventSource, recordEvents, rowsOf, taskCreated } from './testing.ts';

const TASKS = 12_000;

const events = recordEvents(Array.from({ length: TASKS }, (_, i) => taskCreated(i + 1)));

/** The list's events, but reading past `failAfter` throws, as a store that breaks mid-build. */
function breakingStore(all: readonly RecordedEvent[], failAfter: number, onFail: () => void): Pick<EventStore, 'readAll'> {
  const source = listAsEventSource(all);
  return {
    async readAll(options) {
      if (options.after >= failAfter) {
        onFail();
        throw new Error('the store went away');
      }
      return source.readAll(options);
    },
  };
}

const tablesLike = async (db: ReadDbHandle, prefix: string) =>
  (await sql<{ name: string }>`SELECT name FROM sqlite_master WHERE type = 'table' AND substr(name, 1, ${prefix.length}) = ${prefix} ORDER BY name`.execute(db)).rows.map(
    (r) => r.name,
  );

let dir: string;
let db: ReadDbHandle;
beforeEach(async () => {
  dir = mkdtempSync(join(tmpdir(), 'kamai-rebuild-'));
  db = await openReadDb(join(dir, 'read.sqlite'));
  // The live table serves a first build's rows throughout.
  await rebuildReadModels(db, listAsEventSource(events.slice(0, 3)), [tasksProjection]);
});
afterEach(async () => {
  await db.destroy();
  rmSync(dir, { recursive: true, force: true });
});

describe('a build that does not finish', () => {
  it('fails: releases its claim and drops its shadow a chunk at a time, other writers getting in between', async () => {
    let failed = false;
    const build = rebuildReadModels(db, breakingStore(events, TASKS - 2000, () => (failed = true)), [tasksProjection], { chunkMs: 1, pauseMs: 0 });
    let settled = false;
    void build.catch(() => {}).finally(() => (settled = true));
    // Another writer of this file, taking turns with the build's transactions: after the failure it
    // counts the shadow's rows each time it gets the lock.
    const seen: number[] = [];
    while (!settled) {
      await writeTransaction(db, async (trx) => {
        if (!failed) return;
        const [shadow] = await tablesLike(trx, 'tasks__r');
        if (!shadow) return;
        const { rows } = await sql<{ n: number }>`SELECT count(*) AS n FROM ${sql.table(shadow)}`.execute(trx);
        seen.push(rows[0]!.n);
      });
      // Lets the build's timers run: this loop's turns are otherwise all microtasks.
      await new Promise((resolve) => setImmediate(resolve));
    }

    await expect(build).rejects.toThrow('the store went away');
    expect(await tablesLike(db, 'tasks')).toEqual(['tasks']);
    expect(await db.selectFrom('projection_builds').selectAll().execute()).toEqual([]);
    // The shadow went in several transactions: the writer saw it part emptied.
    const full = Math.max(...seen);
    expect(full).toBeGreaterThan(2 * 2000);
    expect(seen.some((n) => n > 0 && n < full)).toBe(true);
    // The live rows never moved, and the next build is free to run.
    expect(await listActiveTasks(db)).toHaveLength(3);
    await rebuildReadModels(db, listAsEventSource(events), [tasksProjection]);
    expect(await listActiveTasks(db)).toHaveLength(TASKS);
  });

  it('aborted: releases its claim and drops its shadow, the live rows untouched', async () => {
    const abort = new AbortController();
    const source = listAsEventSource(events);
    const store: Pick<EventStore, 'readAll'> = {
      async readAll(options) {
        if (options.after >= TASKS / 2) abort.abort();
        return source.readAll(options);
      },
    };
    await expect(rebuildReadModels(db, store, [tasksProjection], { chunkMs: 1, pauseMs: 0, signal: abort.signal })).rejects.toThrow(/abort/i);
    expect(await tablesLike(db, 'tasks')).toEqual(['tasks']);
    expect(await db.selectFrom('projection_builds').selectAll().execute()).toEqual([]);
    expect(await listActiveTasks(db)).toHaveLength(3);
  });

  it('whose process died after releasing its claim: the next build sweeps the shadow it left', async () => {
    await sql`CREATE TABLE tasks__rorphan1 (id INTEGER PRIMARY KEY, body TEXT NOT NULL)`.execute(db);
    await sql`WITH RECURSIVE n(i) AS (SELECT 1 UNION ALL SELECT i + 1 FROM n WHERE i < 5000) INSERT INTO tasks__rorphan1 (body) SELECT 'x' FROM n`.execute(db);
    await rebuildReadModels(db, listAsEventSource(events.slice(0, 5)), [tasksProjection], { chunkMs: 1, pauseMs: 0 });
    expect(await tablesLike(db, 'tasks')).toEqual(['tasks']);
    expect(await listActiveTasks(db)).toHaveLength(5);
  });
});

describe('the indexes of a build', () => {
  const indexesOf = async (table: string) =>
    (await sql<{ name: string }>`SELECT name FROM sqlite_master WHERE type = 'index' AND tbl_name = ${table} AND sql IS NOT NULL`.execute(db)).rows.map((r) => r.name);

  it('are made after the catch-up, unless a statement of the projection would scan the table without one', async () => {
    const sent = (i: number) => ({
      stream: 'user-u1',
      event: { type: 'NotificationSent', data: { notificationId: `n${i}`, title: 'T', message: 'M', kind: 'info', sentAt: '2026-11-21T10:00:00.000Z' } },
    }) as const;
    const read = { stream: 'user-u1', event: { type: 'AllNotificationsRead', data: { readAt: '2026-11-21T10:00:00.000Z' } } } as const;
    const all = recordEvents([...[1, 2, 3, 4].map(sent), read, ...[5, 6, 7, 8, 9, 10].map(sent)]);
    const source = listAsEventSource(all);
    const seen = new Map<number, string[]>();
    const store: Pick<EventStore, 'readAll'> = {
      async readAll(options) {
        const [shadow] = await tablesLike(db, 'notifications__r');
        if (shadow) seen.set(options.after, await indexesOf(shadow));
        return source.readAll(options);
      },
    };
    await rebuildReadModels(db, store, [notificationsProjection], { batchSize: 1, chunkMs: 1, pauseMs: 0 });
    // Before AllNotificationsRead (an update by user and position) none; from it on, the one by user.
    expect(seen.get(2)).toEqual([]);
    expect(seen.get(9)).toEqual([expect.stringMatching(/__user$/)]);
    expect(await indexesOf('notifications')).toEqual([expect.stringMatching(/__user$/)]);
    expect((await rowsOf(db, 'notifications')).map((r) => r['is_read'])).toEqual([1, 1, 1, 1, 0, 0, 0, 0, 0, 0]);
  });

  it('are all there once a build without such statements swaps in', async () => {
    await rebuildReadModels(db, listAsEventSource(events.slice(0, 50)), [tasksProjection], { batchSize: 10 });
    expect(await indexesOf('tasks')).toEqual([expect.stringMatching(/__listed$/)]);
    expect(await listActiveTasks(db)).toHaveLength(50);
  });
});


describe("a build's swap", () => {
  it('replaces a live table with rows (renamed aside, dropped after) and an empty one (dropped in the swap), leaving neither behind', async () => {
    expect((await listActiveTasks(db)).length).toBe(3);
    expect(await rowsOf(db, 'notifications')).toEqual([]);
    await rebuildReadModels(db, listAsEventSource(events.slice(0, 20)), [tasksProjection, notificationsProjection], { batchSize: 5 });
    expect(await listActiveTasks(db)).toHaveLength(20);
    expect(await tablesLike(db, 'tasks')).toEqual(['tasks']);
    expect(await tablesLike(db, 'notifications')).toEqual(['notifications']);
    // The empty table's replacement takes rows as the live one did.
    await writeTransaction(db, (trx) => sql`INSERT INTO notifications (id, user_id, type, is_read, created_at, position) VALUES ('n1', 'u1', 'info', 0, 't', 1)`.execute(trx));
    expect(await rowsOf(db, 'notifications')).toHaveLength(1);
  });
});

describe("the pauses between a build's chunks", () => {
  // 20 pages of one event: a chunk each. The store's head stays where it is (nobody appends).
  const some = events.slice(0, 20);
  const store = { ...listAsEventSource(some), headPosition: async () => some.length };
  const followedAt = (position: number) => writeTransaction(db, (trx) => trx.updateTable('checkpoints').set({ position }).where('name', '=', 'tasks').execute());

  it('are not taken while no read model followed live is behind the head: a first build, every runner caught up', { timeout: 20_000 }, async () => {
    // Were a pause taken, a minute each: the build would not end within the test's time.
    const options = { batchSize: 1, chunkMs: 1, pauseMs: 60_000 };
    // Every model at zero: none followed (a model at zero is built aside), as in a new read database.
    await followedAt(0);
    await rebuildReadModels(db, store, [tasksProjection], options);
    expect(await listActiveTasks(db)).toHaveLength(20);
    // tasks followed live and at the head, as its runner leaves it once it wrote every event.
    await followedAt(some.length);
    await rebuildReadModels(db, store, [tasksProjection], options);
    expect(await listActiveTasks(db)).toHaveLength(20);
  });

  it('are taken while a read model followed live is behind the head (its runner has events to write)', async () => {
    await followedAt(3);
    const started = performance.now();
    await rebuildReadModels(db, store, [tasksProjection], { batchSize: 1, chunkMs: 1, pauseMs: 300 });
    // At least one pause: nothing else in a build of 20 events waits this long.
    expect(performance.now() - started).toBeGreaterThanOrEqual(300);
    expect(await listActiveTasks(db)).toHaveLength(20);
  });
});
