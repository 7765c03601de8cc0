import { randomUUID } from 'node:crypto';
import type { KamaiEvent } from '@kamai/contracts';
import { capability } from '@kamai/domain';
import { allProjections, rebuildReadModels, readCheckpoints, tasksProjection } from '@kamai/projections';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type TestServer, startTestServer } from '../testing/server.ts';
import { SealedEventStore } from '../privacy/sealed-store.ts';
import { sqliteReadAhead } from './read-ahead.ts';

const TASKS = 50;
const FILLER = 60_000;

function taskCreated(i: number): KamaiEvent {
  return {
    type: 'TaskCreated',
    data: {
      taskId: `t${i}`, title: `Task ${i}`, description: 'd', rewardPaise: 100, estimatedTime: '1 min', taskType: 'website', taskUrl: null,
      isActive: true, iconColor: 'blue', requiresProof: false, proofInstructions: null, createdBy: 'admin', createdAt: new Date().toISOString(),
    },
  };
}

let server: TestServer;
beforeAll(async () => {
  server = await startTestServer();
  for (let i = 0; i < TASKS; i++) {
    const e = taskCreated(i);
    await server.store.append(`task-t${i}`, [{ id: randomUUID(), type: e.type, data: e.data as never }], 'no_stream');
  }
  // Enough history that a rebuild takes a while: edits of the tasks, which the rebuild must apply.
  for (let i = 0; i < FILLER; i += 500) {
    const taskId = `t${(i / 500) % TASKS}`;
    const { taskId: _, createdBy: __, createdAt: ___, ...fields } = (taskCreated(0) as Extract<KamaiEvent, { type: 'TaskCreated' }>).data;
    const batch = Array.from({ length: 500 }, (_, j) => ({
      id: randomUUID(),
      type: 'TaskUpdated',
      data: { ...fields, taskId, title: `Task ${taskId} edit ${j}`, updatedBy: 'admin', updatedAt: new Date().toISOString() },
    }));
    await server.store.append(`task-${taskId}`, batch, 'any');
  }
  expect(await server.runner.waitFor(await server.store.headPosition(), 30_000)).toBe(true);
});
afterAll(async () => {
  await server?.close();
});

describe('rebuilding a read model while the app serves it', () => {
  it('answers every read from full tables during the rebuild, keeps taking commands, and swaps in the rebuilt rows', async () => {
    const user = await server.signUp();
    let reads = 0;
    let writes = 0;
    const problems: string[] = [];
    let rebuilding = true;
    const reader = async () => {
      while (rebuilding) {
        const res = await user.get('/api/tasks');
        reads += 1;
        if (res.status !== 200) problems.push(`GET /api/tasks ${res.status}`);
        else if (res.body.length < TASKS) problems.push(`GET /api/tasks saw ${res.body.length} tasks`);
      }
    };
    const writer = async () => {
      while (rebuilding) {
        const res = await user.put('/api/profile', { firstName: `Name${writes}` });
        writes += 1;
        if (res.status !== 200) problems.push(`PUT /api/profile ${res.status}`);
      }
    };
    const load = [reader(), reader(), reader(), writer()];
    const before = await readCheckpoints(server.db);
    // As `npm run cli -- rebuild-read-models tasks` does, on its own connection to the same file,
    // reading on a thread of its own as it does from 100,000 events on.
    if (!(server.store instanceof SealedEventStore) || !capability(server.store, 'embeddedFile')) throw new Error('this spec runs on the embedded store');
    const readAhead = sqliteReadAhead(server.store, { threadFromEvents: 0 });
    const result = await rebuildReadModels(server.db, server.store, [tasksProjection], { chunkMs: 20, readAhead });
    rebuilding = false;
    await Promise.all(load);

    expect(problems).toEqual([]);
    expect(reads).toBeGreaterThan(10);
    expect(writes).toBeGreaterThan(2);
    expect(result.events).toBeGreaterThanOrEqual(TASKS + FILLER);
    const after = await readCheckpoints(server.db);
    expect(after.get('tasks')!.position).toBeGreaterThanOrEqual(before.get('tasks')!.position);
    // The app keeps projecting into the swapped-in table: a task created now shows.
    const e = taskCreated(TASKS);
    const { position } = await server.store.append(`task-t${TASKS}`, [{ id: randomUUID(), type: e.type, data: e.data as never }], 'no_stream');
    expect(await server.runner.waitFor(position)).toBe(true);
    expect((await user.get('/api/tasks')).body).toHaveLength(TASKS + 1);
    expect(server.runner.failed).toBeNull();
    const health = await server.client().get('/api/health');
    expect(health.status).toBe(200);
    expect(health.body.readModels.map((m: { name: string; state: string }) => [m.name, m.state])).toEqual(allProjections.map((p) => [p.name, 'live']));
  });
});
