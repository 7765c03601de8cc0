import { randomUUID } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, afterEach, describe, expect, it } from 'vitest';
import { EventContractError, SCHEMA_VERSION_KEY, type UserEvent, streams } from '@kamai/contracts';
import { type Decider, DomainError, type EventStore, type Json, type NewEvent, type StreamSnapshot, type UserCommand, type UserState, fold, userDecider, userSnapshot } from '@kamai/domain';
import { openSqliteEventStore, type SqliteEventStore } from '../event-store/sqlite.ts';
import { meteredStore } from '../observability/index.ts';
import { SNAPSHOT_EVERY, StreamStateCache, handleCommand, loadStream, streamStateCache } from './handle.ts';

const dir = mkdtempSync(join(tmpdir(), 'kamai-handle-'));
let files = 0;
const open: SqliteEventStore[] = [];
const openStore = (file = join(dir, `events-${++files}.sqlite`)) => {
  const store = openSqliteEventStore(file);
  open.push(store);
  return { store, file };
};
afterEach(async () => {
  await Promise.all(open.splice(0).map((store) => store.close()));
});
afterAll(() => rmSync(dir, { recursive: true, force: true }));

/** The store, counting what each readStream call asked for and got back. */
function counting(store: EventStore) {
  const reads: { fromRevision: number | undefined; returned: number }[] = [];
  const wrapped: EventStore = Object.create(store) as EventStore;
  wrapped.readStream = async (streamId, options) => {
    const events = await store.readStream(streamId, options);
    reads.push({ fromRevision: options?.fromRevision, returned: events.length });
    return events;
  };
  wrapped.append = store.append.bind(store);
  // Its capabilities (snapshots, the change signal) are the store's own, inherited: one view of one log.
  return { store: wrapped, reads };
}

const now = '2026-11-23T10:00:00.000Z';
const userId = 'u-1';
const stream = streams.user(userId);
let ids = 0;
const id = (prefix: string) => `${prefix}-${++ids}`;
const register: UserCommand = {
  type: 'RegisterUser',
  data: { userId, mobile: '9876543210', passwordHash: 'h', firstName: 'Asha', lastName: 'Rao' },
  now,
};
const credit = (amountPaise: number): UserCommand => ({
  type: 'AdjustWallet',
  data: { entryId: id('e'), notificationId: id('n'), amountPaise, direction: 'credit', reason: 'test', by: 'fin-1' },
  now,
});
const withdraw = (amountPaise: number): UserCommand => ({
  type: 'RequestWithdrawal',
  data: { withdrawalId: id('w'), entryId: id('e'), notificationId: id('n'), amountPaise, destination: { kind: 'upi', upiId: 'asha@okhdfc' } },
  now,
});

/** The state a fresh fold of the whole stream gives, to compare the cache with. */
async function freshFold(store: EventStore): Promise<UserState> {
  const { eventCodec } = await import('@kamai/contracts');
  const events = (await store.readStream(stream)).map((e) => eventCodec.decode(e) as UserEvent);
  return fold(userDecider, events);
}

