/**
 * How fast the read models rebuild from the event store: a fresh SQLite event store is filled with
 * a realistic mix (registrations, sessions, rewards, withdrawals, notifications and their reads),
 * then every read model is rebuilt from position zero into a fresh read database.
 *
 *   node_modules/.bin/tsx scripts/src/bench/rebuild.ts [--events 200000]
 */
import { randomUUID } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { openSqliteEventStore } from '@kamai/api';
import type { KamaiEvent } from '@kamai/contracts';
import type { NewEvent } from '@kamai/domain';
import { allProjections, openReadDb, rebuildReadModels } from '@kamai/projections';

export interface BenchRebuildResult {
  events: number;
  fillSeconds: number;
  rebuildSeconds: number;
  eventsPerSecond: number;
}

const EVENTS_PER_USER = 100;

/** One user's history of exactly EVENTS_PER_USER events. */
function userHistory(userId: string, index: number, now: string): KamaiEvent[] {
  const events: KamaiEvent[] = [
    {
      type: 'UserRegistered',
      data: { userId, mobile: String(6000000000 + index), passwordHash: 'x', firstName: 'Bench', lastName: `User${index}`, registeredAt: now },
    },
  ];
  let n = 0;
  while (events.length < EVENTS_PER_USER) {
    n += 1;
    const id = `${userId}-${n}`;
    switch (n % 5) {
      case 0:
        events.push({ type: 'WalletCredited', data: { entryId: id, amountPaise: 2500, kind: 'task_reward', description: 'Task reward', taskId: 't1', creditedAt: now } });
        break;
      case 1:
        events.push({ type: 'NotificationSent', data: { notificationId: id, title: 'Task Approved', message: '₹25.00 added', kind: 'success', sentAt: now } });
        break;
      case 2:
        events.push({ type: 'NotificationRead', data: { notificationId: `${userId}-${n - 1}`, readAt: now } });
        break;
      case 3:
        events.push({ type: 'ProfileUpdated', data: { firstName: `Bench${n}`, updatedAt: now } });
        break;
      default:
        events.push({ type: 'WalletDebited', data: { entryId: id, amountPaise: 100, kind: 'adjustment', description: 'Fee', debitedAt: now } });
    }
  }
  return events;
}

export async function benchRebuild(options: { events?: number; log?: (line: string) => void } = {}): Promise<BenchRebuildResult> {
  const target = options.events ?? 200_000;
  const log = options.log ?? console.log;
  const dir = mkdtempSync(join(tmpdir(), 'kamai-bench-rebuild-'));
  const store = openSqliteEventStore(join(dir, 'events.sqlite'));
  const db = await openReadDb(join(dir, 'read.sqlite'));
  try {
    const now = new Date().toISOString();
    const users = Math.ceil(target / EVENTS_PER_USER);
    const fillStarted = performance.now();
    for (let i = 0; i < users; i++) {
      const history = userHistory(randomUUID(), i, now);
      const events: NewEvent[] = history.map((e) => ({ id: randomUUID(), type: e.type, data: e.data as NewEvent['data'] }));
      await store.append(`user-${(history[0]!.data as { userId: string }).userId}`, events, 'no_stream');
    }
    const fillSeconds = (performance.now() - fillStarted) / 1000;
    const total = await store.headPosition();
    log(`filled the store with ${total} events for ${users} users in ${fillSeconds.toFixed(1)} s`);

    const started = performance.now();
    const { events } = await rebuildReadModels(db, store, allProjections);
    const rebuildSeconds = (performance.now() - started) / 1000;
    const eventsPerSecond = Math.round(events / rebuildSeconds);
    log(`rebuilt every read model from ${events} events in ${rebuildSeconds.toFixed(2)} s: ${eventsPerSecond} events/s`);
    return { events, fillSeconds, rebuildSeconds, eventsPerSecond };
  } finally {
    await db.destroy();
    await store.close();
    rmSync(dir, { recursive: true, force: true });
  }
}

if (import.meta.url === pathToFileURL(process.argv[1] ?? '').href) {
  const i = process.argv.indexOf('--events');
  await benchRebuild({ events: i > 0 ? Number(process.argv[i + 1]) : undefined });
}
