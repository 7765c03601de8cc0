/**
 * HTTP figures for `npm run bench`, every peer measured in the same run, with autocannon in this
 * process and each server in a process of its own:
 *   - bare Hono + one better-sqlite3 lookup vs `GET /api/auth/user` (signed in, 64 connections);
 *   - `POST /api/withdrawals` (each answer waits for its own read model: read-your-writes) at 64
 *     connections, 64 users, on one API process and on two API processes sharing one data directory;
 *   - the API process's resident memory after its GET runs and after a one-process withdrawal run;
 *   - the initial JavaScript of the built web app, gzipped.
 *
 *   node_modules/.bin/tsx scripts/src/bench/http.ts [--seconds 5]
 */
import { type ChildProcess, spawn } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, readdirSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { gzipSync } from 'node:zlib';
import autocannon, { type Options as LoadOptions, type Request as LoadRequest, type Result as LoadResult } from 'autocannon';
import type { HealthBody } from '@kamai/contracts';

const root = join(import.meta.dirname, '../../..');
const tsx = join(root, 'node_modules/.bin/tsx');

/** A server's resident memory, in MB: now (VmRSS) and its peak so far (VmHWM). */
export interface ServerMemory {
  rssMb: number;
  peakRssMb: number;
}

interface LoadFigure {
  perSecond: number;
  p50: number;
  p99: number;
  /** Answers that were not 2xx, plus socket errors and timeouts. */
  failures: number;
  /**
   * CPU time per answer, in microseconds (Linux /proc; absent elsewhere): of the server process(es)
   * and of the load generator (this process). On a machine with few cores their sum bounds what
   * any number of server processes can answer: cores × 1,000,000 / (server + client) per second.
   */
  serverCpuUs?: number;
  clientCpuUs?: number;
  /**
   * Of serverCpuUs, what the servers' main threads (their event loops) spent: what one process can
   * answer is bounded by 1,000,000 / this, whatever its other threads (projections, the event
   * store's writer, GC helpers) do on other cores.
   */
  serverMainThreadCpuUs?: number;
  /** With one server: its resident memory right after the run, and its peak so far, in MB (Linux /proc). */
  serverMemory?: ServerMemory;
}

/** Answers per second of each interleaved run of one kind: min, median, max. */
interface Spread {
  runs: number[];
  min: number;
  median: number;
  max: number;
}

export interface BenchHttpResult {
  /** The last interleaved idle run of each, for its latency. */
  bare: LoadFigure;
  authUser: LoadFigure;
  /** Rounds of A B B A (bare, GET /api/auth/user, the same, bare), idle. */
  bareRounds: Spread;
  authUserRounds: Spread;
  /** The same rounds while 100 withdrawals a second (other users') are written to the API. */
  bareUnderWrites: Spread;
  authUserUnderWrites: Spread;
  /** Withdrawals per second the writer achieved during those runs (target 100), the lowest. */
  writesPerSecond: number;
  /** The API process's resident memory after all those runs, and its peak, in MB (null without /proc). */
  apiMemoryAfterReads: ServerMemory | null;
  /** One API process, interleaved runs with the event store's commits on the event loop / on a writer thread. */
  withdrawalsInline: LoadFigure[];
  withdrawalsThread: LoadFigure[];
  /** The median run (by answers per second) of the inline ones: the default, the peer of the rows below. */
  withdrawalsOne: LoadFigure;
  withdrawalsTwo: LoadFigure;
  /** The same two API processes with PROJECTIONS=off beside one projection worker (`npm run worker`). */
  withdrawalsTwoWithWorker: LoadFigure;
}

export interface Child {
  url: string;
  /** The launcher's pid; the server runs in it or a descendant. */
  pid?: number;
  stop(): Promise<void>;
}

/** A process and its descendants (Linux /proc: each thread's `children`), the process first. */
function processTree(pid: number): number[] {
  const pids = [pid];
  try {
    for (const task of readdirSync(`/proc/${pid}/task`)) {
      const children = readFileSync(`/proc/${pid}/task/${task}/children`, 'utf8').trim();
      for (const child of children ? children.split(/\s+/) : []) pids.push(...processTree(Number(child)));
    }
  } catch {
    // Gone meanwhile: what was read stands.
  }
  return pids;
}

