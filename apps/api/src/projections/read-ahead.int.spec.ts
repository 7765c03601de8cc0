import { randomUUID } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { type ReadDbHandle, allProjections, openReadDb, rebuildReadModels } from '@kamai/projections';
import { rowsOf } from '@kamai/projections/testing';
import { sql } from 'kysely';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import Database from 'better-sqlite3';
import { openSqliteEventStore } from '../event-store/sqlite.ts';
import { openSealedSqliteStore } from '../privacy/open.ts';
import { personalDataAt } from '../privacy/personal-data.ts';
import { type SealedEventStore, sealEventStore } from '../privacy/sealed-store.ts';
import type { UnreadableEvent } from '../privacy/sealing.ts';
import { seedDemoData } from '../seed.ts';
import { changeLetter } from '../testing/tamper.ts';
import { sqliteReadAhead } from './read-ahead.ts';

let dir: string;
let store: SealedEventStore;
const dbs: ReadDbHandle[] = [];
beforeEach(async () => {
  dir = mkdtempSync(join(tmpdir(), 'kamai-read-ahead-'));
  store = openSealedSqliteStore(join(dir, 'events.sqlite'));
  await seedDemoData(store, store.personal, new Date('2026-11-01T10:00:00Z'));
});
afterEach(async () => {
  for (const db of dbs.splice(0)) await db.destroy();
  await store.close();
  rmSync(dir, { recursive: true, force: true });
});

async function readDb(name: string): Promise<ReadDbHandle> {
  const db = await openReadDb(join(dir, name));
  dbs.push(db);
  return db;
}

const tablesOf = async (db: ReadDbHandle) =>
  (await sql<{ name: string }>`SELECT name FROM sqlite_master WHERE type = 'table' ORDER BY name`.execute(db)).rows.map((r) => r.name);

/** Every table's rows; the checkpoints without the time they were written. */
async function everyRow(db: ReadDbHandle): Promise<Record<string, unknown[]>> {
  const all: Record<string, unknown[]> = {};
  for (const table of await tablesOf(db)) {
    all[table] = (await rowsOf(db, table)).map((row) => (table === 'checkpoints' ? { ...row, updated_at: null } : row));
  }
  return all;
}

/** A user's money, more of it than the demo has: many pages of a handful of events each. */
async function moreHistory(credits: number): Promise<void> {
  const userId = randomUUID();
  await store.append(`user-${userId}`, [
    { id: randomUUID(), type: 'UserRegistered', data: { userId, mobile: '6000000001', passwordHash: 'x', firstName: 'Read', lastName: 'Ahead', registeredAt: '2026-11-02T10:00:00.000Z' } },
    ...Array.from({ length: credits }, (_, i) => ({
      id: randomUUID(),
      type: 'WalletCredited',
      data: { entryId: `e${i}`, amountPaise: 100 + i, kind: 'task_reward', params: { taskTitle: `Task ${i}` }, taskId: 't1', creditedAt: '2026-11-02T10:00:00.000Z' },
    })),
  ], 'no_stream');
}

