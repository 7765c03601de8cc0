// Helpers for the crash tests only (a real API process killed after its Nth append, crash-main.ts);
// nothing in the app imports this file.
import { existsSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { loadConfig } from '../config.ts';
import { openSealedSqliteStore } from '../privacy/open.ts';
import { openEventStore } from '../server.ts';
import { postgresEnv } from './postgres.ts';
import { type ApiProcess, CRASH_TEST_ENTRY, startApiProcess } from './process.ts';
import { TestClient, freshMobile } from './server.ts';

/** Resolves once the process has exited (at once when it already has). */
export async function exited(api: ApiProcess): Promise<void> {
  if (api.child.exitCode !== null || api.child.signalCode !== null) return;
  await new Promise((resolve) => api.child.once('exit', resolve));
}

/** Registers a fresh person through the API at `url`: a signed-in client with their mobile and id. */
export async function registerAt(url: string, firstName: string): Promise<TestClient & { mobile: string; userId: string }> {
  const client = new TestClient(url);
  const mobile = freshMobile();
  const res = await client.post('/api/auth/register', { mobile, password: 'secret123', firstName, lastName: 'Test', consent: true });
  if (res.status !== 201) throw new Error(`sign-up failed: ${res.status} ${JSON.stringify(res.body)}`);
  return Object.assign(client, { mobile, userId: (res.body as { id: string }).id });
}

/**
 * The topologies a crash test can run in: commits inline, and on the writer thread. The thread
 * changes how an acknowledged append is made durable, not what a workflow does, so the payout
 * workflows (crash.int) run in both and the others inline only: each restart costs seconds of CPU.
 */
export const WORKFLOW_CRASH_TOPOLOGIES: { name: string; env: Record<string, string> }[] = [
  { name: 'commits inline', env: {} },
  { name: 'commits on the writer thread', env: { EVENT_STORE_WRITER: 'thread' } },
];
export const INLINE_COMMITS = WORKFLOW_CRASH_TOPOLOGIES.slice(0, 1);
/**
 * The log, keys and workflow records in PostgreSQL (a new database per run, dropped afterwards): a
 * crash there leaves an append committed or not, as on SQLite, and the retry must find the same.
 */
export const ON_POSTGRES = { name: 'on PostgreSQL', env: { EVENT_STORE: 'postgres' } };

/**
 * An API process on `dataDir` started with the crash-test entry (crash-main.ts), which a test arms to
 * die after the Nth append of a request, and starts again once it died.
 */
export class CrashableApi {
  api: ApiProcess;
  readonly #dataDir: string;
  readonly #env: Record<string, string>;
  readonly #armed: string;

  private constructor(api: ApiProcess, dataDir: string, env: Record<string, string>, armed: string) {
    this.api = api;
    this.#dataDir = dataDir;
    this.#env = env;
    this.#armed = armed;
  }

  static async start(dataDir: string, env: Record<string, string> = {}): Promise<CrashableApi> {
    const armed = join(dataDir, 'crash-after');
    // Projections inline unless a test asks otherwise: what these tests kill is a workflow between
    // two appends, which the projections' topology does not change, and a projection thread loads
    // the app's modules a second time at every restart (a start took 5.2-8.0 s with it, 3.3-3.8 s
    // without, side by side on a loaded machine). The projections' own recovery from a kill, on a
    // thread and in a worker, is crash-retry.int's.
    const processEnv = { PROJECTIONS: 'inline', ...env, KAMAI_CRASH_FILE: armed };
    return new CrashableApi(await startApiProcess(dataDir, processEnv, CRASH_TEST_ENTRY), dataDir, processEnv, armed);
  }

  /**
   * A crashable API on a fresh DATA_DIR, with the test's own connection to its event store;
   * `cleanups` gets what stops the process then running and removes it all.
   */
  static async inFreshDataDir(prefix: string, env: Record<string, string>, cleanups: Array<() => Promise<void>>) {
    const dataDir = mkdtempSync(join(tmpdir(), prefix));
    let drop = async () => {};
    if (env.EVENT_STORE === 'postgres' && !env.DATABASE_URL) {
      const database = await postgresEnv();
      env = { ...env, ...database.env };
      drop = database.drop;
    }
    const store = env.EVENT_STORE === 'postgres' ? await openEventStore(loadConfig({ ...env, DATA_DIR: dataDir })) : openSealedSqliteStore(join(dataDir, 'events.sqlite'));
    let api: CrashableApi | undefined;
    cleanups.push(async () => {
      await api?.stop();
      await store.close();
      rmSync(dataDir, { recursive: true, force: true });
      await drop();
    });
    api = await CrashableApi.start(dataDir, env);
    return { api, store, dataDir };
  }

  get url(): string {
    return this.api.url;
  }

  /**
   * Runs `send` with the process armed to die after `n` appends; answers whether it died (it is
   * running again then). Appends the request sets off after answering (a watcher's workflow) may
   * kill it later: `settled` waits for them, told whether the process is still armed.
   */
  async killedAfter(n: number, send: () => Promise<unknown>, settled?: (stillArmed: () => boolean) => Promise<unknown>): Promise<{ died: boolean; answer: unknown }> {
    writeFileSync(this.#armed, String(n));
    const answer = await send().catch(() => 'dropped');
    await settled?.(() => existsSync(this.#armed));
    if (!existsSync(this.#armed)) {
      await exited(this.api);
      this.api = await startApiProcess(this.#dataDir, this.#env, CRASH_TEST_ENTRY);
      return { died: true, answer };
    }
    rmSync(this.#armed, { force: true });
    return { died: false, answer };
  }

  /** Stops the process gracefully and starts a new one on the same DATA_DIR (with `extraEnv` added for it alone). */
  async restart(extraEnv: Record<string, string> = {}): Promise<void> {
    await this.api.stop();
    this.api = await startApiProcess(this.#dataDir, { ...this.#env, ...extraEnv }, CRASH_TEST_ENTRY);
  }

  stop(): Promise<void> {
    return this.api.stop();
  }
}