/**
 * CPU ms used so far by a process and its descendants (Linux /proc), or null elsewhere; with
 * `mainThreads`, by their main threads only.
 */
export function treeCpuMs(pid: number | undefined, mainThreads = false): number | null {
  if (pid === undefined || !existsSync(`/proc/${pid}/stat`)) return null;
  const tick = 10; // USER_HZ is 100 on Linux
  let total = 0;
  for (const p of processTree(pid)) {
    try {
      const fields = readFileSync(mainThreads ? `/proc/${p}/task/${p}/stat` : `/proc/${p}/stat`, 'utf8').split(') ')[1]!.split(' ');
      total += (Number(fields[11]) + Number(fields[12])) * tick;
    } catch {
      // Exited meanwhile.
    }
  }
  return total;
}

/**
 * The resident memory of a server: of the largest process of its tree (the server itself; its tsx
 * launcher is small). Null where /proc is not there.
 */
export function serverMemoryMb(pid: number | undefined): ServerMemory | null {
  if (pid === undefined || !existsSync(`/proc/${pid}/status`)) return null;
  let largest: ServerMemory | null = null;
  for (const p of processTree(pid)) {
    try {
      const status = readFileSync(`/proc/${p}/status`, 'utf8');
      const kb = (field: string) => Number(new RegExp(`^${field}:\\s+(\\d+) kB`, 'm').exec(status)?.[1] ?? 0);
      const rssMb = Math.round(kb('VmRSS') / 1024);
      if (!largest || rssMb > largest.rssMb) largest = { rssMb, peakRssMb: Math.round(kb('VmHWM') / 1024) };
    } catch {
      // Exited meanwhile.
    }
  }
  return largest;
}

/** A load's results, with the CPU each side spent per answer and the server's memory after it. */
type LoadRun = { results: LoadResult[]; clientCpuUs: number } & Pick<LoadFigure, 'serverCpuUs' | 'serverMainThreadCpuUs' | 'serverMemory'>;

/** Runs a load and adds the CPU each side spent per answer (and, with one server, its memory after it). */
async function withCpu(
  servers: Child[],
  run: () => Promise<LoadResult[]>,
): Promise<LoadRun> {
  const before = servers.map((child) => treeCpuMs(child.pid));
  const mainBefore = servers.map((child) => treeCpuMs(child.pid, true));
  const client = process.cpuUsage();
  const results = await run();
  const clientUs = process.cpuUsage(client);
  const answers = results.reduce((sum, r) => sum + r.requests.total, 0) || 1;
  const after = servers.map((child) => treeCpuMs(child.pid));
  const mainAfter = servers.map((child) => treeCpuMs(child.pid, true));
  const spent = (from: (number | null)[], to: (number | null)[]) =>
    from.every((b) => b !== null) && to.every((a) => a !== null) ? to.reduce<number>((sum, a, i) => sum + a! - from[i]!, 0) : null;
  const serverMs = spent(before, after);
  const mainMs = spent(mainBefore, mainAfter);
  const memory = servers.length === 1 ? serverMemoryMb(servers[0]!.pid) : null;
  return {
    results,
    ...(memory !== null && { serverMemory: memory }),
    ...(serverMs !== null && { serverCpuUs: Math.round((serverMs * 1000) / answers) }),
    ...(mainMs !== null && { serverMainThreadCpuUs: Math.round((mainMs * 1000) / answers) }),
    clientCpuUs: Math.round((clientUs.user + clientUs.system) / answers),
  };
}

