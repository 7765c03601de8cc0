/**
 * The event-store contract on KurrentDB. Runs against KURRENTDB_URL when it is set (for example
 * `kurrentdb://localhost:2113?tls=false`), else in a throwaway container when a container runtime
 * answers, else is skipped with the reason printed.
 */
import { existsSync } from 'node:fs';
import { homedir } from 'node:os';
import { join } from 'node:path';
import type { StartedTestContainer } from 'testcontainers';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { describeEventStoreContract, event, stream, withTimeout } from './contract.ts';
import { openKurrentDbEventStore } from './kurrentdb.ts';

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
