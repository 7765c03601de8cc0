import { type ChildProcess, spawn } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { Role } from '@kamai/contracts';
import type { EventStore } from '@kamai/domain';
import { grantRole } from '../auth/accounts.ts';
import { openSealedSqliteStore } from '../privacy/open.ts';
import type { SealedEventStore } from '../privacy/sealed-store.ts';
import { TestClient, freshMobile } from './server.ts';

const repoRoot = join(dirname(fileURLToPath(import.meta.url)), '../../../..');
const tsx = join(repoRoot, 'node_modules/.bin/tsx');
const main = join(repoRoot, 'apps/api/src/main.ts');
/** The API with its store wrapped to kill itself after the Nth append once armed (crash-main.ts): crash tests only. */
export const CRASH_TEST_ENTRY = join(repoRoot, 'apps/api/src/testing/crash-main.ts');

/** `npm run worker` as its own OS process on DATA_DIR; resolves once it follows the store. */
export async function startWorkerProcess(dataDir: string): Promise<{ child: ChildProcess; output(): string; stop(): Promise<number | null> }> {
  let log = '';
  // As `npm run worker` runs it: Node with tsx as a loader (the tsx CLI may SIGKILL a busy child on SIGTERM).
  const child = spawn(process.execPath, ['--import', 'tsx', join(repoRoot, 'apps/api/src/worker.ts')], {
    cwd: repoRoot,
    env: { ...process.env, DATA_DIR: dataDir },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  child.stdout?.on('data', (chunk: Buffer) => (log += chunk.toString()));
  child.stderr?.on('data', (chunk: Buffer) => (log += chunk.toString()));
  // Generous: a loaded machine takes long to load the worker's modules under tsx.
  const deadline = Date.now() + 180_000;
  while (!/worker is running/.test(log)) {
    if (child.exitCode !== null) throw new Error(`worker exited with ${child.exitCode}:\n${log}`);
    if (Date.now() > deadline) throw new Error(`worker did not start within 180 s:\n${log}`);
    await new Promise((r) => setTimeout(r, 50));
  }
  return {
    child,
    output: () => log,
    stop: () =>
      new Promise((resolve) => {
        if (child.exitCode !== null) return resolve(child.exitCode);
        child.once('exit', (code) => resolve(code));
        child.kill('SIGTERM');
        setTimeout(() => child.kill('SIGKILL'), 10_000).unref();
      }),
  };
}

export interface ApiProcess {
  url: string;
  port: number;
  child: ChildProcess;
  output(): string;
  stop(): Promise<void>;
}

/**
 * Starts the real API (`apps/api/src/main.ts`) as its own OS process on DATA_DIR, the way a host
 * runs several API processes, and waits until it answers /api/health.
 */
export async function startApiProcess(dataDir: string, env: Record<string, string> = {}, entry: string = main): Promise<ApiProcess> {
  let log = '';
  // PORT=0: the process binds a free port itself and prints it, so parallel starts never collide.
  const child = spawn(tsx, [entry], {
    cwd: repoRoot,
    env: { ...process.env, PORT: '0', HOST: '127.0.0.1', DATA_DIR: dataDir, SEED_DEMO: 'false', WEB_DIST: '', REGISTRATIONS_PER_HOUR: '1000000', ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  child.stdout?.on('data', (chunk: Buffer) => (log += chunk.toString()));
  child.stderr?.on('data', (chunk: Buffer) => (log += chunk.toString()));
  const deadline = Date.now() + 180_000;
  let url = '';
  for (;;) {
    if (child.exitCode !== null) throw new Error(`API process exited with ${child.exitCode}:\n${log}`);
    url ||= /running at (http:\/\/[^\s]+)/.exec(log)?.[1] ?? '';
    if (url) {
      try {
        if ((await fetch(`${url}/api/health`)).ok) break;
      } catch {
        // not answering yet
      }
    }
    if (Date.now() > deadline) {
      child.kill('SIGKILL');
      throw new Error(`API process did not start within 180 s:\n${log}`);
    }
    await new Promise((r) => setTimeout(r, 100));
  }
  const port = Number(new URL(url).port);
  return {
    url,
    port,
    child,
    output: () => log,
    stop: () =>
      new Promise<void>((resolve) => {
        // A process killed by a signal has no exit code, only its signal.
        if (child.exitCode !== null || child.signalCode !== null) return resolve();
        child.once('exit', () => resolve());
        child.kill('SIGTERM');
        setTimeout(() => child.kill('SIGKILL'), 5000).unref();
      }),
  };
}


/**
 * Two API processes on one fresh DATA_DIR, plus this test's own connection to their event store
 * file: how one host runs several API processes on the embedded store.
 */
export interface ApiPair {
  dataDir: string;
  a: ApiProcess;
  b: ApiProcess;
  store: SealedEventStore;
  /** Registers through `url`; with roles, grants them on the store and waits until the API shows them. */
  signUp(url: string, firstName: string, roles?: Role[]): Promise<TestClient & { mobile: string; userId: string }>;
  /** Stops process A and starts a new one on the same DATA_DIR. */
  restartA(): Promise<void>;
  close(): Promise<void>;
}

/**
 * Registers through the API at `url`; with roles, grants them on `store` (the API's event store,
 * opened by the test) and waits until that API shows them.
 */
export async function signUpAt(store: EventStore, url: string, firstName: string, roles: Role[] = []): Promise<TestClient & { mobile: string; userId: string }> {
  const client = new TestClient(url);
  const mobile = freshMobile();
  const res = await client.post('/api/auth/register', { mobile, password: 'secret123', firstName, lastName: 'Test', consent: true });
  if (res.status !== 201) throw new Error(`sign-up failed: ${res.status} ${JSON.stringify(res.body)}`);
  const userId = (res.body as { id: string }).id;
  for (const role of roles) await grantRole(store, userId, role, 'test', new Date());
  // The grants reach the API's read model through its runner, within a poll or two.
  const deadline = Date.now() + 5000;
  while (roles.length > 0) {
    const held = ((await client.get('/api/auth/user')).body as { roles: Role[] }).roles;
    if (roles.every((role) => held.includes(role))) break;
    if (Date.now() > deadline) throw new Error(`roles ${roles.join(', ')} not visible after 5 s`);
    await new Promise((r) => setTimeout(r, 25));
  }
  return Object.assign(client, { mobile, userId });
}

export async function startApiPair(name: string): Promise<ApiPair> {
  const dataDir = mkdtempSync(join(tmpdir(), `kamai-${name}-`));
  const [a, b] = await Promise.all([startApiProcess(dataDir), startApiProcess(dataDir)]);
  const store = openSealedSqliteStore(join(dataDir, 'events.sqlite'));
  const pair: ApiPair = {
    dataDir,
    a,
    b,
    store,
    signUp: (url, firstName, roles = []) => signUpAt(store, url, firstName, roles),
    async restartA() {
      await pair.a.stop();
      pair.a = await startApiProcess(dataDir);
    },
    async close() {
      await store.close();
      await Promise.all([pair.a.stop(), pair.b.stop()]);
      rmSync(dataDir, { recursive: true, force: true });
    },
  };
  return pair;
}