/** Starts a process and waits for the line `ready` matches on its stdout; group 1 is the URL or port. */
function startChild(args: string[], env: Record<string, string>, ready: RegExp): Promise<Child & { match: string }> {
  const child: ChildProcess = spawn(tsx, args, { cwd: root, env: { ...process.env, ...env }, stdio: ['ignore', 'pipe', 'pipe'] });
  let output = '';
  return new Promise((resolve, reject) => {
    const onData = (chunk: Buffer) => {
      output += chunk.toString();
      const m = ready.exec(output);
      if (m) {
        child.stdout?.off('data', onData);
        child.stdout?.resume();
        resolve({
          url: '',
          ...(child.pid !== undefined && { pid: child.pid }),
          match: m[1]!,
          stop: () =>
            new Promise<void>((done) => {
              if (child.exitCode !== null || child.signalCode !== null) return done();
              child.once('exit', () => done());
              child.kill('SIGTERM');
            }),
        });
      }
    };
    child.stdout?.on('data', onData);
    child.stderr?.on('data', (chunk: Buffer) => (output += chunk.toString()));
    child.once('exit', (code) => reject(new Error(`${args.join(' ')} exited with ${code}:\n${output}`)));
  });
}

/**
 * An API process with the app's defaults (projections on a thread of their own, the event store's
 * commits on the event loop), or with PROJECTIONS=off beside a worker. PROJECTIONS and EVENT_STORE_WRITER set
 * in the bench's environment reach the servers, e.g. `PROJECTIONS=inline EVENT_STORE_WRITER=inline`
 * for everything on the event loop.
 */
export async function startApi(dataDir: string, seed: boolean, env: Record<string, string> = {}): Promise<Child> {
  const child = await startChild(
    ['apps/api/src/main.ts'],
    // 64 bench users register from one address: lift the per-address registration throttle.
    {
      PORT: '0',
      HOST: '127.0.0.1',
      DATA_DIR: dataDir,
      SEED_DEMO: seed ? 'true' : 'false',
      WEB_DIST: '',
      REGISTRATIONS_PER_HOUR: '1000000',
      ...env,
    },
    /Kamai is running at (\S+)/,
  );
  return { url: child.match, ...(child.pid !== undefined && { pid: child.pid }), stop: child.stop };
}

/** Waits until the API's read models have applied every event the log held when asked (GET /api/health). */
export async function caughtUp(url: string, timeoutMs = 120_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const health = (await (await fetch(`${url}/api/health`)).json()) as HealthBody;
    if (health.position >= health.head) return;
    if (Date.now() > deadline) throw new Error(`${url}: read models at ${health.position} of ${health.head} after ${timeoutMs} ms`);
    await new Promise((resolve) => setTimeout(resolve, 25));
  }
}

async function startBare(readDb: string, userId: string): Promise<Child> {
  const child = await startChild(['scripts/src/bench/bare-server.ts', readDb, userId], {}, /listening (\d+)/);
  return { url: `http://127.0.0.1:${child.match}`, ...(child.pid !== undefined && { pid: child.pid }), stop: child.stop };
}

async function call(url: string, path: string, init: { method?: string; body?: unknown; cookie?: string } = {}) {
  const res = await fetch(url + path, {
    method: init.method ?? 'GET',
    // State-changing requests must name the app's own origin (cross-site protection).
    headers: { 'content-type': 'application/json', origin: url, ...(init.cookie ? { cookie: init.cookie } : {}) },
    body: init.body === undefined ? undefined : JSON.stringify(init.body),
  });
  const text = await res.text();
  if (!res.ok) throw new Error(`${init.method ?? 'GET'} ${path}: ${res.status} ${text}`);
  const cookie = res.headers.getSetCookie().map((c) => c.split(';')[0]).join('; ');
  return { body: JSON.parse(text) as Record<string, unknown>, cookie };
}

function figure(result: LoadResult): LoadFigure {
  return {
    perSecond: Math.round(result.requests.average),
    p50: result.latency.p50,
    p99: result.latency.p99,
    failures: result.non2xx + result.errors + result.timeouts,
  };
}

/**
 * A run's figure with its CPU. Loads run side by side (one per server) make one figure: answers
 * added, the worse latency.
 */
