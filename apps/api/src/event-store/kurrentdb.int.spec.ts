/**
 * The event-store contract on KurrentDB. Runs against KURRENTDB_URL when it is set (for example
 * `kurrentdb://localhost:2113?tls=false`), else in a throwaway container when a container runtime
 * answers, else is skipped with the reason printed.
 */
import { randomUUID } from 'node:crypto';
import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { homedir, tmpdir } from 'node:os';
import { join } from 'node:path';
import type { AllSubscription, EventStore, RecordedEvent } from '@kamai/domain';
import { ProjectionRunner, findTask, openReadDb, tasksProjection } from '@kamai/projections';
import type { StartedTestContainer } from 'testcontainers';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { describeEventStoreContract, event, stream, withTimeout } from './contract.ts';
import { openKurrentDbEventStore } from './kurrentdb.ts';

/** A subscription that fails after `count` events, as one does when its node restarts or loses leadership. */
function failingAfter(subscription: AllSubscription, count: number): AllSubscription {
  return {
    close: () => subscription.close(),
    async *[Symbol.asyncIterator](): AsyncIterator<RecordedEvent> {
      let delivered = 0;
      for await (const recorded of subscription) {
        yield recorded;
        if (++delivered === count) {
          await subscription.close();
          throw new Error('the connection to the leader was lost');
        }
      }
    },
  };
}

/** The store, its first subscription failing after `count` events; later ones are the store's own. */
function droppingFirstSubscription(store: EventStore, count: number): EventStore & { subscriptions: number } {
  let subscriptions = 0;
  return new Proxy(store, {
    get(target, property) {
      if (property === 'subscriptions') return subscriptions;
      if (property === 'subscribeToAll') {
        return (options: { after: number }) => {
          subscriptions += 1;
          const subscription = target.subscribeToAll(options);
          return subscriptions === 1 ? failingAfter(subscription, count) : subscription;
        };
      }
      const value: unknown = Reflect.get(target, property, target);
      return typeof value === 'function' ? value.bind(target) : value;
    },
  }) as EventStore & { subscriptions: number };
}

function taskCreated(taskId: string) {
  return {
    id: randomUUID(),
    type: 'TaskCreated',
    data: {
      taskId, title: `Task ${taskId}`, description: 'd', rewardPaise: 100, estimatedTime: '2 min', taskType: 'rating', taskUrl: null,
      isActive: true, iconColor: 'blue', requiresProof: false, proofInstructions: null, createdBy: 'admin', createdAt: new Date().toISOString(),
    },
  };
}

/** The one KurrentDB version Kamai is tested against; docker-compose.yml runs the same image. */
const IMAGE = process.env.KURRENTDB_IMAGE ?? 'kurrentplatform/kurrentdb:25.1';

type Target = { kind: 'url'; url: string } | { kind: 'container' } | { kind: 'skip'; reason: string };

async function findTarget(): Promise<Target> {
  const url = process.env.KURRENTDB_URL;
  if (url) return { kind: 'url', url };
  // Look for a runtime cheaply before loading testcontainers, so the skip costs nothing.
  const sockets = [
    '/var/run/docker.sock',
    join(homedir(), '.docker/run/docker.sock'),
    join(homedir(), '.docker/desktop/docker.sock'),
    '/run/podman/podman.sock',
    process.env.XDG_RUNTIME_DIR ? join(process.env.XDG_RUNTIME_DIR, 'podman/podman.sock') : '',
  ].filter(Boolean);
  const configured = process.env.DOCKER_HOST || existsSync(join(homedir(), '.testcontainers.properties'));
  if (!configured && !sockets.some((socket) => existsSync(socket))) {
    return { kind: 'skip', reason: 'KURRENTDB_URL is not set and no container runtime was found (no DOCKER_HOST, no docker or podman socket)' };
  }
  try {
    const { getContainerRuntimeClient } = await import('testcontainers');
    await withTimeout(getContainerRuntimeClient(), 15_000, 'the container runtime did not answer within 15 s');
    return { kind: 'container' };
  } catch (error) {
    return { kind: 'skip', reason: `KURRENTDB_URL is not set and the container runtime is not usable: ${(error as Error).message}` };
  }
}

const target = await findTarget();
if (target.kind === 'skip') {
  console.warn(`[kurrentdb.int.spec] skipped: ${target.reason}. Set KURRENTDB_URL=kurrentdb://HOST:2113?tls=false to run it.`);
}

describe.skipIf(target.kind === 'skip')('kurrentdb event store', () => {
  let url = target.kind === 'url' ? target.url : '';
  let container: StartedTestContainer | undefined;

  beforeAll(async () => {
    if (target.kind !== 'container') return;
    const { GenericContainer, Wait } = await import('testcontainers');
    container = await new GenericContainer(IMAGE)
      .withEnvironment({
        KURRENTDB_INSECURE: 'true',
        KURRENTDB_CLUSTER_SIZE: '1',
        KURRENTDB_MEM_DB: 'true',
        KURRENTDB_RUN_PROJECTIONS: 'None',
        KURRENTDB_TELEMETRY_OPTOUT: 'true',
      })
      .withExposedPorts(2113)
      .withWaitStrategy(Wait.forHealthCheck())
      .withStartupTimeout(180_000)
      .start();
    url = `kurrentdb://${container.getHost()}:${container.getMappedPort(2113)}?tls=false`;
  }, 240_000);

  afterAll(async () => {
    await container?.stop();
  });

  describeEventStoreContract('kurrentdb', () => openKurrentDbEventStore(url), { deliveryTimeoutMs: 20_000 });

  it('a projection runner whose subscription is lost takes it up again from its checkpoint, nothing missed', async () => {
    const store = openKurrentDbEventStore(url);
    const dir = mkdtempSync(join(tmpdir(), 'kamai-kurrent-resubscribe-'));
    const db = await openReadDb(join(dir, 'read.sqlite'));
    const dropping = droppingFirstSubscription(store, 2);
    const runner = new ProjectionRunner(db, dropping, [tasksProjection]);
    try {
      await runner.start();
      const ids = Array.from({ length: 6 }, () => randomUUID());
      let last = { position: 0 };
      for (const id of ids) last = await store.append(`task-${id}`, [taskCreated(id)], 'no_stream');
      expect(await runner.waitFor(last.position, 20_000)).toBe(true);
      expect(dropping.subscriptions).toBeGreaterThanOrEqual(2);
      expect(runner.resubscriptions).toBeGreaterThanOrEqual(1);
      expect(runner.failed).toBeNull();
      for (const id of ids) expect((await findTask(db, id))?.id).toBe(id);
    } finally {
      await runner.stop();
      await db.destroy();
      await store.close();
      rmSync(dir, { recursive: true, force: true });
    }
  });

  it('never hands out system events', async () => {
    const store = openKurrentDbEventStore(url);
    try {
      await store.append(stream('system-filter'), [event('A')], 'no_stream');
      const events = await store.readAll({ after: 0, limit: 500 });
      expect(events.length).toBeGreaterThan(0);
      for (const recorded of events) {
        expect(recorded.type.startsWith('$')).toBe(false);
        expect(recorded.streamId.startsWith('$')).toBe(false);
      }
    } finally {
      await store.close();
    }
  });
});
