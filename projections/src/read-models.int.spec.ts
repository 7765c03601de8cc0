import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { KamaiEvent } from '@kamai/contracts';
import type { EventStore, RecordedEvent } from '@kamai/domain';
import { sql } from 'kysely';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { type ReadDbHandle, openReadDb, writeTransaction } from './db.ts';
import { allProjections } from './index.ts';
import { listTransactions } from './wallet/queries.ts';
import { listNotifications } from './notifications/queries.ts';
import { findUserByMobile, toUserBody } from './users/queries.ts';
import { rebuildReadModels } from './rebuild.ts';
import { ProjectionRunner, applyEvents } from './runner.ts';
import { readCheckpoint } from './tables.ts';
import { listAsEventSource, recordEvents } from './testing.ts';
import { readEventTextsFrom } from './event-texts.ts';

const at = (minute: number) => `2026-11-21T10:${String(minute).padStart(2, '0')}:00.000Z`;
const user = (id: string) => `user-${id}`;

/** A small history touching every read model so far. */
function history(): Array<{ stream: string; event: KamaiEvent }> {
  return [
    { stream: 'mobile-9876543210', event: { type: 'MobileReserved', data: { mobile: '9876543210', userId: 'u1', reservedAt: at(0), reservationId: 'r1' } } },
    { stream: user('u1'), event: { type: 'UserRegistered', data: { userId: 'u1', mobile: '9876543210', passwordHash: 'h1', firstName: 'Asha', lastName: 'Rao', registeredAt: at(0) } } },
    { stream: 'session-s1', event: { type: 'SessionStarted', data: { sessionId: 's1', userId: 'u1', startedAt: at(0), expiresAt: at(59) } } },
    { stream: user('u2'), event: { type: 'UserRegistered', data: { userId: 'u2', mobile: '9123456780', passwordHash: 'h2', firstName: 'Ravi', lastName: 'Kumar', registeredAt: at(1) } } },
    { stream: user('u1'), event: { type: 'ProfileUpdated', data: { email: 'asha@example.in', notificationsEnabled: false, updatedAt: at(2) } } },
    { stream: user('u2'), event: { type: 'RoleGranted', data: { role: 'finance', grantedBy: 'cli', grantedAt: at(2) } } },
    { stream: user('u2'), event: { type: 'RoleGranted', data: { role: 'admin', grantedBy: 'cli', grantedAt: at(3) } } },
    { stream: user('u2'), event: { type: 'RoleRevoked', data: { role: 'finance', revokedBy: 'cli', revokedAt: at(4) } } },
    { stream: user('u1'), event: { type: 'WalletCredited', data: { entryId: 'e1', amountPaise: 2500, kind: 'task_reward', description: 'Rate the Swiggy app', taskId: 't1', creditedAt: at(5) } } },
    { stream: user('u1'), event: { type: 'NotificationSent', data: { notificationId: 'n1', title: 'Task Approved', message: '₹25.00 added', kind: 'success', sentAt: at(5) } } },
    { stream: user('u1'), event: { type: 'WalletCredited', data: { entryId: 'e2', amountPaise: 20000, kind: 'adjustment', description: 'Goodwill credit', by: 'u2', creditedAt: at(6) } } },
    { stream: user('u1'), event: { type: 'WalletDebited', data: { entryId: 'e3', amountPaise: 10000, kind: 'withdrawal', description: 'Withdrawal to bank', reference: 'w1', debitedAt: at(7) } } },
    { stream: user('u1'), event: { type: 'NotificationSent', data: { notificationId: 'n2', title: 'Withdrawal Requested', message: '₹100.00', kind: 'info', sentAt: at(7) } } },
    { stream: user('u1'), event: { type: 'AllNotificationsRead', data: { readAt: at(8) } } },
    { stream: user('u1'), event: { type: 'NotificationSent', data: { notificationId: 'n3', title: 'Withdrawal Refused', message: 'Refunded', kind: 'warning', sentAt: at(9) } } },
    { stream: user('u1'), event: { type: 'WalletCredited', data: { entryId: 'e4', amountPaise: 10000, kind: 'withdrawal_refund', description: 'Refund', reference: 'w1', creditedAt: at(9) } } },
    { stream: user('u1'), event: { type: 'NotificationDeleted', data: { notificationId: 'n1', deletedAt: at(10) } } },
    { stream: 'session-s1', event: { type: 'SessionEnded', data: { sessionId: 's1', endedAt: at(11) } } },
  ];
}

