/**
 * The event-store contract on PostgreSQL (the run's throwaway cluster, postgres-cluster.ts), and what
 * only a shared server can show: a late commit with a lower position, and other nodes' appends
 * signalled through LISTEN/NOTIFY.
 */
import pg from 'pg';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { chainHash, verifyChain } from './chain.ts';
import { consume, describeEventStoreContract, event, sleep, stream } from './contract.ts';
import { openPostgresEventStore, type PostgresEventStore } from './postgres.ts';
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

    // Transaction 1 takes its position the way the store's append does, and stays open.
    const slow = new pg.Client({ connectionString: database.url });
    clients.push(slow);
    await slow.connect();
    await slow.query('BEGIN');
    const begun = await slow.query<{ first_position: string }>('SELECT first_position FROM kamai.begin_append($1, 1)', [early]);
    const lowPosition = Number(begun.rows[0]!.first_position);
    const slowEvent = event('Credited', { paise: 100 });
    const data = JSON.stringify(slowEvent.data);
    const hash = chainHash(null, { streamId: early, revision: 0, type: slowEvent.type, data, metadata: '{}' });
    await slow.query(
      `INSERT INTO kamai.events (position, transaction_id, event_id, stream_id, revision, type, data, metadata, recorded_at, hash, prev_hash)
       VALUES ($1, pg_current_xact_id(), $2, $3, 0, $4, $5::json, '{}', now(), $6, NULL)`,
      [lowPosition, slowEvent.id, early, slowEvent.type, data, hash],
    );
    await slow.query(`INSERT INTO kamai.streams (stream_id, revision, hash, position, transaction_id) VALUES ($1, 0, $2, $3, pg_current_xact_id())`, [early, hash, lowPosition]);

    // Transaction 2, a whole append, takes a higher position and commits first.
    const fast = await writer.append(late, [event('Debited', { paise: 50 })], 'no_stream');
    expect(fast.position).toBeGreaterThan(lowPosition);
    expect((await writer.committedHead()) >= fast.position).toBe(true);

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
