import { randomUUID } from 'node:crypto';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import Database from 'better-sqlite3';
import { afterAll, afterEach, describe, expect, it } from 'vitest';
import { openSealedSqliteStore } from './open.ts';
import { type SealedEventStore, sealEventStore } from './sealed-store.ts';
import { openPersonalData } from './open.ts';
import { openSqliteEventStore } from '../event-store/sqlite.ts';

const dir = mkdtempSync(join(tmpdir(), 'kamai-snapshots-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

describe('sealed snapshots', () => {
  const open: SealedEventStore[] = [];
  afterEach(async () => {
    for (const store of open.splice(0)) await store.close();
  });
  const file = join(dir, 'events.sqlite');
  const openStore = () => {
    const store = openSealedSqliteStore(file);
    open.push(store);
    return store;
  };
  const events = (n: number) => Array.from({ length: n }, () => ({ id: randomUUID(), type: 'Noted', data: { n: 1 } }));
  const state = { firstName: 'Meenakshi', balancePaise: 12_300 };

  it('keeps no personal data in the row, opens only where it was taken, and not once its subject is erased', async () => {
    const store = openStore();
    const userId = randomUUID();
    const stream = `user-${userId}`;
    await store.append(stream, events(3), 'no_stream');
    await store.capabilities.snapshots!.writeSnapshot(stream, { revision: 2, version: 1, state });
    expect(await store.capabilities.snapshots!.readSnapshot(stream)).toEqual({ revision: 2, version: 1, state });
    expect(readFileSync(file).includes('Meenakshi') || readFileSync(`${file}-wal`).includes('Meenakshi')).toBe(false);
    expect(await store.snapshotProblems()).toEqual([]);

    // Moved to another revision (or stream): it no longer verifies, and is ignored.
    const raw = new Database(file);
    raw.prepare('UPDATE snapshots SET revision = 1 WHERE stream_id = ?').run(stream);
    raw.close();
    expect(await store.capabilities.snapshots!.readSnapshot(stream)).toBeNull();
    expect(await store.snapshotProblems()).toEqual([{ streamId: stream, revision: 1, problem: 'unopened' }]);

    await store.capabilities.snapshots!.writeSnapshot(stream, { revision: 2, version: 1, state });
    expect(await store.capabilities.snapshots!.readSnapshot(stream)).not.toBeNull();
    await store.personal.erase(userId);
    expect(await store.capabilities.snapshots!.readSnapshot(stream)).toBeNull();
  });

  it('seals streams of no user with the server key, and ignores a plain snapshot kept before sealing', async () => {
    const store = openStore();
    const stream = `task-${randomUUID()}`;
    await store.append(stream, events(2), 'no_stream');
    await store.capabilities.snapshots!.writeSnapshot(stream, { revision: 1, version: 1, state });
    expect(await store.capabilities.snapshots!.readSnapshot(stream)).toEqual({ revision: 1, version: 1, state });
    await store.append(stream, events(1), 1);
    await store.inner.capabilities.snapshots!.writeSnapshot(stream, { revision: 2, version: 1, state });
    expect(await store.capabilities.snapshots!.readSnapshot(stream)).toBeNull();
    expect(await store.snapshotProblems()).toContainEqual({ streamId: stream, revision: 2, problem: 'unsealed' });
  });

  it('with LEDGER_SIGNING_KEY, trusts only snapshots it vouched for: one sealed from DATA_DIR alone is ignored', async () => {
    const vouching = sealEventStore(openSqliteEventStore(join(dir, 'vouched.sqlite')), openPersonalData({ dataDir: dir, keysFile: join(dir, 'keys.sqlite'), keyEncryptionKey: null }), {
      closesKeys: true,
      signingKey: Buffer.from('a ledger signing key of at least 32 characters'),
    });
    open.push(vouching);
    const stream = `task-${randomUUID()}`;
    await vouching.append(stream, events(3), 'no_stream');
    await vouching.capabilities.snapshots!.writeSnapshot(stream, { revision: 1, version: 1, state });
    expect(await vouching.capabilities.snapshots!.readSnapshot(stream)).toEqual({ revision: 1, version: 1, state });
    // The same file and keys opened without the signing key, as someone holding DATA_DIR would: a newer snapshot, resealed.
    const plain = openSealedSqliteStore(join(dir, 'vouched.sqlite'));
    open.push(plain);
    await plain.capabilities.snapshots!.writeSnapshot(stream, { revision: 2, version: 1, state: { ...state, balancePaise: 9_900_000 } });
    expect(await plain.capabilities.snapshots!.readSnapshot(stream)).toMatchObject({ revision: 2 });
    expect(await vouching.capabilities.snapshots!.readSnapshot(stream)).toBeNull();
    expect(await vouching.snapshotProblems()).toEqual([{ streamId: stream, revision: 2, problem: 'unopened' }]);
  });
});
