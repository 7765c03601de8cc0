/**
 * The event-store contract on PostgreSQL (the run's throwaway cluster, postgres-cluster.ts), and what
 * only a shared server can show: a late commit with a lower position, and other nodes' appends
 * signalled through LISTEN/NOTIFY.
 */
import pg from 'pg';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { chainHash, chainRest, verifyChain } from './chain.ts';
import { consume, describeEventStoreContract, event, sleep, stream } from './contract.ts';
import { notifiedStreams, openPostgresEventStore, type PostgresEventStore } from './postgres.ts';
import { createTestDatabase } from './postgres-testing.ts';

let database: Awaited<ReturnType<typeof createTestDatabase>>;
beforeAll(async () => {
  database = await createTestDatabase();
});
afterAll(async () => {
  await database?.drop();
});

describeEventStoreContract('postgres', () => openPostgresEventStore(database.url));

describe('postgres event store', () => {
  const open: PostgresEventStore[] = [];
  const clients: pg.Client[] = [];
  /** A node of its own: a store with its own pool and LISTEN connection. */
  const node = (options?: Parameters<typeof openPostgresEventStore>[1]) => {
    const store = openPostgresEventStore(database.url, options);
    open.push(store);
    return store;
  };
  afterEach(async () => {
    await Promise.all(clients.splice(0).map((client) => client.end().catch(() => {})));
    await Promise.all(open.splice(0).map((store) => store.close()));
  });

  it('a subscriber never skips a late commit with a lower position: it sees both appends, in order, once the earlier one commits', async () => {
    const writer = node();
    const reader = node();
    const early = stream('late-commit-early');
    const late = stream('late-commit-late');
    const before = await reader.headPosition();
    // Let the store create its tables before a raw transaction uses them.
    await writer.append(stream('warm-up'), [event('Opened')], 'no_stream');

    const subscription = reader.subscribeToAll({ after: before });
    const seen = consume(subscription, new Set([early, late]));

    // Transaction 1 runs the store's own append statement inside a transaction that stays open.
    const slow = new pg.Client({ connectionString: database.url });
    clients.push(slow);
    await slow.connect();
    await slow.query('BEGIN');
    const slowEvent = event('Credited', { paise: 100 });
    const data = JSON.stringify(slowEvent.data);
    const begun = await slow.query<{ last_position: string }>('SELECT last_position FROM kamai.append($1, $2, -1, $3, $4, $5, $6, $7)', [
      early,
      JSON.stringify(early),
      [slowEvent.id],
      [slowEvent.type],
      [data],
      ['{}'],
      [chainRest(slowEvent.type, data, '{}')],
    ]);
    const lowPosition = Number(begun.rows[0]!.last_position);

    // Transaction 2, a whole append, takes a higher position and commits first.
    const fast = await writer.append(late, [event('Debited', { paise: 50 })], 'no_stream');
    expect(fast.position).toBeGreaterThan(lowPosition);
    // Committed (a statement of another transaction sees it), though no reader may see it yet.
    const committed = await slow.query<{ position: string }>('SELECT max(position) AS position FROM kamai.events');
    expect(Number(committed.rows[0]!.position)).toBeGreaterThanOrEqual(fast.position);

    // Held back while transaction 1 runs: by the subscription, by readAll and headPosition on another node.
    await sleep(300);
    expect(seen.events).toEqual([]);
    expect((await reader.readAll({ after: before, limit: 100 })).filter((e) => e.streamId === late)).toEqual([]);
    expect(await reader.headPosition()).toBeLessThan(lowPosition);

    await slow.query('COMMIT');
    await seen.waitFor(2, 10_000);
    await sleep(100); // room for a duplicate to show up
    expect(seen.events.map((e) => [e.streamId, e.position])).toEqual([
      [early, lowPosition],
      [late, fast.position],
    ]);
    expect((await reader.readAll({ after: before, limit: 100 })).filter((e) => e.streamId === early || e.streamId === late).map((e) => e.position)).toEqual([
      lowPosition,
      fast.position,
    ]);
    expect((await verifyChain(reader)).failure).toBeNull();
  });

  it("another node's append reaches a waiting subscription through LISTEN/NOTIFY, not the fallback poll", async () => {
    const writer = node();
    const reader = node({ fallbackPollMs: 60_000 });
    const streamId = stream('notified');
    const subscription = reader.subscribeToAll({ after: await reader.headPosition() });
    const seen = consume(subscription, new Set([streamId]));
    await sleep(300); // the subscription is live and waiting, its LISTEN connection open
    const started = Date.now();
    await writer.append(streamId, [event('A')], 'no_stream');
    await seen.waitFor(1, 5_000);
    expect(Date.now() - started).toBeLessThan(5_000);
  });

  it('opens its LISTEN connection again when the server drops it, and misses nothing appended meanwhile', async () => {
    const writer = node();
    const reader = node({ fallbackPollMs: 60_000 });
    const streamId = stream('relisten');
    const seen = consume(reader.subscribeToAll({ after: await reader.headPosition() }), new Set([streamId]));
    await writer.append(streamId, [event('A')], 'no_stream');
    await seen.waitFor(1, 5_000);
    // The server ends every LISTEN connection on this database (a restart or failover looks the same).
    const admin = new pg.Client({ connectionString: database.url });
    clients.push(admin);
    await admin.connect();
    const dropped = await admin.query(
      "SELECT pg_terminate_backend(pid) FROM pg_stat_activity WHERE datname = current_database() AND query LIKE 'LISTEN%' AND pid <> pg_backend_pid()",
    );
    expect(dropped.rowCount).toBeGreaterThan(0);
    await writer.append(streamId, [event('B')], 0);
    await seen.waitFor(2, 5_000);
    await writer.append(streamId, [event('C')], 1);
    await seen.waitFor(3, 5_000);
    expect(seen.events.map((e) => e.type)).toEqual(['A', 'B', 'C']);
  });

  it("signals another node's commits through externalVersion (once its notification arrives), and its own appends through localHead", async () => {
    const mine = node();
    const other = node();
    const [s, t] = [stream('signal-s'), stream('signal-t')];
    await mine.append(stream('signal-warm-up'), [event('Opened')], 'no_stream');
    // Until LISTEN is up nothing says another node wrote: every look is a change.
    await expect.poll(() => mine.externalVersion() === mine.externalVersion(), { timeout: 5_000 }).toBe(true);
    const before = mine.externalVersion();
    const own = await mine.append(s, [event('A')], 'no_stream');
    await mine.append(s, [event('B')], 0);
    // Its own commits (their notifications come back to it too) move localHead, never externalVersion.
    await sleep(200);
    expect(mine.externalVersion()).toBe(before);
    expect(mine.localHead).toBeGreaterThan(own.position);
    expect(mine.localRevisionOf(s)).toBe(1);
    await other.append(t, [event('C')], 'no_stream');
    await expect.poll(() => mine.externalVersion(), { timeout: 5_000 }).not.toBe(before);
    expect(mine.localRevisionOf(t)).toBeUndefined();
    // A dropped LISTEN connection counts as a change (what was notified meanwhile is lost).
    const settled = mine.externalVersion();
    const admin = new pg.Client({ connectionString: database.url });
    clients.push(admin);
    await admin.connect();
    await admin.query("SELECT pg_terminate_backend(pid) FROM pg_stat_activity WHERE datname = current_database() AND query LIKE 'LISTEN%' AND pid <> pg_backend_pid()");
    await expect.poll(() => mine.externalVersion(), { timeout: 5_000 }).not.toBe(settled);
  });

  it("moves a stream's externalVersionOf only when another node appends to that stream, alone or in a batch; a dropped LISTEN moves every stream's", async () => {
    const mine = node();
    const other = node();
    const [untouched, single, batched] = [stream('version-untouched'), stream('version-single'), stream('version-batched')];
    await mine.append(untouched, [event('Opened')], 'no_stream');
    await expect.poll(() => mine.externalVersion() === mine.externalVersion(), { timeout: 5_000 }).toBe(true);
    const before = { untouched: mine.externalVersionOf(untouched), single: mine.externalVersionOf(single), batched: mine.externalVersionOf(batched) };
    await other.append(single, [event('A')], 'no_stream');
    await expect.poll(() => mine.externalVersionOf(single), { timeout: 5_000 }).not.toBe(before.single);
    // Appends in flight together go as one batch, whose notification names every stream in it.
    const crowd = Array.from({ length: 8 }, (_, i) => stream(`version-crowd-${i}`));
    await Promise.all([...crowd, batched].map((streamId) => other.append(streamId, [event('B')], 'no_stream')));
    await expect.poll(() => mine.externalVersionOf(batched), { timeout: 5_000 }).not.toBe(before.batched);
    await sleep(200);
    expect(mine.externalVersionOf(untouched)).toBe(before.untouched);
    const settled = mine.externalVersionOf(untouched);
    const admin = new pg.Client({ connectionString: database.url });
    clients.push(admin);
    await admin.connect();
    await admin.query("SELECT pg_terminate_backend(pid) FROM pg_stat_activity WHERE datname = current_database() AND query LIKE 'LISTEN%' AND pid <> pg_backend_pid()");
    await expect.poll(() => mine.externalVersionOf(untouched), { timeout: 5_000 }).not.toBe(settled);
  });

  it('a batch whose streams would not fit in a notification is appended all the same, and moves every stream', async () => {
    const mine = node();
    const other = node();
    const untouched = stream('version-untouched-long');
    await mine.append(untouched, [event('Opened')], 'no_stream');
    await expect.poll(() => mine.externalVersion() === mine.externalVersion(), { timeout: 5_000 }).toBe(true);
    const before = mine.externalVersionOf(untouched);
    const long = Array.from({ length: 48 }, (_, i) => stream(`${'x'.repeat(250)}-${i}`));
    const results = await Promise.all(long.map((streamId) => other.append(streamId, [event('A')], 'no_stream')));
    expect(results.every((r) => r.nextExpectedRevision === 0)).toBe(true);
    await expect.poll(() => mine.externalVersionOf(untouched), { timeout: 5_000 }).not.toBe(before);
  });

  it('reads the streams a notification names, and takes one that names none (an older node) as any stream', () => {
    expect(notifiedStreams('[12,"user-a","payee-b"]')).toEqual(['user-a', 'payee-b']);
    expect(notifiedStreams('12')).toBeNull();
    expect(notifiedStreams('[12]')).toBeNull();
    expect(notifiedStreams('[12,3]')).toBeNull();
    expect(notifiedStreams(undefined)).toBeNull();
  });

  it('hashes in SQL exactly the bytes chain.ts hashes: non-ASCII text, escapes and quotes, in a batch', async () => {
    const store = node();
    const streamId = stream('chain-\u0924\u0947\u0930\u093e "\\ \u2028');
    const odd = { name: '\u0930\u0941\u092a\u092f\u0947 \u20b9 "quoted" \\ back\nline \u2028 \ud83d\ude00', control: '\u0001' };
    await store.append(streamId, [event('Opened', odd), event('Noted', { n: 2 }, { actor: '\u0905\u0928\u0941' }), event('Noted', odd)], 'no_stream');
    await store.append(streamId, [event('Noted', odd)], 2);
    const chained = (await store.readChain(0, 100_000)).filter((e) => e.streamId === streamId);
    expect(chained.map((e) => e.revision)).toEqual([0, 1, 2, 3]);
    for (const [i, e] of chained.entries()) expect(e.hash).toBe(chainHash(chained[i - 1]?.hash ?? null, e));
    expect((await verifyChain(store)).failure).toBeNull();
  });

  it('subscriptions at one position share one read of the log: the same parsed events, in order, to each', async () => {
    const store = node({ fallbackPollMs: 60_000 });
    const streamId = stream('shared-read');
    const after = await store.headPosition();
    const first = consume(store.subscribeToAll({ after }), new Set([streamId]));
    const second = consume(store.subscribeToAll({ after }), new Set([streamId]));
    await sleep(300); // both caught up and waiting
    await store.append(streamId, [event('A'), event('B')], 'no_stream');
    await first.waitFor(2, 5_000);
    await second.waitFor(2, 5_000);
    expect(first.events.map((e) => e.type)).toEqual(['A', 'B']);
    // One query and one parse: the very same objects reached both.
    expect(second.events[0]).toBe(first.events[0]);
    expect(second.events[1]).toBe(first.events[1]);
    // A subscription that starts later still reads from its own position.
    const late = consume(store.subscribeToAll({ after }), new Set([streamId]));
    await late.waitFor(2, 5_000);
    expect(late.events.map((e) => e.position)).toEqual(first.events.map((e) => e.position));
  });

  it('keeps snapshots, the newer one winning, and lists them', async () => {
    const store = node();
    const streamId = stream('snapshot');
    expect(await store.readSnapshot(streamId)).toBeNull();
    await store.writeSnapshot(streamId, { revision: 5, version: 1, state: { paise: 500, name: 'आशा' } });
    await store.writeSnapshot(streamId, { revision: 3, version: 1, state: { paise: 300 } });
    expect(await store.readSnapshot(streamId)).toEqual({ revision: 5, version: 1, state: { paise: 500, name: 'आशा' } });
    await store.writeSnapshot(streamId, { revision: 2, version: 2, state: { paise: 200 } });
    expect(await store.readSnapshot(streamId)).toEqual({ revision: 2, version: 2, state: { paise: 200 } });
    expect((await store.listSnapshots()).find((s) => s.streamId === streamId)).toEqual({ streamId, revision: 2, version: 2, state: { paise: 200 } });
  });

  it('two nodes racing for one stream: exactly one no_stream append wins, and the loser learns where the stream is', async () => {
    const [a, b] = [node(), node()];
    const streamId = stream('two-nodes');
    const outcomes = await Promise.allSettled([a, b, a, b].map((store) => store.append(streamId, [event('Reserved')], 'no_stream')));
    expect(outcomes.filter((o) => o.status === 'fulfilled')).toHaveLength(1);
    for (const o of outcomes) if (o.status === 'rejected') expect(o.reason).toMatchObject({ name: 'WrongExpectedRevisionError', actual: 0 });
  });
});