async function dump(db: ReadDbHandle) {
  const tables = (await db.introspection.getTables()).map((t) => t.name).filter((n) => !n.startsWith('kysely_') && n !== 'checkpoints' && n !== 'projection_builds');
  const out: Record<string, unknown[]> = {};
  for (const table of tables.sort()) {
    const rows = (await sql<Record<string, unknown>>`SELECT * FROM ${sql.table(table)}`.execute(db)).rows;
    out[table] = rows.map((r) => JSON.stringify(r)).sort();
  }
  return out;
}

let dir: string;
let dbs: ReadDbHandle[] = [];
const open = async (name: string) => {
  const db = await openReadDb(join(dir, name));
  dbs.push(db);
  return db;
};
beforeEach(() => {
  dir = mkdtempSync(join(tmpdir(), 'kamai-read-'));
});
afterEach(async () => {
  await Promise.all(dbs.map((db) => db.destroy()));
  dbs = [];
  rmSync(dir, { recursive: true, force: true });
});

describe('read models', () => {
  it('given the history, then the rows the API serves', async () => {
    const db = await open('read.sqlite');
    const events = recordEvents(history());
    for (const event of events) await writeTransaction(db, (trx) => applyEvents(trx, allProjections, [event]));
    readEventTextsFrom(db, listAsEventSource(events));

    const asha = await findUserByMobile(db, '9876543210');
    expect(asha && toUserBody(asha)).toMatchObject({
      email: 'asha@example.in',
      notificationsEnabled: false,
      totalRupees: '225.00',
      totalEarned: '25.00',
      roles: [],
      isAdmin: false,
    });
    const ravi = await findUserByMobile(db, '9123456780');
    expect(ravi && toUserBody(ravi)).toMatchObject({ roles: ['admin'], isAdmin: true, totalRupees: '0.00' });

    expect(await listTransactions(db, 'u1')).toEqual([
      expect.objectContaining({ id: 'e4', type: 'other', direction: 'credit', kind: 'withdrawal_refund', amount: '100.00' }),
      expect.objectContaining({ id: 'e3', type: 'withdrawn', direction: 'debit', amount: '100.00' }),
      expect.objectContaining({ id: 'e2', type: 'other', direction: 'credit', kind: 'adjustment', amount: '200.00' }),
      expect.objectContaining({ id: 'e1', type: 'earned', direction: 'credit', amount: '25.00', taskId: 't1', description: 'Rate the Swiggy app' }),
    ]);
    const wallet = await db.selectFrom('wallets').selectAll().where('user_id', '=', 'u1').executeTakeFirstOrThrow();
    expect(wallet).toMatchObject({ balance_paise: 22500, total_earned_paise: 2500, total_withdrawn_paise: 0 });

    // n1 deleted; n2 read by "mark all read"; n3 came after it and is unread.
    expect((await listNotifications(db, 'u1')).map((n) => [n.id, n.isRead])).toEqual([
      ['n3', false],
      ['n2', true],
    ]);
    expect(await db.selectFrom('sessions').selectAll().execute()).toEqual([]);
    expect(await readCheckpoint(db, 'users')).toBe(events.length);
  });

  it('a rebuild from position zero gives the same rows as applying events live one by one', async () => {
    const events = recordEvents(history());
    const live = await open('live.sqlite');
    for (const event of events) await writeTransaction(live, (trx) => applyEvents(trx, allProjections, [event]));
    const rebuilt = await open('rebuilt.sqlite');
    // Start from a dirty model: a rebuild must not keep anything that was there before.
    await writeTransaction(rebuilt, (trx) => applyEvents(trx, allProjections, events.slice(0, 5)));
    const result = await rebuildReadModels(rebuilt, listAsEventSource(events), allProjections, { batchSize: 4 });
    expect(result).toMatchObject({ events: events.length, position: events.length });
    expect(await dump(rebuilt)).toEqual(await dump(live));
  });

  it('never applies an event twice, whatever batches it arrives in', async () => {
    const events = recordEvents(history());
    const db = await open('read.sqlite');
    await writeTransaction(db, (trx) => applyEvents(trx, allProjections, events.slice(0, 10)));
    // Overlapping batch, as two runners on one file or a retried batch would deliver.
    await writeTransaction(db, (trx) => applyEvents(trx, allProjections, events.slice(5)));
    const once = await open('once.sqlite');
    await writeTransaction(once, (trx) => applyEvents(trx, allProjections, events));
    expect(await dump(db)).toEqual(await dump(once));
  });

  it('rolls the whole batch back, checkpoint included, when a projection fails', async () => {
    const events = recordEvents(history());
    const db = await open('read.sqlite');
    await writeTransaction(db, (trx) => applyEvents(trx, allProjections, events.slice(0, 3)));
    const broken = { ...events[4]!, data: { nonsense: true } };
    await expect(writeTransaction(db, (trx) => applyEvents(trx, allProjections, [events[3]!, broken]))).rejects.toThrow();
    expect(await readCheckpoint(db, 'users')).toBe(3);
    expect(await db.selectFrom('users').select('id').execute()).toEqual([{ id: 'u1' }]);
  });
});

