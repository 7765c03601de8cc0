/**
 * The contract every event-store adapter passes: call `describeEventStoreContract(name, factory)`
 * from an adapter's spec file.
 *
 * The factory is called before each test and the store closed after it. Tests never assume they
 * are alone in the store: stream names are unique per test, global reads start from the head
 * position seen at the start of the test and keep only the test's own streams. So the suite also
 * runs against a shared KurrentDB that already holds events.
 */
import { randomUUID } from 'node:crypto';
import { LedgerSigner, chainOf, checkpointsOf, recordCheckpoint, streamHashFor, verifyChain } from './chain.ts';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import {
  WrongExpectedRevisionError,
  capability,
  type AllSubscription,
  type AppendResult,
  type ChainSource,
  type EventMetadata,
  type EventStore,
  type ExpectedRevision,
  type Json,
  type NewEvent,
  type RecordedEvent,
} from '@kamai/domain';

export type EventStoreFactory = () => EventStore | Promise<EventStore>;

export interface EventStoreContractOptions {
  /** How long a subscription may take to deliver what a test waits for, in ms. Default 10,000. */
  deliveryTimeoutMs?: number;
}

export function describeEventStoreContract(
  name: string,
  factory: EventStoreFactory,
  options: EventStoreContractOptions = {},
): void {
  const deliveryTimeoutMs = options.deliveryTimeoutMs ?? 10_000;

  describe(`event store contract: ${name}`, () => {
    let store: EventStore;
    const subscriptions: AllSubscription[] = [];

    beforeEach(async () => {
      store = await factory();
    });
    afterEach(async () => {
      await Promise.all(subscriptions.splice(0).map((subscription) => subscription.close()));
      await store.close();
    });

    /** A subscription that closes after the test even when an assertion fails first. */
    function subscribe(after: number): AllSubscription {
      const subscription = store.subscribeToAll({ after });
      subscriptions.push(subscription);
      return subscription;
    }

    describe('append and read', () => {
      it('reads back what was appended, with revisions, positions, metadata and time', async () => {
        const streamId = stream('round-trip');
        const before = await store.headPosition();
        const events = [
          event('AccountRegistered', { name: 'Asha', paise: 12_500, tags: ['a', 'b'], kyc: null, ok: true }, { actor: 'u-1', causationId: 'c-1' }),
          event('ProfileChanged', 'plain string data'),
        ];
        const result = await store.append(streamId, events, 'no_stream');

        const read = await store.readStream(streamId);
        expect(read.map(summary)).toEqual([
          { id: events[0]!.id, streamId, revision: 0, type: 'AccountRegistered', data: events[0]!.data, metadata: { actor: 'u-1', causationId: 'c-1' } },
          { id: events[1]!.id, streamId, revision: 1, type: 'ProfileChanged', data: 'plain string data', metadata: {} },
        ]);
        expect(result.nextExpectedRevision).toBe(1);
        expect(read[0]!.position).toBeGreaterThan(before);
        expect(read[1]!.position).toBeGreaterThan(read[0]!.position);
        expect(result.position).toBe(read[1]!.position);
        for (const recorded of read) {
          expect(new Date(recorded.recordedAt).toISOString()).toBe(recorded.recordedAt);
          expect(Math.abs(Date.parse(recorded.recordedAt) - Date.now())).toBeLessThan(5 * 60_000);
        }
      });

      it('reads a stream from a revision, and an unknown stream as empty', async () => {
        const streamId = stream('from-revision');
        const events = [event('A'), event('B'), event('C')];
        await store.append(streamId, events, 'no_stream');

        expect((await store.readStream(streamId, { fromRevision: 1 })).map((e) => e.id)).toEqual([events[1]!.id, events[2]!.id]);
        expect(await store.readStream(streamId, { fromRevision: 3 })).toEqual([]);
        expect(await store.readStream(stream('never-written'))).toEqual([]);
        // Paged: at most maxCount events from fromRevision.
        expect((await store.readStream(streamId, { fromRevision: 1, maxCount: 1 })).map((e) => e.id)).toEqual([events[1]!.id]);
        expect((await store.readStream(streamId, { maxCount: 5 })).map((e) => e.revision)).toEqual([0, 1, 2]);
      });

      it('continues revisions across appends; nextExpectedRevision is the last revision', async () => {
        const streamId = stream('revisions');
        const first = await store.append(streamId, [event('A')], 'no_stream');
        const second = await store.append(streamId, [event('B'), event('C')], first.nextExpectedRevision);
        const third = await store.append(streamId, [event('D'), event('E'), event('F')], second.nextExpectedRevision);

        expect([first.nextExpectedRevision, second.nextExpectedRevision, third.nextExpectedRevision]).toEqual([0, 2, 5]);
        expect(first.position).toBeLessThan(second.position);
        expect(second.position).toBeLessThan(third.position);
        const read = await store.readStream(streamId);
        expect(read.map((e) => [e.revision, e.type])).toEqual([
          [0, 'A'], [1, 'B'], [2, 'C'], [3, 'D'], [4, 'E'], [5, 'F'],
        ]);
        expect(read.map((e) => e.position)).toEqual(sortedUnique(read.map((e) => e.position)));
      });
    });

    describe('expected revision', () => {
      it('no_stream: succeeds on a new stream, conflicts on an existing one and writes nothing', async () => {
        const streamId = stream('no-stream');
        await store.append(streamId, [event('A'), event('B')], 'no_stream');
        await expectConflict(store.append(streamId, [event('C'), event('D')], 'no_stream'), streamId, 'no_stream', 1);
        expect((await store.readStream(streamId)).map((e) => e.type)).toEqual(['A', 'B']);
      });

      it('stream_exists: conflicts on a new stream and writes nothing, succeeds on an existing one', async () => {
        const streamId = stream('stream-exists');
        await expectConflict(store.append(streamId, [event('A')], 'stream_exists'), streamId, 'stream_exists', -1);
        expect(await store.readStream(streamId)).toEqual([]);

        await store.append(streamId, [event('B')], 'no_stream');
        const result = await store.append(streamId, [event('C')], 'stream_exists');
        expect(result.nextExpectedRevision).toBe(1);
        expect((await store.readStream(streamId)).map((e) => e.type)).toEqual(['B', 'C']);
      });

      it('any: succeeds whether or not the stream exists', async () => {
        const streamId = stream('any');
        expect((await store.append(streamId, [event('A')], 'any')).nextExpectedRevision).toBe(0);
        expect((await store.append(streamId, [event('B'), event('C')], 'any')).nextExpectedRevision).toBe(2);
        expect((await store.readStream(streamId)).map((e) => e.type)).toEqual(['A', 'B', 'C']);
      });

      it('exact revision: conflicts when the stream is missing or has moved on, and writes nothing', async () => {
        const streamId = stream('exact');
        await expectConflict(store.append(streamId, [event('A')], 0), streamId, 0, -1);
        expect(await store.readStream(streamId)).toEqual([]);

        await store.append(streamId, [event('B'), event('C')], 'no_stream');
        await expectConflict(store.append(streamId, [event('D'), event('E'), event('F')], 0), streamId, 0, 1);
        await expectConflict(store.append(streamId, [event('D')], 5), streamId, 5, 1);
        expect((await store.readStream(streamId)).map((e) => e.type)).toEqual(['B', 'C']);

        expect((await store.append(streamId, [event('G')], 1)).nextExpectedRevision).toBe(2);
      });

      it('a conflicting append leaves no trace in the global order either', async () => {
        const streamId = stream('conflict-global');
        const before = await store.headPosition();
        await store.append(streamId, [event('A')], 'no_stream');
        const rejected = [event('X'), event('Y')];
        await expectConflict(store.append(streamId, rejected, 'no_stream'), streamId, 'no_stream', 0);
        const seen = await readAllOf(store, before, new Set([streamId]));
        expect(seen.map((e) => e.type)).toEqual(['A']);
      });
    });

    describe('concurrency', () => {
      it('first append race on a new stream: exactly one no_stream append wins', async () => {
        const streamId = stream('first-race');
        const attempts = Array.from({ length: 20 }, (_, i) => [event('Reserved', { attempt: i }), event('Confirmed', { attempt: i })]);
        const outcomes = await Promise.allSettled(attempts.map((events) => store.append(streamId, events, 'no_stream')));

        const winners = outcomes.flatMap((outcome, i) => (outcome.status === 'fulfilled' ? [i] : []));
        expect(winners).toHaveLength(1);
        for (const outcome of outcomes) {
          if (outcome.status === 'rejected') {
            expect(outcome.reason).toBeInstanceOf(WrongExpectedRevisionError);
            expect(outcome.reason).toMatchObject({ streamId, expected: 'no_stream', actual: 1 });
          }
        }
        const winner = attempts[winners[0]!]!;
        expect((await store.readStream(streamId)).map((e) => e.id)).toEqual(winner.map((e) => e.id));
      });

      it('exact revision race: exactly one append at a given revision wins', async () => {
        const streamId = stream('exact-race');
        await store.append(streamId, [event('Opened')], 'no_stream');
        const attempts = Array.from({ length: 20 }, (_, i) => [event('Withdrawn', { attempt: i })]);
        const outcomes = await Promise.allSettled(attempts.map((events) => store.append(streamId, events, 0)));

        const winners = outcomes.flatMap((outcome, i) => (outcome.status === 'fulfilled' ? [i] : []));
        expect(winners).toHaveLength(1);
        expect(outcomes.filter((o) => o.status === 'rejected').every((o) => o.reason instanceof WrongExpectedRevisionError)).toBe(true);
        const read = await store.readStream(streamId);
        expect(read.map((e) => e.id)).toEqual([read[0]!.id, attempts[winners[0]!]![0]!.id]);
      });

      it('concurrent "any" appends get distinct revisions, each append contiguous and found where it was acknowledged', async () => {
        const streamId = stream('any-race');
        const attempts = Array.from({ length: 20 }, (_, i) => [event('A', { i }), event('B', { i }), event('C', { i })]);
        const results = await Promise.all(attempts.map((events) => store.append(streamId, events, 'any')));

        const read = await store.readStream(streamId);
        expect(read.map((e) => e.revision)).toEqual(range(60));
        attempts.forEach((events, i) => {
          const result = results[i]!;
          const written = read.slice(result.nextExpectedRevision - 2, result.nextExpectedRevision + 1);
          expect(written.map((e) => e.id)).toEqual(events.map((e) => e.id));
          expect(written[2]!.position).toBe(result.position);
        });
      });

      it('many concurrent appenders with optimistic retries: no acknowledged event lost, no revision doubled', async () => {
        const streamId = stream('appenders');
        const before = await store.headPosition();
        const acknowledged: Array<{ events: NewEvent[]; result: AppendResult }> = [];
        let conflicts = 0;

        async function appender(worker: number): Promise<void> {
          let known = -1;
          for (let command = 0; command < 6; command++) {
            const events = Array.from({ length: 1 + (command % 2) }, () => event('Credited', { worker, command }));
            for (;;) {
              try {
                const result = await store.append(streamId, events, known === -1 ? 'no_stream' : known);
                acknowledged.push({ events, result });
                known = result.nextExpectedRevision;
                break;
              } catch (error) {
                if (!(error instanceof WrongExpectedRevisionError)) throw error;
                conflicts++;
                known = error.actual; // the error says where the stream is: retry from there
              }
            }
          }
        }
        await Promise.all(Array.from({ length: 16 }, (_, worker) => appender(worker)));

        const read = await store.readStream(streamId);
        const total = acknowledged.reduce((sum, ack) => sum + ack.events.length, 0);
        expect(total).toBe(16 * 9);
        expect(read.map((e) => e.revision)).toEqual(range(total));
        expect(new Set(read.map((e) => e.id)).size).toBe(total);
        expect(read.map((e) => e.position)).toEqual(sortedUnique(read.map((e) => e.position)));
        for (const { events, result } of acknowledged) {
          const first = result.nextExpectedRevision - events.length + 1;
          expect(read.slice(first, result.nextExpectedRevision + 1).map((e) => e.id)).toEqual(events.map((e) => e.id));
          expect(read[result.nextExpectedRevision]!.position).toBe(result.position);
        }
        expect(conflicts).toBeGreaterThan(0); // the race really happened
        const global = await readAllOf(store, before, new Set([streamId]));
        expect(global.map((e) => e.id)).toEqual(read.map((e) => e.id));
      });
    });

    describe('idempotent event ids', () => {
      it.each<{ label: string; expected: (last: number) => ExpectedRevision }>([
        { label: 'no_stream', expected: () => 'no_stream' },
        { label: 'an exact revision', expected: (last) => last },
        { label: 'any', expected: () => 'any' },
      ])('a retry of a written append with $label returns the original result and writes nothing', async ({ label, expected }) => {
        const streamId = stream(`retry-${label.replace(/\W+/g, '-')}`);
        const before = await store.headPosition();
        let last = -1;
        if (label !== 'no_stream') last = (await store.append(streamId, [event('Opened')], 'no_stream')).nextExpectedRevision;

        const events = [event('Credited', { paise: 100 }), event('Credited', { paise: 200 })];
        const original = await store.append(streamId, events, expected(last));
        const retried = await store.append(streamId, events, expected(last));
        expect(retried).toEqual(original);

        const read = await store.readStream(streamId);
        expect(read.map((e) => e.type)).toEqual([...(last === -1 ? [] : ['Opened']), 'Credited', 'Credited']);
        expect((await readAllOf(store, before, new Set([streamId]))).length).toBe(read.length);
      });

      it('a retry among concurrent appends (committed together where the adapter groups them) answers as alone, and so do the others', async () => {
        const retriedStream = stream('retry-among-many');
        const events = [event('Opened')];
        // 'any': the retry's events are written again as far as the revision check goes; only their ids stop them.
        const original = await store.append(retriedStream, events, 'any');
        const others = Array.from({ length: 12 }, (_, i) => stream(`beside-a-retry-${i}`));
        const stale = stream('stale-beside-a-retry');
        await store.append(stale, [event('Opened')], 'no_stream');
        // The first append goes at once; the rest arrive while it is in flight.
        const [first, retried, conflict, ...rest] = await Promise.allSettled([
          store.append(others[0]!, [event('Opened')], 'no_stream'),
          store.append(retriedStream, events, 'any'),
          store.append(stale, [event('Late')], 'no_stream'),
          ...others.slice(1).map((streamId) => store.append(streamId, [event('Opened')], 'no_stream')),
        ]);
        expect(retried).toEqual({ status: 'fulfilled', value: original });
        expect(conflict.status === 'rejected' && conflict.reason).toMatchObject({ streamId: stale, expected: 'no_stream', actual: 0 });
        const written = [first, ...rest].map((outcome) => (outcome.status === 'fulfilled' ? outcome.value : null));
        expect(written.every((result) => result?.nextExpectedRevision === 0)).toBe(true);
        for (const [i, streamId] of others.entries()) expect((await store.readStream(streamId)).map((e) => e.position)).toEqual([written[i]!.position]);
        expect(await store.readStream(retriedStream)).toHaveLength(1);
        expect(await store.readStream(stale)).toHaveLength(1);
      });
    });

    describe('readAll and headPosition', () => {
      it('reads events after a position in commit order, in batches of at most limit', async () => {
        const streams = [stream('all-a'), stream('all-b'), stream('all-c')];
        const before = await store.headPosition();
        const appended: string[] = [];
        const last = new Map<string, number>();
        for (let i = 0; i < 10; i++) {
          const streamId = streams[i % 3]!;
          const events = [event('E', { i })];
          const result = await store.append(streamId, events, last.get(streamId) ?? 'no_stream');
          last.set(streamId, result.nextExpectedRevision);
          appended.push(events[0]!.id);
        }

        const mine = new Set(streams);
        const seen: RecordedEvent[] = [];
        let after = before;
        for (let page = 0; page < 1000; page++) {
          const batch = await store.readAll({ after, limit: 3 });
          expect(batch.length).toBeLessThanOrEqual(3);
          if (batch.length === 0) break;
          for (const recorded of batch) {
            expect(recorded.position).toBeGreaterThan(after);
            after = recorded.position;
          }
          seen.push(...batch.filter((e) => mine.has(e.streamId)));
        }
        expect(seen.map((e) => e.id)).toEqual(appended);
        expect(seen.map((e) => e.position)).toEqual(sortedUnique(seen.map((e) => e.position)));

        const fromMiddle = await readAllOf(store, seen[4]!.position, mine);
        expect(fromMiddle.map((e) => e.id)).toEqual(appended.slice(5));
      });

      it('headPosition is at least the position of the last acknowledged append, and nothing of ours lies beyond it', async () => {
        const streamId = stream('head');
        const before = await store.headPosition();
        expect(before).toBeGreaterThanOrEqual(0);
        const result = await store.append(streamId, [event('A'), event('B')], 'no_stream');
        const head = await store.headPosition();
        expect(result.position).toBeGreaterThan(before);
        expect(head).toBeGreaterThanOrEqual(result.position);
        expect(await readAllOf(store, result.position, new Set([streamId]))).toEqual([]);
        expect(await readAllOf(store, head, new Set([streamId]))).toEqual([]);
      });
    });

    describe('subscribeToAll', () => {
      it('catches up, then goes live: every event once, in order', async () => {
        const streams = [stream('sub-a'), stream('sub-b')];
        const before = await store.headPosition();
        const expected: string[] = [];
        const last = new Map<string, number>();
        async function write(i: number): Promise<void> {
          const streamId = streams[i % 2]!;
          const events = [event('E', { i })];
          const result = await store.append(streamId, events, last.get(streamId) ?? 'no_stream');
          last.set(streamId, result.nextExpectedRevision);
          expected.push(events[0]!.id);
        }
        for (let i = 0; i < 5; i++) await write(i);

        const consumer = consume(subscribe(before), new Set(streams));
        await consumer.waitFor(5, deliveryTimeoutMs);
        for (let i = 5; i < 10; i++) await write(i);
        await consumer.waitFor(10, deliveryTimeoutMs);
        await sleep(150); // room for a duplicate to show up
        expect(consumer.events.map((e) => e.id)).toEqual(expected);
        expect(consumer.events.map((e) => e.position)).toEqual(sortedUnique(consumer.events.map((e) => e.position)));
      });

      it('starts strictly after the given position', async () => {
        const streamId = stream('sub-after');
        const events = [event('A'), event('B'), event('C'), event('D')];
        await store.append(streamId, events.slice(0, 2), 'no_stream');
        await store.append(streamId, events.slice(2), 1);
        const read = await store.readStream(streamId);

        const consumer = consume(subscribe(read[1]!.position), new Set([streamId]));
        await consumer.waitFor(2, deliveryTimeoutMs);
        await sleep(100);
        expect(consumer.events.map((e) => e.type)).toEqual(['C', 'D']);
      });

      it('a multi-event append is seen whole, in order, by catch-up, by a live subscription and by readAll', async () => {
        const streamId = stream('sub-whole');
        const before = await store.headPosition();
        const first = [event('A'), event('B'), event('C'), event('D'), event('E')];
        const firstResult = await store.append(streamId, first, 'no_stream');

        // Catch-up: the append is already stored when the subscription starts.
        const catchUp = consume(subscribe(before), new Set([streamId]));
        await catchUp.waitFor(5, deliveryTimeoutMs);
        // Live: a second multi-event append arrives while both subscriptions wait.
        const live = consume(subscribe(await store.headPosition()), new Set([streamId]));
        await sleep(100);
        const second = [event('F'), event('G'), event('H')];
        const secondResult = await store.append(streamId, second, firstResult.nextExpectedRevision);
        await catchUp.waitFor(8, deliveryTimeoutMs);
        await live.waitFor(3, deliveryTimeoutMs);
        await sleep(150); // room for a duplicate to show up
        const ids = [...first, ...second].map((e) => e.id);
        expect(catchUp.events.map((e) => e.id)).toEqual(ids);
        expect(live.events.map((e) => e.id)).toEqual(second.map((e) => e.id));
        // Every event has its own position, increasing; each append's answer is its last event's.
        const positions = catchUp.events.map((e) => e.position);
        expect(positions).toEqual(sortedUnique(positions));
        expect(firstResult.position).toBe(positions[4]);
        expect(secondResult.position).toBe(positions[7]);
        // Resuming after any event of an append, mid-append included, yields exactly the rest.
        for (let k = 0; k < 8; k++) {
          const rest = (await readAllOf(store, positions[k]!, new Set([streamId]))).map((e) => e.id);
          expect(rest, `after event ${k}`).toEqual(ids.slice(k + 1));
          const resumed = consume(subscribe(positions[k]!), new Set([streamId]));
          if (k < 7) await resumed.waitFor(7 - k, deliveryTimeoutMs);
          await sleep(50);
          expect(resumed.events.map((e) => e.id), `subscription after event ${k}`).toEqual(ids.slice(k + 1));
        }
        // readAll in batches that end inside an append loses nothing either.
        const paged: string[] = [];
        let after = before;
        for (;;) {
          const batch = await store.readAll({ after, limit: 2 });
          if (batch.length === 0) break;
          paged.push(...batch.filter((e) => e.streamId === streamId).map((e) => e.id));
          after = batch.at(-1)!.position;
        }
        expect(paged).toEqual(ids);
      });

      it('misses nothing appended while it catches up', async () => {
        const streams = [stream('sub-busy-a'), stream('sub-busy-b'), stream('sub-busy-c')];
        const before = await store.headPosition();
        await Promise.all(streams.map((streamId) => store.append(streamId, [event('Opened')], 'no_stream')));

        const consumer = consume(subscribe(before), new Set(streams));
        // Three writers keep appending while the subscription reads the backlog and turns live.
        await Promise.all(
          streams.map(async (streamId) => {
            let revision = 0;
            for (let i = 0; i < 15; i++) {
              revision = (await store.append(streamId, [event('E', { i }), event('F', { i })], revision)).nextExpectedRevision;
              if (i % 5 === 0) await sleep(5);
            }
          }),
        );
        const expected = await readAllOf(store, before, new Set(streams));
        expect(expected).toHaveLength(3 * 31);
        await consumer.waitFor(expected.length, deliveryTimeoutMs);
        await sleep(150);
        expect(consumer.events.map((e) => e.id)).toEqual(expected.map((e) => e.id));
      });

      it('close() promptly ends a for-await loop that is waiting for events', async () => {
        const streamId = stream('sub-close');
        const before = await store.headPosition();
        await store.append(streamId, [event('A')], 'no_stream');
        const subscription = subscribe(before);
        const consumer = consume(subscription, new Set([streamId]));
        await consumer.waitFor(1, deliveryTimeoutMs);
        await sleep(100); // now idle and live

        const started = Date.now();
        await subscription.close();
        await withTimeout(consumer.done, 2_000, 'the for-await loop did not end after close()');
        expect(Date.now() - started).toBeLessThan(2_000);
        expect(consumer.events.map((e) => e.type)).toEqual(['A']);
      });

      it('close() before iterating gives a loop that ends at once', async () => {
        const subscription = subscribe(await store.headPosition());
        await subscription.close();
        const consumer = consume(subscription, () => true);
        await withTimeout(consumer.done, 2_000, 'the for-await loop did not end after close()');
        expect(consumer.events).toEqual([]);
      });
    });

    describe('capabilities', () => {
      it('snapshots, when offered: the newest revision is kept, an older one never replaces it, and every one is listed', async () => {
        const snapshots = capability(store, 'snapshots');
        if (!snapshots) return; // KurrentDB keeps none: streams fold from their first event
        const streamId = stream('snapshot');
        // Snapshots of events that exist: a sealing store binds each to its event's chain hash.
        await store.append(streamId, Array.from({ length: 10 }, (_, i) => event('Counted', { i })), 'no_stream');
        expect(await snapshots.readSnapshot(streamId)).toBeNull();
        await snapshots.writeSnapshot(streamId, { revision: 5, version: 1, state: { balance: 500 } });
        await snapshots.writeSnapshot(streamId, { revision: 3, version: 1, state: { balance: 300 } });
        expect(await snapshots.readSnapshot(streamId)).toEqual({ revision: 5, version: 1, state: { balance: 500 } });
        await snapshots.writeSnapshot(streamId, { revision: 9, version: 1, state: { balance: 900, tags: ['a'] } });
        expect(await snapshots.readSnapshot(streamId)).toEqual({ revision: 9, version: 1, state: { balance: 900, tags: ['a'] } });
        // Listed as kept (a sealing store lists them sealed).
        expect((await snapshots.listSnapshots()).filter((kept) => kept.streamId === streamId).map(({ state: _, ...kept }) => kept)).toEqual([{ streamId, revision: 9, version: 1 }]);
      });
    });

    describe('tamper evidence (chain.ts)', () => {
      it('chains every appended event to its stream’s previous one and keeps each stream’s head (or the log’s end)', async () => {
        const chain = chainOf(store);
        const a = stream('chain-a');
        const b = stream('chain-b');
        await store.append(a, [event('Opened', { n: 1 }), event('Credited', { paise: 500 })], 'no_stream');
        await store.append(b, [event('Opened', { n: 2 })], 'no_stream');
        await store.append(a, [event('Debited', { paise: 200 }, { actor: 'finance-1' })], 1);
        const chained = (await chain.readChain(0, 100_000)).filter((e) => e.streamId === a);
        expect(chained.map((e) => e.revision)).toEqual([0, 1, 2]);
        expect(chained[0]?.prevHash).toBeNull();
        for (const [i, e] of chained.entries()) {
          expect(e.hash).toBe(streamHashFor(e.hash ?? '', i === 0 ? null : (chained[i - 1]?.hash ?? null), e));
          // A store that keeps the previous hash beside each row keeps the right one (the embedded store keeps none: the hash covers it).
          if (i > 0 && e.prevHash !== null) expect(e.prevHash).toBe(chained[i - 1]?.hash);
        }
        const heads = await chain.chainHeads();
        if (heads) expect(heads.find((h) => h.streamId === a)).toEqual({ streamId: a, revision: 2, hash: chained[2]?.hash });
        // A store that keeps no heads records the log's end, here the stream's last append.
        else expect(await chain.recordedLogEnd?.()).toMatchObject({ streamId: a, revision: 2, position: chained[2]?.position });
        expect(await chain.positionOf(a, 1)).toBe(chained[1]?.position);
        const verdict = await verifyChain(store);
        expect(verdict.failure).toBeNull();
        expect(verdict.ok).toBe(true);
      });

      it('runs a chain through the whole log and keeps signed checkpoints of its head', async () => {
        const checkpoints = checkpointsOf(store);
        const key = Buffer.from('the contract suite’s ledger signing key, 32+ characters');
        await store.append(stream('log-chain'), [event('Opened'), event('Credited', { paise: 100 })], 'no_stream');
        const head = await checkpoints.logHead();
        expect(head?.position).toBeGreaterThanOrEqual(await store.headPosition());
        expect(head?.hash).toMatch(/^[0-9a-f]{64}$/);
        const signed = await recordCheckpoint(store, key, new Date());
        expect(signed).toMatchObject({ position: head?.position, hash: head?.hash });
        expect((await checkpoints.listCheckpoints()).some((c) => c.position === signed?.position && c.mac === signed?.mac)).toBe(true);
        // The checkpoint is no event: the port's readers never see it.
        expect((await store.readAll({ after: head?.position ?? 0, limit: 1000 })).filter((e) => e.type === 'LedgerCheckpointed')).toEqual([]);
        const verdict = await verifyChain(store, { signingKey: key, head: { ...head!, mac: signed!.mac } });
        expect(verdict.failure).toBeNull();
        expect(verdict.checkpoints.count).toBeGreaterThanOrEqual(1);
      });

      it("a server's signer goes on from the newest checkpoint and signs the head a whole walk computes; its audit of the log before passes", async () => {
        const key = Buffer.from('the contract suite’s ledger signing key, 32+ characters');
        const earlier = stream('signer-earlier');
        await store.append(earlier, [event('Opened')], 'no_stream');
        const first = await recordCheckpoint(store, key, new Date());
        await store.append(earlier, [event('Credited', { paise: 100 })], 0);
        await store.append(stream('signer-later'), [event('Opened')], 'no_stream');
        const signer = new LedgerSigner(store, key, null, 'newest checkpoint');
        const signed = await signer.sign(new Date());
        expect(signer.walked).toBe(2);
        const whole = await verifyChain(store, { signingKey: key });
        expect(signed).toMatchObject({ position: whole.headPosition, hash: whole.headHash });
        expect(signed!.position).toBeGreaterThan(first!.position);
        while (await signer.audit());
        expect(signer.refusal).toBeNull();
      });

      it('verifies a log appended to while it is walked: heads or an end recorded after the walk stopped are walked on to', async () => {
        const chain = chainOf(store);
        const a = stream('live-verify');
        // Appends land just before the heads (or the log's end) are read, twice: as another process,
        // node or writer thread can, between the walk's last page and that read.
        let landed = 0;
        const landFirst = async () => {
          if (landed < 2) await store.append(a, [event('Credited', { paise: 1 })], landed++ === 0 ? 'no_stream' : 0);
        };
        const racing: ChainSource = {
          readChain: (after, limit) => chain.readChain(after, limit),
          positionOf: (streamId, revision) => chain.positionOf(streamId, revision),
          chainHeads: async () => {
            const heads = await chain.chainHeads();
            if (heads === null) return null;
            await landFirst();
            return chain.chainHeads();
          },
          ...(chain.recordedLogEnd && {
            recordedLogEnd: async () => {
              await landFirst();
              return chain.recordedLogEnd!();
            },
          }),
        };
        const live = { capabilities: { ...store.capabilities, chain: racing } } as EventStore;
        const verdict = await verifyChain(live);
        expect(verdict.failure).toBeNull();
        expect(landed).toBe(2);
        expect((await chain.readChain(0, 1_000_000)).filter((e) => e.streamId === a).map((e) => e.revision)).toEqual([0, 1]);
      });
    });
  });
}

