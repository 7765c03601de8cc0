import { type ChildProcess, spawn } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import Database from 'better-sqlite3';
import { afterAll, afterEach, describe, expect, it } from 'vitest';
import { WrongExpectedRevisionError, capability, type EventStore, type RecordedEvent } from '@kamai/domain';
import type { WorkerMessage } from './append-worker.ts';
import { DuplicateEventIdError } from './common.ts';
import { consume, describeEventStoreContract, event, expectConflict, range, stream } from './contract.ts';
import { openSqliteEventStore, SqliteEventStore } from './sqlite.ts';
import { verifyChain } from './chain.ts';

const here = dirname(fileURLToPath(import.meta.url));
const tsx = join(here, '../../../../node_modules/.bin/tsx');
const dir = mkdtempSync(join(tmpdir(), 'kamai-event-store-'));
let files = 0;
const newFile = () => join(dir, `events-${++files}.db`);

const children = new Set<ChildProcess>();

// The capabilities the embedded store offers, as callers reach them.
const signalOf = (store: EventStore) => capability(store, 'changeSignal')!;
const snapshotsOf = (store: EventStore) => capability(store, 'snapshots')!;
const readsOf = (store: EventStore) => capability(store, 'syncReads')!;

afterAll(() => {
  // A worker left running by a failed or timed-out test must not outlive the run.
  for (const child of children) child.kill('SIGKILL');
  rmSync(dir, { recursive: true, force: true });
});

describeEventStoreContract('sqlite, group commit', () => openSqliteEventStore(newFile()));
describeEventStoreContract('sqlite, one transaction per append', () => openSqliteEventStore(newFile(), { groupCommit: false }));
describeEventStoreContract('sqlite, group commit on a writer thread', () => openSqliteEventStore(newFile(), { writerThread: true }));

