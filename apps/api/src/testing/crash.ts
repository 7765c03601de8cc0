// Helpers for the crash tests only (a real API process killed after its Nth append, crash-main.ts);
// nothing in the app imports this file.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { expect } from 'vitest';
import { openSealedSqliteStore } from '../privacy/open.ts';
import type { ApiProcess } from './process.ts';
import { TestClient, freshMobile } from './server.ts';

/** Resolves once the process has exited (at once when it has). */
export async function exited(api: ApiProcess): Promise<void> {
  if (api.child.exitCode !== null || api.child.signalCode !== null) return;
  await new Promise((resolve) => api.child.once('exit', resolve));
}

/** Registers a person with a fresh mobile through `url`: a signed-in client, its mobile and user id. */
export async function registerAt(url: string, name: string) {
  const client = new TestClient(url);
  const mobile = freshMobile();
  const res = await client.post('/api/auth/register', { mobile, password: 'secret123', firstName: name, lastName: 'Test', consent: true });
  expect(res.status).toBe(201);
  return Object.assign(client, { mobile, userId: (res.body as { id: string }).id });
}

/** The topologies every workflow crash test runs in: commits inline, and on the writer thread. */
export const WORKFLOW_CRASH_TOPOLOGIES: { name: string; env: Record<string, string> }[] = [
  { name: 'commits inline', env: {} },
  { name: 'commits on the writer thread', env: { EVENT_STORE_WRITER: 'thread' } },
];

/**
 * A fresh DATA_DIR for a crash test: the arming file's path, the env of its API processes, and the
 * test's own connection to its event store. `cleanups` gets what stops the API then running
 * (`current`) and removes it all.
 */
export function crashDataDir(prefix: string, env: Record<string, string>, cleanups: Array<() => Promise<void>>, current: () => ApiProcess | undefined) {
  const dataDir = mkdtempSync(join(tmpdir(), prefix));
  const armed = join(dataDir, 'crash-after');
  const processEnv = { ...env, KAMAI_CRASH_FILE: armed };
  const store = openSealedSqliteStore(join(dataDir, 'events.sqlite'));
  cleanups.push(async () => {
    await current()?.stop();
    await store.close();
    rmSync(dataDir, { recursive: true, force: true });
  });
  return { dataDir, armed, processEnv, store };
}
