import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { type KamaiEvent, PERSONAL_FIELDS, notOpenedValue, valueAtPath, withValueAtPath } from '@kamai/contracts';
import type { AllSubscription, EventStore, RecordedEvent } from '@kamai/domain';
import { sql } from 'kysely';
import { expect } from 'vitest';
import { type ReadDbHandle, openReadDb, writeTransaction } from './db.ts';
import { readEventTextsFrom } from './event-texts.ts';
import { type Projection, openedFields, opensSealed } from './projection.ts';
import { buildAside } from './rebuild.ts';
import { applyEvents } from './runner.ts';

/** The `TaskCreated` of catalogue task `t<i>`, reward ₹1 × i, created i seconds past a fixed time: filler for runner and rebuild specs. */
export function taskCreated(i: number): { stream: string; event: KamaiEvent } {
  return {
    stream: `task-t${i}`,
    event: {
      type: 'TaskCreated',
      data: {
        taskId: `t${i}`, title: `Task ${i}`, description: 'd', rewardPaise: 100 * i, estimatedTime: '2 min', taskType: 'rating',
        taskUrl: null, isActive: true, iconColor: 'blue', requiresProof: false, proofInstructions: null, createdBy: 'admin',
        createdAt: new Date(Date.UTC(2026, 10, 21, 10, 0, 0, 0) + i * 1000).toISOString(),
      },
    },
  };
}

/**
 * Recorded events made from plain `{ type, data }` pairs with their streams, numbered as a store
 * would number them. For read-model specs: given these events, then these rows.
 */
export function recordEvents(events: ReadonlyArray<{ stream: string; event: KamaiEvent }>): RecordedEvent[] {
  const revisions = new Map<string, number>();
  return events.map(({ stream, event }, index) => {
    const revision = (revisions.get(stream) ?? -1) + 1;
    revisions.set(stream, revision);
    return {
      id: `evt-${index + 1}`,
      streamId: stream,
      revision,
      position: index + 1,
      type: event.type,
      data: event.data as RecordedEvent['data'],
      metadata: {},
      recordedAt: '2026-11-21T10:00:00.000Z',
    };
  });
}

/** The read side of a store over a fixed list: enough for rebuildReadModels in specs and benchmarks. */
export function listAsEventSource(events: readonly RecordedEvent[]): Pick<EventStore, 'readAll'> {
  return {
    async readAll({ after, limit }) {
      // Positions are 1-based and dense here, so the index is the position.
      return events.slice(after, after + limit);
    },
  };
}

/** Every row of a table, oldest first (rowid order), as plain objects. */
export async function rowsOf(db: ReadDbHandle, table: string): Promise<Record<string, unknown>[]> {
  return (await sql<Record<string, unknown>>`SELECT * FROM ${sql.table(table)} ORDER BY rowid`.execute(db)).rows;
}

/**
 * The events as a build that reads on a thread of its own hands them to `projections`: the sealed
 * fields of events none of them `opens` a field of read NOT_OPENED (the reader leaves their blobs shut).
 */
function asBuildReadsThem(events: readonly RecordedEvent[], projections: readonly Projection[]): RecordedEvent[] {
  const opened = openedFields(projections);
  return events.map((event) => {
    const sealed = PERSONAL_FIELDS[event.type as KamaiEvent['type']];
    let data = event.data;
    if (!sealed || typeof data !== 'object' || data === null || Array.isArray(data)) return event;
    // As the store seals them: only the fields present, in one blob.
    const present = sealed.paths.filter((path) => valueAtPath(data, path) !== undefined);
    if (opensSealed(opened, event.type, present)) return event;
    for (const path of present) data = withValueAtPath(data, path, notOpenedValue(path));
    return { ...event, data };
  });
}

type Given = ReadonlyArray<{ stream: string; event: KamaiEvent }>;
type Rows = Record<string, ReadonlyArray<Record<string, unknown>>>;