describe('sqlite event store', () => {
  const open: SqliteEventStore[] = [];
  const openStore = (file = newFile(), options?: ConstructorParameters<typeof SqliteEventStore>[1]) => {
    const store = openSqliteEventStore(file, options);
    open.push(store);
    return store;
  };
  afterEach(async () => {
    await Promise.all(open.splice(0).map((store) => store.close()));
  });

  it('signals another connection\'s commits through externalVersion, and its own appends through localHead', async () => {
    const file = newFile();
    const mine = openStore(file);
    const other = openStore(file);
    const before = signalOf(mine).externalVersion();
    expect(signalOf(mine).localHead).toBe(0);
    const own = await mine.append(stream('s'), [event('A')], 'no_stream');
    // Its own commit moves localHead, never externalVersion.
    expect(signalOf(mine).externalVersion()).toBe(before);
    expect(signalOf(mine).localHead).toBe(own.position);
    await other.append(stream('s'), [event('B')], 'no_stream');
    expect(signalOf(mine).externalVersion()).not.toBe(before);
    expect(signalOf(mine).localHead).toBe(own.position);
  });

  it('with a writer thread, tells its own commits from another connection\'s, even one slipped between two of its own', async () => {
    const file = newFile();
    const mine = openStore(file, { writerThread: true });
    const other = openStore(file);
    const [s, t] = [stream('s'), stream('t')];
    const before = signalOf(mine).externalVersion();
    const own = await mine.append(s, [event('A')], 'no_stream');
    // The writer thread is another SQLite connection, yet its commits are this store's own.
    expect(signalOf(mine).externalVersion()).toBe(before);
    expect(signalOf(mine).localHead).toBe(own.position);
    // Acknowledged means committed: another connection reads it at once.
    expect(await other.readStream(s)).toHaveLength(1);
    await other.append(t, [event('B')], 'no_stream');
    const afterOther = signalOf(mine).externalVersion();
    expect(afterOther).not.toBe(before);
    expect(signalOf(mine).externalVersion()).toBe(afterOther);
    // Another connection's append, then one of ours, before this store looks: still seen.
    await other.append(t, [event('C')], 0);
    await mine.append(s, [event('D')], 0);
    expect(signalOf(mine).externalVersion()).not.toBe(afterOther);
  });

  it('with a writer thread, keeps snapshots through it: the newer one wins, and another connection reads it', async () => {
    const file = newFile();
    const store = openStore(file, { writerThread: true });
    const other = openStore(file);
    const s = stream('s');
    await snapshotsOf(store).writeSnapshot(s, { revision: 10, version: 1, state: { balance: 10 } });
    await snapshotsOf(store).writeSnapshot(s, { revision: 5, version: 1, state: { balance: 5 } });
    expect(await snapshotsOf(other).readSnapshot(s)).toEqual({ revision: 10, version: 1, state: { balance: 10 } });
    await snapshotsOf(store).writeSnapshot(s, { revision: 3, version: 2, state: { balance: 3 } });
    expect(await snapshotsOf(store).readSnapshot(s)).toEqual({ revision: 3, version: 2, state: { balance: 3 } });
  });

  it('on the event loop, writes snapshots with the next group commit: the newer one wins, a close writes those still waiting', async () => {
    const file = newFile();
    const store = openStore(file);
    const other = openStore(file);
    const s = stream('s');
    const t = stream('t');
    // Asked for in the same turn as an append: one transaction writes them all.
    const [appended] = await Promise.all([
      store.append(t, [event('A')], 'no_stream'),
      snapshotsOf(store).writeSnapshot(s, { revision: 10, version: 1, state: { balance: 10 } }),
      snapshotsOf(store).writeSnapshot(s, { revision: 12, version: 1, state: { balance: 12 } }),
    ]);
    expect(appended.nextExpectedRevision).toBe(0);
    expect(await snapshotsOf(other).readSnapshot(s)).toEqual({ revision: 12, version: 1, state: { balance: 12 } });
    // Alone, and older than the one kept: kept as it was.
    await snapshotsOf(store).writeSnapshot(s, { revision: 5, version: 1, state: { balance: 5 } });
    expect(await snapshotsOf(other).readSnapshot(s)).toEqual({ revision: 12, version: 1, state: { balance: 12 } });
    // Waiting when the store closes: written by the close.
    const waiting = snapshotsOf(store).writeSnapshot(t, { revision: 0, version: 1, state: { n: 1 } });
    await store.close();
    await waiting;
    expect(await snapshotsOf(other).readSnapshot(t)).toEqual({ revision: 0, version: 1, state: { n: 1 } });
  });

  for (const [writerThread, label] of [[false, ''], [true, ' (writer thread)']] as const) {
    it(`waits for another process's write lock without blocking the event loop, then appends${label}`, async () => {
      const file = newFile();
      const store = openStore(file, { writerThread });
      const s = stream('s');
      await store.append(s, [event('A')], 'no_stream');
      const other = new Database(file);
      try {
        other.prepare('BEGIN IMMEDIATE').run();
        const appending = store.append(s, [event('B')], 0);
        // The event loop keeps turning while the append waits: timers fire on time.
        const started = Date.now();
        await new Promise((resolve) => setTimeout(resolve, 50));
        expect(Date.now() - started).toBeLessThan(500);
        let settled = false;
        void appending.finally(() => (settled = true));
        await new Promise((resolve) => setTimeout(resolve, 10));
        expect(settled).toBe(false);
        other.prepare('COMMIT').run();
        expect((await appending).nextExpectedRevision).toBe(1);
      } finally {
        other.close();
      }
    });

    it(`fails an append whose wait for another process's lock outlasts the busy timeout, and nothing is written${label}`, async () => {
      const file = newFile();
      const store = openStore(file, { busyTimeoutMs: 100, writerThread });
      const other = new Database(file);
      try {
        const s = stream('s');
        other.prepare('BEGIN IMMEDIATE').run();
        await expect(store.append(s, [event('A')], 'no_stream')).rejects.toMatchObject({ code: 'SQLITE_BUSY' });
        other.prepare('COMMIT').run();
        expect(await store.readStream(s)).toEqual([]);
      } finally {
        other.close();
      }
    });
  }

  it('a subscription sees another process\'s append within milliseconds, not a poll interval', async () => {
    const file = newFile();
    const follower = openStore(file, { pollIntervalMs: 5_000 });
    const writer = openStore(file);
    const iterator = follower.subscribeToAll({ after: 0 })[Symbol.asyncIterator]();
    const next = iterator.next();
    await new Promise((resolve) => setTimeout(resolve, 20));
    const started = Date.now();
    await writer.append(stream('s'), [event('A')], 'no_stream');
    const first = await next;
    expect(first.done).toBe(false);
    expect(Date.now() - started).toBeLessThan(1_000);
    await iterator.return?.();
  });

  it('reads only the given types in a position range, synchronously', async () => {
    const store = openStore();
    const s = stream('s');
    await store.append(s, [event('SessionSeen', { n: 1 }), event('Other'), event('SessionEnded', { n: 2 }), event('SessionSeen', { n: 3 })], 'no_stream');
    const head = readsOf(store).headNow();
    expect(head).toBe(await store.headPosition());
    const read = readsOf(store).readTypesNow(0, head - 1, ['SessionEnded', 'SessionSeen']);
    expect(read.map((e) => [e.type, e.data])).toEqual([
      ['SessionSeen', { n: 1 }],
      ['SessionEnded', { n: 2 }],
    ]);
    expect(readsOf(store).readTypesNow(head - 1, head, ['SessionSeen']).map((e) => e.data)).toEqual([{ n: 3 }]);
    expect(readsOf(store).readTypesNow(head, head, ['SessionSeen'])).toEqual([]);
    // The same range as headers: position, stream and type, nothing else.
    const first = read[0]!;
    expect(readsOf(store).readHeadersNow(0, head - 1, ['SessionEnded', 'SessionSeen'])).toEqual(read.map((e) => ({ position: e.position, streamId: e.streamId, type: e.type })));
    expect(readsOf(store).readHeadersNow(first.position, head, ['Other', 'SessionSeen']).map((e) => e.type)).toEqual(['Other', 'SessionSeen']);
    expect(readsOf(store).readHeadersNow(head, head, ['SessionSeen'])).toEqual([]);
  });

  it('starts positions at 1; an empty store has head position 0', async () => {
    const store = openStore();
    expect(await store.headPosition()).toBe(0);
    expect(await store.readAll({ after: 0, limit: 10 })).toEqual([]);
    const first = await store.append('user-1', [event('A'), event('B')], 'no_stream');
    const second = await store.append('user-2', [event('C')], 'no_stream');
    expect(first.position).toBe(2);
    expect(second.position).toBe(3);
    expect((await store.readAll({ after: 0, limit: 10 })).map((e) => e.position)).toEqual([1, 2, 3]);
    expect(await store.headPosition()).toBe(3);
  });

  it('runs its connection in WAL mode with synchronous=FULL and a busy timeout', () => {
    expect(openStore(newFile(), { busyTimeoutMs: 7000 }).settings()).toEqual({
      journalMode: 'wal',
      synchronous: 'full',
      busyTimeoutMs: 7000,
    });
  });

  it('refuses an event id used in another stream or twice in one append, writing nothing', async () => {
    const store = openStore();
    const taken = event('A');
    await store.append('user-1', [taken], 'no_stream');

    const elsewhere = store.append('user-2', [event('B'), { ...taken }], 'no_stream');
    await expect(elsewhere).rejects.toBeInstanceOf(DuplicateEventIdError);
    await expect(elsewhere).rejects.toMatchObject({ streamId: 'user-2', eventId: taken.id });
    expect(await store.readStream('user-2')).toEqual([]);

    const twice = event('C');
    await expect(store.append('user-3', [twice, { ...twice }], 'no_stream')).rejects.toBeInstanceOf(DuplicateEventIdError);
    expect(await store.readStream('user-3')).toEqual([]);

    // Same stream, but not where a retry would have put it: the stream has moved on, so a conflict.
    await store.append('user-1', [event('D')], 0);
    await expectConflict(store.append('user-1', [{ ...taken }], 0), 'user-1', 0, 1);
    // With "any" it is a retry of the first append; with the current revision the id is taken.
    await expect(store.append('user-1', [{ ...taken }], 'any')).resolves.toEqual({ nextExpectedRevision: 0, position: 1 });
    await expect(store.append('user-1', [{ ...taken }], 1)).rejects.toBeInstanceOf(DuplicateEventIdError);
    expect((await store.readAll({ after: 0, limit: 10 })).map((e) => e.type)).toEqual(['A', 'D']);
  });

  it('a retry with only part of the original ids is not idempotent', async () => {
    const store = openStore();
    const [a, b] = [event('A'), event('B')];
    await store.append('user-1', [a, b], 'no_stream');
    await expectConflict(store.append('user-1', [a, event('C')], 'no_stream'), 'user-1', 'no_stream', 1);
    await expect(store.append('user-1', [b], 'no_stream')).rejects.toBeInstanceOf(WrongExpectedRevisionError);
    expect(await store.append('user-1', [a], 'no_stream')).toEqual({ nextExpectedRevision: 0, position: 1 });
    expect((await store.readStream('user-1')).map((e) => e.type)).toEqual(['A', 'B']);
  });

  it('group commit: each append in a batch keeps its own check and its own all-or-nothing', async () => {
    const store = openStore();
    await store.append('user-1', [event('Opened')], 'no_stream');
    const dup = event('Dup');
    // All made in one tick, so they share one transaction.
    const outcomes = await Promise.allSettled([
      store.append('user-1', [event('A')], 0),
      store.append('user-1', [event('Stale')], 0),
      store.append('user-2', [event('B'), dup, { ...dup }], 'no_stream'),
      store.append('user-1', [event('C'), event('D')], 1),
      store.append('user-2', [event('E')], 'no_stream'),
    ]);
    expect(outcomes.map((o) => o.status)).toEqual(['fulfilled', 'rejected', 'rejected', 'fulfilled', 'fulfilled']);
    expect((outcomes[1] as PromiseRejectedResult).reason).toBeInstanceOf(WrongExpectedRevisionError);
    expect((outcomes[2] as PromiseRejectedResult).reason).toBeInstanceOf(DuplicateEventIdError);
    expect((await store.readStream('user-1')).map((e) => e.type)).toEqual(['Opened', 'A', 'C', 'D']);
    expect((await store.readStream('user-2')).map((e) => e.type)).toEqual(['E']);
    expect((await store.readAll({ after: 0, limit: 10 })).map((e) => e.position)).toEqual([1, 2, 3, 4, 5]);
  });

  it('keeps every event when the file is closed and reopened', async () => {
    const file = newFile();
    const store = openSqliteEventStore(file);
    const events = [event('A', { paise: 100 }, { actor: 'u-1' }), event('B', [1, 'two', null])];
    const result = await store.append('user-1', events, 'no_stream');
    const pending = store.append('user-1', [event('C')], 1); // queued for group commit: close() must write it
    await store.close();
    await expect(pending).resolves.toMatchObject({ nextExpectedRevision: 2 });
    await expect(store.append('user-1', [event('D')], 2)).rejects.toThrow(/closed/);

    const reopened = openStore(file);
    const read = await reopened.readStream('user-1');
    expect(read.map((e) => ({ id: e.id, type: e.type, data: e.data, metadata: e.metadata }))).toEqual([
      { id: events[0]!.id, type: 'A', data: { paise: 100 }, metadata: { actor: 'u-1' } },
      { id: events[1]!.id, type: 'B', data: [1, 'two', null], metadata: {} },
      { id: read[2]!.id, type: 'C', data: {}, metadata: {} },
    ]);
    expect(read[1]!.position).toBe(result.position);
    expect(await reopened.headPosition()).toBe(3);
    expect(await reopened.append('user-1', events, 'no_stream')).toEqual(result); // ids still known
  });

  it('two stores on one file see each other and cannot both win a first append', async () => {
    const file = newFile();
    const [one, two] = [openStore(file), openStore(file)];
    const streamId = stream('shared-file');
    const outcomes = await Promise.allSettled([
      one.append(streamId, [event('FromOne')], 'no_stream'),
      two.append(streamId, [event('FromTwo')], 'no_stream'),
    ]);
    expect(outcomes.filter((o) => o.status === 'fulfilled')).toHaveLength(1);
    expect((await one.readStream(streamId)).map((e) => e.type)).toEqual((await two.readStream(streamId)).map((e) => e.type));
  });

  it('two stores taking turns on one stream: each sees the other\'s appends in its checks and its chain', async () => {
    // A writer remembers each stream's last row between its commits; another connection's commit
    // must make it look again, or it would pass a stale check and chain to a stale hash.
    const file = newFile();
    const [one, two] = [openStore(file), openStore(file)];
    const streamId = stream('turns');
    await one.append(streamId, [event('One0')], 'no_stream');
    await two.append(streamId, [event('Two1')], 0);
    await expectConflict(one.append(streamId, [event('Stale')], 0), streamId, 0, 1);
    await one.append(streamId, [event('One2')], 1);
    await two.append(streamId, [event('Two3')], 2);
    await one.append(streamId, [event('One4'), event('One5')], 3);
    expect((await two.readStream(streamId)).map((e) => e.type)).toEqual(['One0', 'Two1', 'One2', 'Two3', 'One4', 'One5']);
    expect(await verifyChain(one)).toMatchObject({ ok: true, events: 6 });
  });

  for (const [writerThread, label] of [[false, ''], [true, ' (writer threads)']] as const) {
    it(`two OS processes appending to the same streams: nothing lost, nothing doubled, seen live by a subscription${label}`, async () => {
      const file = newFile();
      const store = openStore(file, { pollIntervalMs: 20 });
      const consumer = consume(store.subscribeToAll({ after: 0 }), () => true);

      const workers = ['p1', 'p2'].map((name) => runWorker(file, name, { streams: 3, commands: 40, loops: 4, reservations: 25, writerThread }));
      await Promise.all(workers.map((w) => w.ready));
      for (const w of workers) w.go();
      const outputs = await Promise.all(workers.map((w) => w.exit));

      const messages = outputs.flat();
      const acks = messages.filter((m) => m.kind === 'ack' || m.kind === 'reserved');
      const done = messages.filter((m): m is Extract<WorkerMessage, { kind: 'done' }> => m.kind === 'done');
      expect(done).toHaveLength(2);
      expect(acks.filter((m) => m.kind === 'ack')).toHaveLength(2 * 4 * 40);

      // Every acknowledged append is in the file, at the revision and position it was told.
      const streams = new Map<string, RecordedEvent[]>();
      for (const streamId of new Set(acks.map((a) => a.streamId))) streams.set(streamId, await store.readStream(streamId));
      for (const ack of acks) {
        const read = streams.get(ack.streamId)!;
        const first = ack.result.nextExpectedRevision - ack.ids.length + 1;
        expect(read.slice(first, ack.result.nextExpectedRevision + 1).map((e) => e.id)).toEqual(ack.ids);
        expect(read[ack.result.nextExpectedRevision]!.position).toBe(ack.result.position);
      }
      // Revisions are 0..n-1 per stream and the file holds exactly the acknowledged events.
      for (const read of streams.values()) expect(read.map((e) => e.revision)).toEqual(range(read.length));
      const total = acks.reduce((sum, a) => sum + a.ids.length, 0);
      const all = await store.readAll({ after: 0, limit: 100_000 });
      expect(all).toHaveLength(total);
      expect(all.map((e) => e.position)).toEqual(range(total).map((i) => i + 1));

      // Each reservation stream was won by exactly one process.
      for (let n = 0; n < 25; n++) {
        const winners = acks.filter((a) => a.kind === 'reserved' && a.streamId === `reservation-${n}`);
        expect(winners).toHaveLength(1);
        expect(streams.get(`reservation-${n}`)!.map((e) => e.id)).toEqual(winners[0]!.ids);
      }
      // The processes really raced each other.
      expect(done.reduce((sum, d) => sum + d.conflicts + d.lostReservations, 0)).toBeGreaterThan(0);

      // This process appended nothing, so the subscription saw it all through polling.
      await consumer.waitFor(total, 10_000);
      expect(consumer.events.map((e) => e.id)).toEqual(all.map((e) => e.id));
    });
  }
});