function measured(run: LoadRun): LoadFigure {
  const figures = run.results.map(figure);
  return {
    perSecond: Math.round(run.results.reduce((sum, r) => sum + r.requests.average, 0)),
    p50: Math.max(...figures.map((f) => f.p50)),
    p99: Math.max(...figures.map((f) => f.p99)),
    failures: figures.reduce((sum, f) => sum + f.failures, 0),
    ...(run.serverCpuUs !== undefined && { serverCpuUs: run.serverCpuUs }),
    ...(run.serverMainThreadCpuUs !== undefined && { serverMainThreadCpuUs: run.serverMainThreadCpuUs }),
    ...(run.serverMemory !== undefined && { serverMemory: run.serverMemory }),
    clientCpuUs: run.clientCpuUs,
  };
}

/**
 * Each connection one signed-in user, each user on one connection: setupClient runs once per
 * connection and its request is encoded once. A setupRequest hook rebuilt every request (some 15 µs
 * more client CPU per withdrawal answer, taken from the servers on 2 cores) and, its context being
 * reset before each request, tied users to requests, not connections. One instance keeps one latency
 * histogram: percentiles of all answers, not a max of per-user ones as one instance per user gives.
 */
function perConnection(cookies: string[], request: LoadRequest): Pick<LoadOptions, 'connections' | 'requests' | 'setupClient'> {
  let next = 0;
  return {
    connections: cookies.length,
    requests: [request],
    setupClient: (client) => client.setRequests([{ ...request, headers: { ...request.headers, cookie: cookies[next++]! } }]),
  };
}

/**
 * Withdrawals of ₹100 to a UPI id, one connection per user (`cookies`), each going round its own
 * prepared request. `origin` is the server's own address: it checks the Origin of every write.
 */
export function withdrawals(origin: string, cookies: string[]): Pick<LoadOptions, 'connections' | 'requests' | 'setupClient'> {
  return perConnection(cookies, {
    method: 'POST',
    path: '/api/withdrawals',
    headers: { 'content-type': 'application/json', origin },
    body: JSON.stringify({ amount: '100.00', upiId: 'bench@okhdfc' }),
  });
}

/** The run with the median answers per second. */
export function middle(runs: LoadFigure[]): LoadFigure {
  const sorted = [...runs].sort((a, b) => a.perSecond - b.perSecond);
  const found = sorted[Math.floor(sorted.length / 2)];
  if (!found) throw new Error('no runs');
  return found;
}

export function spread(runs: number[]): Spread {
  const sorted = [...runs].sort((a, b) => a - b);
  return { runs, min: sorted[0] ?? 0, median: sorted[Math.floor(sorted.length / 2)] ?? 0, max: sorted.at(-1) ?? 0 };
}

/**
 * `count` users registered on a demo-seeded API (mobiles from `firstMobile` on), each with a session and a float to withdraw from:
 * their session cookies, and the first one's id. The float (`float` rupees, by default ₹10 lakh, some 10,000 withdrawals) is one
 * adjustment per user, above the default four-eyes threshold and, summed over the users, above a
 * member's default daily limit, so the demo admins first raise both for this throwaway data
 * directory (a control setting: one asks, the other approves; a version without that control takes
 * the change at once).
 */
export async function fundedUsers(url: string, count: number, firstMobile = 7_100_000_000, float = '1000000.00'): Promise<{ cookies: string[]; firstUserId: string }> {
  const finance = await call(url, '/api/auth/login', { method: 'POST', body: { mobile: '9000000004', password: 'finance1234' } });
  const admin = await call(url, '/api/auth/login', { method: 'POST', body: { mobile: '9000000002', password: 'admin1234' } });
  const asked = await call(url, '/api/admin/settings', {
    method: 'PUT',
    cookie: admin.cookie,
    body: { adjustmentApprovalThreshold: '99999999.00', memberDailyAdjustmentLimit: '99999999.00' },
  });
  const request = asked.body.request as { id: string } | undefined;
  if (request) {
    const admin2 = await call(url, '/api/auth/login', { method: 'POST', body: { mobile: '9000000005', password: 'admin21234' } });
    await call(url, `/api/admin/settings/requests/${request.id}/approve`, { method: 'POST', cookie: admin2.cookie, body: {} });
  }
  const cookies: string[] = [];
  let firstUserId = '';
  for (let i = 0; i < count; i++) {
    const mobile = String(firstMobile + i);
    const registered = await call(url, '/api/auth/register', {
      method: 'POST',
      body: { mobile, password: 'bench-password-1', firstName: 'Bench', lastName: `User${i}`, consent: true },
    });
    firstUserId ||= String(registered.body.id);
    cookies.push(registered.cookie);
    await call(url, '/api/admin/adjustments', { method: 'POST', cookie: finance.cookie, body: { mobile, amount: float, direction: 'credit', reason: 'Benchmark float' } });
  }
  return { cookies, firstUserId };
}