describe('projection runner', () => {
  const subscriptionOf = (events: RecordedEvent[]) => () => ({
    close: async () => {},
    async *[Symbol.asyncIterator]() {
      yield* events;
    },
  });

  it('refuses to start on an event it cannot apply, and applies nothing of that batch', async () => {
    const db = await open('read.sqlite');
    const events = recordEvents(history());
    const broken = [...events.slice(0, 2), { ...events[2]!, data: { nonsense: true } }];
    const store = { ...listAsEventSource(broken), subscribeToAll: subscriptionOf([]), headPosition: async () => broken.length } as unknown as EventStore;
    const runner = new ProjectionRunner(db, store, allProjections);
    await expect(runner.start()).rejects.toThrow();
    expect(runner.position).toBe(0);
    expect(await readCheckpoint(db, 'users')).toBe(0);
  });

  it('parks the read models that cannot apply a live event, says where and why, and lets the others go on', async () => {
    const db = await open('read.sqlite');
    const events = recordEvents(history());
    const broken = { ...events[2]!, data: { nonsense: true } };
    // The read models are live at position 2 when the runner starts.
    await writeTransaction(db, (trx) => applyEvents(trx, allProjections, events.slice(0, 2)));
    const store = { ...listAsEventSource(events.slice(0, 2)), subscribeToAll: subscriptionOf([broken]), headPosition: async () => 2 } as unknown as EventStore;
    const runner = new ProjectionRunner(db, store, allProjections);
    await runner.start();
    // A command waiting for its write is answered once the models that can apply it have.
    expect(await runner.waitFor(3, 60_000)).toBe(true);
    const parked = (await runner.status()).filter((status) => status.state === 'parked');
    expect(parked.length).toBeGreaterThan(0);
    for (const status of parked) expect(status.parked).toMatchObject({ position: 3, eventType: broken.type });
    await runner.stop();
  });

  it('moves no parked model past the live event it could not apply, however many events follow it', async () => {
    // Otherwise the checkpoint moves past the failed event and no restart ever applies it.
    const db = await open('read.sqlite');
    const events = recordEvents(history());
    const broken = { ...events[2]!, data: { nonsense: true } };
    let release!: () => void;
    const later = new Promise<void>((resolve) => (release = resolve));
    const subscription = {
      close: async () => {},
      async *[Symbol.asyncIterator]() {
        yield broken;
        await later;
        yield* events.slice(3);
      },
    };
    await writeTransaction(db, (trx) => applyEvents(trx, allProjections, events.slice(0, 2)));
    const store = { ...listAsEventSource(events.slice(0, 2)), subscribeToAll: () => subscription, headPosition: async () => 2 } as unknown as EventStore;
    const runner = new ProjectionRunner(db, store, allProjections);
    await runner.start();
    expect(await runner.waitFor(3, 60_000)).toBe(true);
    release();
    await runner.stop();
    // A parked model's checkpoint stays before the event it could not apply, so its rebuild applies it.
    const parked = (await runner.status()).filter((status) => status.state === 'parked');
    expect(parked.length).toBeGreaterThan(0);
    for (const status of parked) expect(status.position).toBe(2);
  });

  it('reads a live backlog no faster than it applies it, so memory stays bounded', async () => {
    const db = await open('read.sqlite');
    const backlog = recordEvents(
      Array.from({ length: 5000 }, (_, i) => ({
        stream: 'settings',
        event: { type: 'SettingsUpdated' as const, data: { supportEmail: `s${i}@kamai.in`, updatedBy: 'u2', updatedAt: at(1) } },
      })),
    );
    let runner!: ProjectionRunner;
    let pulled = 0;
    let lag = 0;
    const subscription = {
      close: async () => {},
      async *[Symbol.asyncIterator]() {
        for (const event of backlog) {
          pulled += 1;
          lag = Math.max(lag, pulled - runner.position);
          yield event;
        }
      },
    };
    const store = { ...listAsEventSource([]), subscribeToAll: () => subscription, headPosition: async () => 0 } as unknown as EventStore;
    runner = new ProjectionRunner(db, store, allProjections, { batchSize: 100 });
    await runner.start();
    expect(await runner.waitFor(5000, 60_000)).toBe(true);
    await runner.stop();
    expect(lag).toBeLessThanOrEqual(300);
  });
});