interface Worker {
  ready: Promise<void>;
  go(): void;
  exit: Promise<WorkerMessage[]>;
}

function runWorker(
  file: string,
  name: string,
  o: { streams: number; commands: number; loops: number; reservations: number; writerThread?: boolean },
): Worker {
  const child = spawn(
    tsx,
    [join(here, 'append-worker.ts'), file, name, String(o.streams), String(o.commands), String(o.loops), String(o.reservations)],
    { cwd: here, stdio: ['pipe', 'pipe', 'pipe'], env: { ...process.env, WRITER_THREAD: o.writerThread ? '1' : '' } },
  );
  children.add(child);
  child.on('exit', () => children.delete(child));
  const messages: WorkerMessage[] = [];
  let stdout = '';
  let stderr = '';
  let markReady: () => void = () => {};
  const ready = new Promise<void>((resolve) => (markReady = resolve));
  child.stdout.setEncoding('utf8').on('data', (chunk: string) => {
    stdout += chunk;
    let newline: number;
    while ((newline = stdout.indexOf('\n')) >= 0) {
      const line = stdout.slice(0, newline);
      stdout = stdout.slice(newline + 1);
      const message = JSON.parse(line) as WorkerMessage;
      messages.push(message);
      if (message.kind === 'ready') markReady();
    }
  });
  child.stderr.setEncoding('utf8').on('data', (chunk: string) => (stderr += chunk));
  const exit = new Promise<WorkerMessage[]>((resolve, reject) => {
    child.on('error', reject);
    child.on('exit', (code) => {
      if (code === 0) resolve(messages);
      else reject(new Error(`worker ${name} exited with ${code}: ${stderr}`));
    });
  });
  exit.catch(() => markReady()); // a worker that dies early must not leave the test waiting for "ready"
  return { ready, go: () => child.stdin.end('go\n'), exit };
}