// ---- helpers, exported for adapter-specific specs ----

/** A stream name no other test or run uses. */
export function stream(kind: string): string {
  return `contract-${kind}-${randomUUID()}`;
}

export function event(type: string, data: Json = {}, metadata?: EventMetadata): NewEvent {
  return metadata ? { id: randomUUID(), type, data, metadata } : { id: randomUUID(), type, data };
}

export async function expectConflict(
  promise: Promise<unknown>,
  streamId: string,
  expected: ExpectedRevision,
  actual: number,
): Promise<void> {
  const error = await promise.then(
    () => undefined,
    (reason: unknown) => reason,
  );
  expect(error).toBeInstanceOf(WrongExpectedRevisionError);
  expect(error).toMatchObject({ streamId, expected, actual });
}

/** Every event of the given streams after `after`, read through readAll in pages. */
async function readAllOf(store: EventStore, after: number, streams: ReadonlySet<string>): Promise<RecordedEvent[]> {
  const found: RecordedEvent[] = [];
  for (;;) {
    const batch = await store.readAll({ after, limit: 500 });
    if (batch.length === 0) return found;
    found.push(...batch.filter((e) => streams.has(e.streamId)));
    after = batch[batch.length - 1]!.position;
  }
}

export interface Consumer {
  /** What the loop kept so far, in delivery order. */
  readonly events: RecordedEvent[];
  /** Resolves once `count` events were kept; rejects on timeout or when the loop failed. */
  waitFor(count: number, timeoutMs: number): Promise<void>;
  /** Settles when the for-await loop ends. */
  readonly done: Promise<void>;
}

