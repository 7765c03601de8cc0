import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { type ReadDbHandle, openReadDb } from './db.ts';
import type { Projection } from './projection.ts';
import { allProjections } from './registry.ts';
import { rebuildReadModels } from './rebuild.ts';
import { ProjectionRunner } from './runner.ts';
import { listActiveTasks } from './tasks/queries.ts';
import { listStore, recordEvents, rowsOf, taskCreated } from './testing.ts';

// The table of the read models below, added to the read database's type as a read model's schema.ts would.
declare module './schema.ts' {
  interface ReadDb {
    task_shouts: { id: string; title: string };
  }
}

/** A read model of task titles, upper-cased; `throwOn` makes it throw on that task's creation. */
function shouts(throwOn: (taskId: string) => Error | null): Projection {
  return {
    name: 'task-shouts',
    version: 1,
    tables: { task_shouts: { columns: 'id TEXT PRIMARY KEY, title TEXT NOT NULL' } },
    handles: ['TaskCreated'],
    apply(rows, event) {
      if (event.type !== 'TaskCreated') return;
      const error = throwOn(event.data.taskId);
      if (error) throw error;
      rows.insert('task_shouts', { id: event.data.taskId, title: event.data.title.toUpperCase() });
    },
  };
}

let dir: string;
let db: ReadDbHandle;
beforeEach(async () => {
  dir = mkdtempSync(join(tmpdir(), 'kamai-isolation-'));
  db = await openReadDb(join(dir, 'read.sqlite'));
});
afterEach(async () => {
  await db.destroy();
  rmSync(dir, { recursive: true, force: true });
});

const tasks = (from: number, to: number) => Array.from({ length: to - from + 1 }, (_, i) => taskCreated(from + i));

describe('one read model failing does not stop the others', () => {
  it('parks the model that throws, at its event, while the others keep applying; a rebuild after the fix brings it back', async () => {
    const events = recordEvents(tasks(1, 3));
    const store = listStore(events);
    const broken = shouts((id) => (id === 't5' ? new Error('title too loud') : null));
    const runner = new ProjectionRunner(db, store, [...allProjections, broken]);
    await runner.start();
    events.push(...recordEvents(tasks(1, 8)).slice(3));
    // Requests waiting for their writes are released: the others reached the head.
    expect(await runner.waitFor(8, 10_000)).toBe(true);
    expect(runner.failed).toBeNull();
    expect(await listActiveTasks(db)).toHaveLength(8);
    const status = await runner.status();
    expect(status.find((m) => m.name === 'task-shouts')).toMatchObject({
      state: 'parked',
      position: 4,
      parked: { position: 5, eventType: 'TaskCreated', error: 'title too loud' },
    });
    expect(status.filter((m) => m.name !== 'task-shouts').every((m) => m.state === 'live' && m.position === 8)).toBe(true);
    expect((await rowsOf(db, 'task_shouts')).map((r) => r.id)).toEqual(['t1', 't2', 't3', 't4']);
    await runner.stop();

    // The fixed code starts parked (the parking is kept in the read database) until its rebuild.
    const fixed = shouts(() => null);
    const next = new ProjectionRunner(db, store, [...allProjections, fixed]);
    await next.start();
    expect((await next.status()).find((m) => m.name === 'task-shouts')?.state).toBe('parked');
    await rebuildReadModels(db, store, [fixed]);
    events.push(...recordEvents(tasks(1, 9)).slice(8));
    expect(await next.waitFor(9, 10_000)).toBe(true);
    // The swap happened while this runner ran: it takes the model up again from the rebuild's position.
    await expect.poll(async () => (await rowsOf(db, 'task_shouts')).length).toBe(9);
    expect((await next.status()).every((m) => m.state === 'live' && m.parked === undefined)).toBe(true);
    await next.stop();
  });

  it('retries a transient error (the database busy) instead of parking', async () => {
    // While built from the events so far, and while following the new ones.
    const events = recordEvents(tasks(1, 5));
    const busy = new Map([
      ['t3', 2],
      ['t7', 1],
    ]);
    const locked = (id: string) => {
      const left = busy.get(id) ?? 0;
      busy.set(id, left - 1);
      return left > 0 ? Object.assign(new Error('database is locked'), { code: 'SQLITE_BUSY' }) : null;
    };
    const runner = new ProjectionRunner(db, listStore(events), [...allProjections, shouts(locked)]);
    await runner.start();
    events.push(...recordEvents(tasks(1, 8)).slice(5));
    expect(await runner.waitFor(8, 10_000)).toBe(true);
    expect([busy.get('t3'), busy.get('t7')]).toEqual([-1, -1]);
    expect((await runner.status()).every((m) => m.state === 'live')).toBe(true);
    expect(await rowsOf(db, 'task_shouts')).toHaveLength(8);
    await runner.stop();
  });

  it('parks a new model whose build from the past fails, and serves the others', async () => {
    const events = recordEvents(tasks(1, 4));
    const runner = new ProjectionRunner(db, listStore(events), [...allProjections, shouts((id) => (id === 't2' ? new Error('no') : null))]);
    await runner.start();
    expect(runner.failed).toBeNull();
    expect((await runner.status()).find((m) => m.name === 'task-shouts')).toMatchObject({ state: 'parked', parked: { position: 2, error: 'no' } });
    expect(await listActiveTasks(db)).toHaveLength(4);
    await runner.stop();
  });

  it('takes a lost subscription up again from where the read models are', async () => {
    const events = recordEvents(tasks(1, 2));
    const store = listStore(events, { dropAfter: 3 });
    const runner = new ProjectionRunner(db, store, allProjections);
    await runner.start();
    events.push(...recordEvents(tasks(1, 10)).slice(2));
    expect(await runner.waitFor(10, 10_000)).toBe(true);
    expect(store.subscriptions).toBe(2);
    expect(runner.resubscriptions).toBe(1);
    expect(runner.failed).toBeNull();
    expect(await listActiveTasks(db)).toHaveLength(10);
    await runner.stop();
  });
});