describe('a rebuild reading on a thread of its own (read-ahead)', () => {
  it('leaves the very rows a build reading on its own thread leaves, page after page', async () => {
    await moreHistory(300);
    const onThread = await readDb('thread.sqlite');
    const meanwhile = await readDb('meanwhile.sqlite');
    const here = await readDb('here.sqlite');
    // Small pages: the thread keeps several ahead, and chunks end inside them and between them.
    // Every page from the thread; then as builds go, the first pages read here while it starts.
    const threaded = await rebuildReadModels(onThread, store, allProjections, {
      batchSize: 7,
      chunkMs: 2,
      readAhead: sqliteReadAhead(store, { threadFromEvents: 0, readHereWhileStarting: false }),
    });
    const mixed = await rebuildReadModels(meanwhile, store, allProjections, { batchSize: 7, chunkMs: 2, readAhead: sqliteReadAhead(store, { threadFromEvents: 0 }) });
    const plain = await rebuildReadModels(here, store, allProjections, { batchSize: 7, chunkMs: 2 });

    expect(threaded.events).toBe(await store.headPosition());
    expect(threaded.position).toBe(plain.position);
    expect(mixed.events).toBe(threaded.events);
    const rows = await everyRow(onThread);
    expect(rows['journal_entries']!.length).toBeGreaterThanOrEqual(300);
    expect(rows).toEqual(await everyRow(here));
    expect(await everyRow(meanwhile)).toEqual(rows);
  });

  it('leaves shut the sealed fields none of the build’s read models reads, and leaves the same rows', async () => {
    await moreHistory(30);
    // The wallet reads no sealed field (opens: []): its reader thread opens no blob of UserRegistered.
    const models = allProjections.filter((p) => p.name === 'wallet');
    expect(models.map((p) => p.opens)).toEqual([[]]);
    const onThread = await readDb('thread.sqlite');
    const here = await readDb('here.sqlite');
    await rebuildReadModels(onThread, store, models, { batchSize: 7, readAhead: sqliteReadAhead(store, { threadFromEvents: 0, readHereWhileStarting: false }) });
    await rebuildReadModels(here, store, models, { batchSize: 7 });
    const rows = await everyRow(onThread);
    expect(rows['wallets']!.length).toBeGreaterThan(1);
    expect(rows).toEqual(await everyRow(here));
  });

  it('fails the build on an event that breaks its contract, and leaves the live tables as they were', async () => {
    const db = await readDb('read.sqlite');
    await rebuildReadModels(db, store, allProjections, { readAhead: sqliteReadAhead(store, { threadFromEvents: 0 }) });
    const before = await everyRow(db);
    await store.append(`user-${randomUUID()}`, [{ id: randomUUID(), type: 'WalletCredited', data: { entryId: 'bad', amountPaise: 'a lot', kind: 'task_reward', creditedAt: 'now' } }], 'no_stream');

    await expect(
      rebuildReadModels(db, store, allProjections, { batchSize: 5, readAhead: sqliteReadAhead(store, { threadFromEvents: 0 }) }),
    ).rejects.toThrow(/WalletCredited|amountPaise/);
    expect(await everyRow(db)).toEqual(before);
    expect((await tablesOf(db)).filter((t) => t.includes('__'))).toEqual([]);
  });

  it('hands a blob that does not open, read on its thread, to the sealer of the build’s store (the process’s alert)', async () => {
    await moreHistory(3);
    // The registration's blob, one letter of its ciphertext changed on disk.
    const file = join(dir, 'events.sqlite');
    const raw = new Database(file);
    const tampered = raw
      .prepare<[], { position: number; event_id: string; stream_id: string; revision: number; metadata: string }>(
        "SELECT position, event_id, stream_id, revision, metadata FROM events WHERE type = 'UserRegistered' ORDER BY position DESC LIMIT 1",
      )
      .get()!;
    const sealed = (JSON.parse(tampered.metadata) as { personal: { c: string } }).personal.c;
    const changed = tampered.metadata.replace(`"c":"${sealed}"`, `"c":"${changeLetter(sealed, 0)}"`);
    expect(changed).not.toBe(tampered.metadata);
    raw.prepare('UPDATE events SET metadata = ? WHERE position = ?').run(changed, tampered.position);
    raw.close();

    const reports: UnreadableEvent[] = [];
    const reading = sealEventStore(openSqliteEventStore(file), personalDataAt(store.personal.location, (event) => reports.push(event)), { closesKeys: true });
    try {
      const models = allProjections.filter((p) => p.name === 'users');
      await rebuildReadModels(await readDb('read.sqlite'), reading, models, { readAhead: sqliteReadAhead(reading, { threadFromEvents: 0, readHereWhileStarting: false }) });
      expect(reports).toEqual([{ id: tampered.event_id, streamId: tampered.stream_id, position: tampered.position, revision: tampered.revision, type: 'UserRegistered' }]);
    } finally {
      await reading.close();
    }
  });
});