describe('command handler: decision state cached per stream', () => {
  it('folds only the events after the cached revision, including another process\'s appends', async () => {
    const { store: raw, file } = openStore();
    const { store, reads } = counting(raw);
    await handleCommand(store, stream, userDecider, register);
    await handleCommand(store, stream, userDecider, credit(50_000));
    await handleCommand(store, stream, userDecider, withdraw(10_000));
    // The first command read the (empty) stream from the start. Later ones read nothing: the
    // store's change signal says no other process committed and this one appended only through
    // the handler, which folded its own events.
    expect(reads).toEqual([{ fromRevision: 0, returned: 0 }]);
    expect(streamStateCache(store).revisionOf(stream)).toBe(5);

    // A second "process" on the same file appends; the next command reads just that.
    const { store: other } = openStore(file);
    await handleCommand(other, stream, userDecider, credit(1_000));
    const decided = await handleCommand(store, stream, userDecider, withdraw(20_000), {}, { view: structuredClone });
    expect(reads.at(-1)).toEqual({ fromRevision: 6, returned: 2 });
    expect(decided.view.wallet.balance).toBe(50_000 - 10_000 + 1_000 - 20_000);
    expect(decided.view).toEqual(await freshFold(raw));
  });

  it('keeps one cache per view of a log: a proxy of the store shares it unasked, another store of the same file does not', async () => {
    const { store, file } = openStore();
    const metered = meteredStore(store);
    await handleCommand(metered, stream, userDecider, register);
    // Decided through the proxy, cached for the store: a command through the store itself reads nothing.
    expect(streamStateCache(store).revisionOf(stream)).toBe(0);
    expect(streamStateCache(metered)).toBe(streamStateCache(store));
    const { store: other } = openStore(file);
    expect(streamStateCache(other)).not.toBe(streamStateCache(store));
    expect(streamStateCache(other).revisionOf(stream)).toBeUndefined();
  });

  it('reads the stream again after an append of this process that did not go through the handler', async () => {
    const { store: raw } = openStore();
    const { store, reads } = counting(raw);
    await handleCommand(store, stream, userDecider, register);
    await handleCommand(store, stream, userDecider, credit(50_000));
    // Same process, same store, straight to the store (as a test or a migration might).
    const direct = await raw.readStream(stream);
    const { nextExpectedRevision } = await raw.append(stream, [{ id: randomUUID(), type: 'WalletDebited', data: { entryId: id('e'), amountPaise: 5_000, kind: 'adjustment', params: { reason: 'r' }, debitedAt: now } as Json, metadata: { schemaVersion: 2 } }], direct.length - 1);
    const decided = await handleCommand(store, stream, userDecider, withdraw(10_000), {}, { view: structuredClone });
    expect(reads.at(-1)).toEqual({ fromRevision: nextExpectedRevision, returned: 1 });
    expect(decided.view).toEqual(await freshFold(raw));
  });

  it('records the schema version in every appended event\'s metadata', async () => {
    const { store } = openStore();
    await handleCommand(store, stream, userDecider, register, { actor: userId });
    await handleCommand(store, stream, userDecider, credit(2_500), { actor: 'fin-1' });
    const recorded = await store.readStream(stream);
    expect(recorded.map((e) => [e.type, e.metadata[SCHEMA_VERSION_KEY], e.metadata.actor])).toEqual([
      ['UserRegistered', 1, userId],
      ['WalletCredited', 2, 'fin-1'],
      ['NotificationSent', 2, 'fin-1'],
    ]);
  });

  it('names appended events with time-ordered ids (UUID version 7), each one after the last', async () => {
    const { store } = openStore();
    await handleCommand(store, stream, userDecider, register, { actor: userId });
    for (let i = 0; i < 5; i++) await handleCommand(store, stream, userDecider, credit(100), { actor: 'fin-1' });
    const ids = (await store.readStream(stream)).map((e) => e.id);
    expect(ids).toHaveLength(11);
    for (const eventId of ids) expect(eventId).toMatch(/^[0-9a-f]{8}-[0-9a-f]{4}-7[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/);
    // In the order they were appended: the event-id index grows at its end.
    expect([...ids].sort()).toEqual(ids);
  });

  it('a refused decision leaves the cached state as it was', async () => {
    const { store } = openStore();
    await handleCommand(store, stream, userDecider, register);
    await handleCommand(store, stream, userDecider, credit(15_000));
    const before = streamStateCache(store).revisionOf(stream);
    await expect(handleCommand(store, stream, userDecider, withdraw(20_000))).rejects.toMatchObject({ code: 'insufficient_balance' });
    await expect(handleCommand(store, stream, userDecider, withdraw(50))).rejects.toBeInstanceOf(DomainError);
    expect(streamStateCache(store).revisionOf(stream)).toBe(before);
    const { state } = await loadStream(store, stream, userDecider);
    expect(state).toEqual(await freshFold(store));
    expect(state.wallet.balance).toBe(15_000);
    expect(state.withdrawals.byId.size).toBe(0);
    // And the next good command decides on the right balance.
    const decided = await handleCommand(store, stream, userDecider, withdraw(15_000), {}, { view: structuredClone });
    expect(decided.view.wallet.balance).toBe(0);
  });

  it('an event that breaks its contract fails the command, is never stored, and leaves the cache alone', async () => {
    const { store } = openStore();
    await handleCommand(store, stream, userDecider, register);
    await handleCommand(store, stream, userDecider, credit(5_000));
    const broken: Decider<UserState, UserCommand, UserEvent> = {
      ...userDecider,
      // A bug: a debit of a negative amount, past the decider's own checks.
      decide: (command, state) => [
        ...userDecider.decide(command, state),
        { type: 'WalletDebited', data: { entryId: 'bad', amountPaise: -100, kind: 'adjustment', debitedAt: now } },
      ],
    };
    await expect(handleCommand(store, stream, broken, credit(1_000))).rejects.toBeInstanceOf(EventContractError);
    expect((await store.readStream(stream)).length).toBe(3);
    const { state, revision } = await loadStream(store, stream, userDecider);
    expect(revision).toBe(2);
    expect(state.wallet.balance).toBe(5_000);
  });

  it('concurrent commands of one process on one stream: exactly what the balance covers, and the cache matches a fresh fold', async () => {
    const { store } = openStore();
    await handleCommand(store, stream, userDecider, register);
    await handleCommand(store, stream, userDecider, credit(50_000));
    const results = await Promise.allSettled(Array.from({ length: 12 }, () => handleCommand(store, stream, userDecider, withdraw(10_000))));
    expect(results.filter((r) => r.status === 'fulfilled')).toHaveLength(5);
    for (const r of results) if (r.status === 'rejected') expect(r.reason).toMatchObject({ code: 'insufficient_balance' });
    const { state } = await loadStream(store, stream, userDecider);
    expect(state.wallet.balance).toBe(0);
    expect(state).toEqual(await freshFold(store));
  });

  it('two stores on one file racing (two processes): money moves exactly once', async () => {
    const { store: a, file } = openStore();
    const { store: b } = openStore(file);
    await handleCommand(a, stream, userDecider, register);
    await handleCommand(b, stream, userDecider, credit(30_000));
    const results = await Promise.allSettled(
      Array.from({ length: 10 }, (_, i) => handleCommand(i % 2 ? a : b, stream, userDecider, withdraw(10_000))),
    );
    expect(results.filter((r) => r.status === 'fulfilled')).toHaveLength(3);
    for (const store of [a, b]) {
      const { state } = await loadStream(store, stream, userDecider);
      expect(state.wallet.balance).toBe(0);
      expect(state).toEqual(await freshFold(store));
    }
  });

  it('the LRU keeps at most its bound of streams, dropping the least recently used', () => {
    const cache = new StreamStateCache(2);
    const entry = () => ({ evolve: (s: unknown) => s, state: {}, revision: 0, snapshotRevision: -1, readAtVersion: -1, readAtEpoch: -1 });
    cache.set('a', entry());
    cache.set('b', entry());
    cache.get('a');
    cache.set('c', entry());
    expect(cache.size).toBe(2);
    expect(cache.revisionOf('a')).toBe(0);
    expect(cache.revisionOf('b')).toBeUndefined();
    expect(cache.revisionOf('c')).toBe(0);
  });

  it('keeps a snapshot of a long stream, and a cold start reads only the events after it', async () => {
    const { store, file } = openStore();
    await handleCommand(store, stream, userDecider, register);
    // Grow the stream past the snapshot interval, behind the handler's back (as another process would).
    let revision = 0;
    for (let batch = 0; batch < 3; batch++) {
      const events: NewEvent[] = Array.from({ length: 500 }, (_, i) => ({
        id: crypto.randomUUID(),
        type: i % 2 ? 'NotificationSent' : 'WalletCredited',
        data: (i % 2
            ? { notificationId: `n-${batch}-${i}`, key: 'wallet_credited', params: { amountPaise: 100, reason: 'r' }, kind: 'success', sentAt: now }
            : { entryId: `e-${batch}-${i}`, amountPaise: 100, kind: 'adjustment', params: { reason: 'r' }, creditedAt: now }) as Json,
        metadata: { schemaVersion: 2 },
      }));
      revision = (await store.append(stream, events, revision)).nextExpectedRevision;
    }
    // The catch-up over 1,501 events (the cache forgotten first: a wrapper shares its store's) reads them in pages.
    streamStateCache(store).clear();
    const paged = counting(store);
    await handleCommand(paged.store, stream, userDecider, withdraw(10_000));
    expect(paged.reads).toEqual([
      { fromRevision: 0, returned: 500 },
      { fromRevision: 500, returned: 500 },
      { fromRevision: 1_000, returned: 500 },
      { fromRevision: 1_500, returned: 1 },
    ]);
    const kept = await store.capabilities.snapshots!.readSnapshot(stream);
    expect(kept?.version).toBe(userSnapshot.version);
    expect(kept?.revision).toBeGreaterThanOrEqual(SNAPSHOT_EVERY);

    // A new process on the same file: starts from the snapshot, reads only what came after it.
    const { store: rawCold } = openStore(file);
    const { store: cold, reads } = counting(rawCold);
    const { state } = await loadStream(cold, stream, userDecider);
    expect(reads).toEqual([{ fromRevision: (kept?.revision ?? 0) + 1, returned: revision + 3 - (kept?.revision ?? 0) }]);
    expect(state).toEqual(await freshFold(rawCold));
    expect(state.wallet.balance).toBe(750 * 100 - 10_000);
  });

  it('keeps snapshots of a stream only this process writes, so a restart folds at most SNAPSHOT_EVERY events', async () => {
    const { store, file } = openStore();
    await handleCommand(store, stream, userDecider, register);
    // Every event through this handler: the cache is never behind, so nothing is ever read back.
    for (let i = 0; i < SNAPSHOT_EVERY * 2; i++) await handleCommand(store, stream, userDecider, credit(100));
    const length = (await store.readStream(stream)).length;
    await store.close();
    open.splice(open.indexOf(store), 1);
    const { store: rawCold } = openStore(file);
    const { store: cold, reads } = counting(rawCold);
    const { state } = await loadStream(cold, stream, userDecider);
    const folded = reads.reduce((sum, read) => sum + read.returned, 0);
    expect(folded).toBeLessThanOrEqual(SNAPSHOT_EVERY);
    expect(folded).toBeLessThan(length);
    expect(state).toEqual(await freshFold(rawCold));
  });

  it("keeps a large state's snapshot no more than once per as many events as it holds records", async () => {
    const { store, file } = openStore();
    const { store: watched } = counting(store);
    const written: number[] = [];
    const kept = store.capabilities.snapshots!;
    // A view of its own (its own capabilities), whose snapshots are counted on their way to the store's.
    Object.defineProperty(watched, 'capabilities', {
      value: {
        ...store.capabilities,
        snapshots: {
          readSnapshot: (streamId: string) => kept.readSnapshot(streamId),
          listSnapshots: () => kept.listSnapshots(),
          writeSnapshot: (streamId: string, snapshot: StreamSnapshot) => {
            written.push(snapshot.revision);
            return kept.writeSnapshot(streamId, snapshot);
          },
        },
      },
    });
    await handleCommand(watched, stream, userDecider, register);
    const float: UserCommand = {
      type: 'AdjustWallet',
      data: { entryId: id('e'), notificationId: id('n'), amountPaise: 100_000_000, direction: 'credit', reason: 'test', by: 'fin-1', approvalThresholdPaise: 100_000_000 },
      now,
    };
    await handleCommand(watched, stream, userDecider, float);
    // 300 withdrawals finance leaves pending: 300 records in the state, three events each.
    for (let i = 0; i < 300; i++) await handleCommand(watched, stream, userDecider, withdraw(10_000));
    expect(written.length).toBeGreaterThan(2);
    for (const [i, revision] of written.entries()) {
      const gap = revision - (written[i - 1] ?? -1);
      // By then the state held at least one record per three events after the first two.
      expect(gap).toBeGreaterThanOrEqual(Math.max(SNAPSHOT_EVERY, Math.floor((revision - 2) / 3)));
    }
    // Fewer than one per SNAPSHOT_EVERY events: 902 events, a snapshot each 100 would be 9.
    expect(written.length).toBeLessThan(Math.floor(902 / SNAPSHOT_EVERY));
    await store.close();
    open.splice(open.indexOf(store), 1);
    const { store: rawCold } = openStore(file);
    const { store: cold, reads } = counting(rawCold);
    const { state } = await loadStream(cold, stream, userDecider);
    // A cold start folds no more events than the snapshot holds records.
    expect(reads.reduce((sum, read) => sum + read.returned, 0)).toBeLessThanOrEqual(Math.max(SNAPSHOT_EVERY, userSnapshot.records?.(state) ?? 0));
    expect(state).toEqual(await freshFold(rawCold));
    expect(state.withdrawals.byId.size).toBe(300);
  });

  it('ignores a snapshot of another version or one it cannot read, and folds from the events', async () => {
    const { store, file } = openStore();
    await handleCommand(store, stream, userDecider, register);
    await handleCommand(store, stream, userDecider, credit(5_000));
    for (const snapshot of <StreamSnapshot[]>[
      { revision: 2, version: userSnapshot.version + 1, state: { anything: true } },
      { revision: 2, version: userSnapshot.version, state: { account: 'garbage' } },
    ]) {
      await store.capabilities.snapshots!.writeSnapshot(stream, snapshot);
      const { store: cold } = openStore(file);
      const { state, revision } = await loadStream(cold, stream, userDecider);
      expect(revision).toBe(2);
      expect(state.wallet.balance).toBe(5_000);
      expect(state).toEqual(await freshFold(cold));
    }
  });
});