/**
 * Projection specs read as the rows a history leaves, in the given/then style of the decider specs:
 *
 *   await projectionSpec(tasksProjection)
 *     .given([{ stream: 'task-t1', event: { type: 'TaskCreated', data } }])
 *     .then({ tasks: [{ id: 't1', title: 'Rate the app', is_active: 1 }] });
 *
 *   await projectionSpec(walletProjection).given(history).thenQuery((db) => listTransactions(db, 'u1'), [...]);
 *
 * The events are applied one transaction each, as the live runner does, and separately built aside
 * from zero, as a rebuild does, with the sealed fields of events no projection `opens` a field of left shut
 * (as a build's reader thread leaves them); both must leave the same rows. `then` lists, per table, every row in
 * insertion order with the columns worth checking (unlisted columns are not compared).
 */
export function projectionSpec(...projections: Projection[]) {
  return {
    given: (history: Given) => {
      const events = recordEvents(history);
      const run = async <T>(check: (db: ReadDbHandle) => Promise<T>): Promise<T> => {
        const dir = mkdtempSync(join(tmpdir(), 'kamai-projection-spec-'));
        const live = await openReadDb(join(dir, 'live.sqlite'), projections);
        const rebuilt = await openReadDb(join(dir, 'rebuilt.sqlite'), projections);
        // Older events' literal texts are read from the events, as the app's store opens them.
        readEventTextsFrom(live, listAsEventSource(events));
        try {
          for (const event of events) await writeTransaction(live, (trx) => applyEvents(trx, projections, [event]));
          await buildAside(rebuilt, listAsEventSource(asBuildReadsThem(events, projections)), projections, { batchSize: 3 });
          for (const table of projections.flatMap((p) => Object.keys(p.tables))) {
            expect(
              await rowsOf(rebuilt, table),
              `${table}: a rebuild from zero (blobs holding none of the projections' \`opens\` left shut) gives other rows than live application`,
            ).toEqual(await rowsOf(live, table));
          }
          return await check(live);
        } finally {
          await Promise.all([live.destroy(), rebuilt.destroy()]);
          rmSync(dir, { recursive: true, force: true });
        }
      };
      return {
        /** Exactly these rows (listed columns only) in each table named, and no others. */
        then: (expected: Rows) =>
          run(async (db) => {
            for (const [table, rows] of Object.entries(expected)) {
              expect(await rowsOf(db, table), table).toEqual(rows.map((row) => expect.objectContaining(row)));
            }
          }),
        /** What a query function answers over the rows. */
        thenQuery: <T>(query: (db: ReadDbHandle) => Promise<T>, expected: T) =>
          run(async (db) => {
            expect(await query(db)).toEqual(expected);
          }),
      };
    },
  };
}

/**
 * A store over a growing list: read in batches, followed live by polling, as the SQLite store does.
 * `dropAfter`: its first subscription fails after that many events, as a dropped connection would.
 */
export function listStore(events: RecordedEvent[], options: { dropAfter?: number } = {}): EventStore & { subscriptions: number } {
  const store = {
    ...listAsEventSource(events),
    subscriptions: 0,
    headPosition: async () => events.length,
    subscribeToAll: ({ after }: { after: number }): AllSubscription => {
      store.subscriptions += 1;
      const dropAfter = store.subscriptions === 1 ? options.dropAfter : undefined;
      let closed = false;
      return {
        close: async () => {
          closed = true;
        },
        async *[Symbol.asyncIterator]() {
          let position = after;
          let delivered = 0;
          while (!closed) {
            const next = events.slice(position, position + 100);
            if (next.length === 0) await new Promise((r) => setTimeout(r, 5));
            for (const e of next) {
              if (dropAfter !== undefined && delivered === dropAfter) throw Object.assign(new Error('connection reset by peer'), { code: 'ECONNRESET' });
              delivered += 1;
              yield e;
            }
            position += next.length;
          }
        },
      };
    },
  };
  // The parts of the port the runner uses; the rest is never called on it.
  return store as unknown as EventStore & { subscriptions: number };
}