export async function benchHttp(options: { seconds?: number; rounds?: number; log?: (line: string) => void } = {}): Promise<BenchHttpResult> {
  const seconds = options.seconds ?? 5;
  const rounds = options.rounds ?? 3;
  const log = options.log ?? console.log;
  const dir = mkdtempSync(join(tmpdir(), 'kamai-bench-http-'));
  const children: Child[] = [];
  try {
    const api = await startApi(dir, true);
    children.push(api);
    const { cookies, firstUserId: userId } = await fundedUsers(api.url, 64);
    log(`  64 users registered and funded; ${seconds} s per run, 64 connections`);

    const bare = await startBare(join(dir, 'read.sqlite'), userId);
    children.push(bare);
    const withdraw = (origin: string, users = cookies) => withdrawals(origin, users);
    // Readers and writers are different users: the first 32 read, the other 32 move money.
    const readers = cookies.slice(0, 32);
    const writers = cookies.slice(32);
    const runBare = () => withCpu([bare], async () => [await autocannon({ url: `${bare.url}/user`, connections: 64, duration: seconds })]);
    // One prepared request per user, each connection going round them: like the bare peer's, the
    // requests are built once, not per request (a setupRequest hook rebuilds each request and
    // deep-copies its context, which doubled the load generator's CPU per answer).
    const runAuthUser = () =>
      withCpu([api], async () => [
        await autocannon({ url: api.url, connections: 64, duration: seconds, requests: readers.map((cookie) => ({ method: 'GET', path: '/api/auth/user', headers: { cookie } })) }),
      ]);
    let writesPerSecond = Number.POSITIVE_INFINITY;
    /** A run with 100 withdrawals a second written to the API meanwhile (each waits for its read model). */
    const underWrites = async (run: typeof runBare) => {
      const writing = autocannon({ url: api.url, duration: seconds, overallRate: 100, ...withdraw(api.url, writers.slice(0, 8)) });
      const [result] = await Promise.all([run(), writing.then((w) => (writesPerSecond = Math.min(writesPerSecond, w.requests.average)))]);
      return result;
    };
    // A B B A, `rounds` times, then the same under writes: the machine's drift falls on both alike.
    const idle = { bare: [] as number[], auth: [] as number[] };
    const busy = { bare: [] as number[], auth: [] as number[] };
    let bareFigure: LoadFigure | undefined;
    let authUser: LoadFigure | undefined;
    const plain = (run: typeof runBare) => run();
    for (const [into, wrap] of [[idle, plain], [busy, underWrites]] as const) {
      for (let round = 0; round < rounds; round++) {
        for (const which of ['bare', 'auth', 'auth', 'bare'] as const) {
          const figure = measured(await wrap(which === 'bare' ? runBare : runAuthUser));
          into[which].push(figure.perSecond);
          if (into === idle && which === 'bare') bareFigure = figure;
          if (into === idle && which === 'auth') authUser = figure;
        }
      }
      log(`  ${into === idle ? 'idle' : 'under 100 withdrawals/s'}: bare ${into.bare.join(', ')}/s; GET /api/auth/user ${into.auth.join(', ')}/s`);
    }
    await bare.stop();
    if (!bareFigure || !authUser) throw new Error('no read runs');
    const apiMemoryAfterReads = serverMemoryMb(api.pid);
    await api.stop();

    // The writer-thread decision: one API process with the event store's commits on its event loop
    // (inline, the default) or on a thread of its own, each run a new process on the same data, A B B A.
    const writerRuns = { inline: [] as LoadFigure[], thread: [] as LoadFigure[] };
    for (let round = 0; round < rounds; round++) {
      for (const writer of ['inline', 'thread', 'thread', 'inline'] as const) {
        const one = await startApi(dir, false, { EVENT_STORE_WRITER: writer });
        try {
          writerRuns[writer].push(measured(await withCpu([one], async () => [await autocannon({ url: one.url, duration: seconds, ...withdraw(one.url) })])));
        } finally {
          await one.stop();
        }
      }
    }
    log(`  withdrawals, 1 process: inline ${writerRuns.inline.map((f) => f.perSecond).join(', ')}/s; writer thread ${writerRuns.thread.map((f) => f.perSecond).join(', ')}/s`);
    const withdrawalsOne = middle(writerRuns.inline);
    const restarted = await startApi(dir, false);
    children.push(restarted);

    // A second process on the same data directory; the 64 connections are split between the two,
    // and so are the 64 users: each user on one connection, as with one process (a user's requests
    // going to one process, as a sticky load balancer sends them). Sharing 32 users between the
    // two would measure cross-process conflicts on every stream instead.
    const second = await startApi(dir, false);
    children.push(second);
    const halves = [cookies.slice(0, 32), cookies.slice(32)];
    const two = await withCpu([restarted, second], () =>
      Promise.all([restarted.url, second.url].map((url, i) => autocannon({ url, duration: seconds, ...withdraw(url, halves[i]) }))),
    );
    const withdrawalsTwo = measured(two);

    // How several API processes would be deployed on one data directory: the projections run once,
    // in a worker, and the API processes wait on its checkpoints.
    await second.stop();
    await restarted.stop();
    const worker = await startChild(['apps/api/src/worker.ts'], { DATA_DIR: dir }, /projection worker is (running)/);
    children.push(worker);
    const offA = await startApi(dir, false, { PROJECTIONS: 'off' });
    children.push(offA);
    const offB = await startApi(dir, false, { PROJECTIONS: 'off' });
    children.push(offB);
    const withWorker = await withCpu([offA, offB, worker], () =>
      Promise.all([offA.url, offB.url].map((url, i) => autocannon({ url, duration: seconds, ...withdraw(url, halves[i]) }))),
    );
    const withdrawalsTwoWithWorker = measured(withWorker);
    return {
      bare: bareFigure,
      authUser,
      bareRounds: spread(idle.bare),
      authUserRounds: spread(idle.auth),
      bareUnderWrites: spread(busy.bare),
      authUserUnderWrites: spread(busy.auth),
      writesPerSecond: Math.round(writesPerSecond),
      apiMemoryAfterReads,
      withdrawalsInline: writerRuns.inline,
      withdrawalsThread: writerRuns.thread,
      withdrawalsOne, withdrawalsTwo, withdrawalsTwoWithWorker };
  } finally {
    for (const child of children) await child.stop();
    rmSync(dir, { recursive: true, force: true });
  }
}