/** Runs a for-await loop over a subscription in the background, keeping the events that match. */
export function consume(
  subscription: AsyncIterable<RecordedEvent>,
  keep: ReadonlySet<string> | ((event: RecordedEvent) => boolean),
): Consumer {
  const events: RecordedEvent[] = [];
  const matches = typeof keep === 'function' ? keep : (e: RecordedEvent) => keep.has(e.streamId);
  let failure: unknown;
  let ended = false;
  const done = (async () => {
    try {
      for await (const recorded of subscription) if (matches(recorded)) events.push(recorded);
    } catch (error) {
      failure = error;
      throw error;
    } finally {
      ended = true;
    }
  })();
  done.catch(() => {}); // reported through waitFor and by whoever awaits done
  return {
    events,
    done,
    async waitFor(count, timeoutMs) {
      const deadline = Date.now() + timeoutMs;
      while (events.length < count) {
        if (failure !== undefined) throw failure;
        if (ended) throw new Error(`the subscription ended after ${events.length} of ${count} events`);
        if (Date.now() > deadline) throw new Error(`timed out with ${events.length} of ${count} events delivered`);
        await sleep(10);
      }
    },
  };
}

export function sleep(ms: number): Promise<void> {
  return new Promise((resolve) => setTimeout(resolve, ms));
}

export async function withTimeout<T>(promise: Promise<T>, ms: number, message: string): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  try {
    return await Promise.race([
      promise,
      new Promise<never>((_, reject) => {
        timer = setTimeout(() => reject(new Error(message)), ms);
      }),
    ]);
  } finally {
    clearTimeout(timer);
  }
}

export function range(n: number): number[] {
  return Array.from({ length: n }, (_, i) => i);
}

function sortedUnique(values: number[]): number[] {
  return [...new Set(values)].sort((a, b) => a - b);
}

function summary(e: RecordedEvent) {
  return { id: e.id, streamId: e.streamId, revision: e.revision, type: e.type, data: e.data, metadata: e.metadata };
}