/**
 * The JavaScript a first visit loads before it can render: the entry script of index.html and
 * every module it preloads, each gzipped (level 6, as the server compresses). Null when unbuilt.
 */
export function initialJsGzipBytes(dist = join(root, 'apps/web/dist')): { files: number; raw: number; gzip: number } | null {
  const index = join(dist, 'index.html');
  if (!existsSync(index)) return null;
  const html = readFileSync(index, 'utf8');
  const srcs = [...html.matchAll(/<script[^>]*\bsrc="([^"]+\.js)"|<link[^>]*rel="modulepreload"[^>]*href="([^"]+\.js)"/g)].map((m) => m[1] ?? m[2]!);
  let raw = 0;
  let gzip = 0;
  for (const src of new Set(srcs)) {
    const bytes = readFileSync(join(dist, src.replace(/^\//, '')));
    raw += bytes.length;
    gzip += gzipSync(bytes, { level: 6 }).length;
  }
  return { files: new Set(srcs).size, raw, gzip };
}

if (process.argv[1] && import.meta.url === pathToFileURL(process.argv[1]).href) {
  const i = process.argv.indexOf('--seconds');
  console.log(await benchHttp({ seconds: i > 0 ? Number(process.argv[i + 1]) : undefined }));
  console.log(initialJsGzipBytes());
}
