/**
 * How fast the read models rebuild, and what a rebuild does to an app serving the same data.
 *
 * A fresh SQLite event store is filled with a realistic mix (registrations, rewards, fees,
 * notifications and their reads, profile edits), then:
 *   1. every read model is built from position zero (nobody else on the data), `--builds` times
 *      (default 1), each into an empty read database: events/s and CPU an event, the median build's;
 *   2. the API starts as its own OS process on that data directory (PROJECTIONS=inline), and every
 *      read model is rebuilt again, aside and swapped in, while clients read and write through the
 *      API: events/s, peak RSS of the rebuilding process, the slowest request (the app's longest
 *      stall as a client sees it) and the requests that failed.
 *
 * Both builds read the store as `npm run cli -- rebuild-read-models` does: on a thread of their own
 * (apps/api/src/projections/read-ahead.ts) beside the one that applies the events.
 *
 * With --each, every read model is then also built alone from zero, and the store read alone, each
 * with its CPU per event: where a build's time goes, projection by projection (each built aside, as
 * any rebuild: the rows it replaces are dropped after the swap, within its figure; each read on the
 * build's own thread, so that reading is the same for all).
 *
 * With --models, step 1 builds only the read models named (e.g. `--models wallet,webhooks`: what a
 * version bump of those rebuilds, reading on a thread of its own, which opens only the sealed fields
 * they read).
 *
 *   node_modules/.bin/tsx scripts/src/bench/rebuild.ts [--events 1000000] [--builds 3] [--no-serve] [--each] [--models a,b] [--json]
 */
import { spawn } from 'node:child_process';
import { randomUUID } from 'node:crypto';
import { once } from 'node:events';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createInterface } from 'node:readline';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { openSealedSqliteStore, readAheadFor } from '@kamai/api';
import { type ApiProcess, TestClient, freshMobile, startApiProcess } from '@kamai/api/testing';
import type { KamaiEvent } from '@kamai/contracts';
import type { NewEvent } from '@kamai/domain';
import { type ReadDbHandle, allProjections, openReadDb, rebuildReadModels } from '@kamai/projections';

export interface BenchRebuildResult {
  events: number;
  fillSeconds: number;
  /** Step 1: every read model from zero, nobody else on the data (the median build of `builds`). */
  coldSeconds: number;
  coldEventsPerSecond: number;
  /** Each build of step 1, in the order run: events/s and CPU µs an event (all threads). */
  builds: Array<{ eventsPerSecond: number; cpuMicrosPerEvent: number }>;
  /**
   * CPU time (user + system) of this process per event in step 1, in µs: steadier than events/s on
   * a machine others share, for comparing two versions of the code.
   */
  coldCpuMicrosPerEvent: number;
  /**
   * The same for this thread alone, the one that applies the events (the reader and checkpointer
   * threads left out): what 100,000 events/s needs to be 10 µs. Null where /proc is not there.
   */
  coldApplyingCpuMicrosPerEvent: number | null;
  /**
   * With `each`: CPU µs per event of reading the store alone (what every build pays), then of each
   * read model built alone from zero (reading included).
   */
  each: { readOnlyCpuMicrosPerEvent: number; projections: Array<{ name: string; cpuMicrosPerEvent: number }> } | null;
  /** Step 2: the same while an API process serves the data (null with serve: false). */
  serving: {
    rebuildSeconds: number;
    eventsPerSecond: number;
    /** Peak resident memory of the rebuilding process during the rebuild, in MB. */
    peakRssMb: number;
    requests: number;
    /** Requests answered with a 5xx, or not at all. */
    failedRequests: number;
    /** The slowest request during the rebuild, in ms. */
    longestRequestMs: number;
    /** The API process's read models still follow the store afterwards (/api/health 200). */
    healthyAfter: boolean;
  } | null;
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
        events.push({ type: 'WalletCredited', data: { entryId: id, amountPaise: 2500, kind: 'task_reward', params: { taskTitle: 'Rate the app' }, taskId: 't1', creditedAt: now } });
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

/** Samples this process's resident memory while `work` runs; returns its result and the peak in MB. */
async function withPeakRss<T>(work: () => Promise<T>): Promise<{ result: T; peakRssMb: number }> {
  let peak = process.memoryUsage().rss;
  const timer = setInterval(() => (peak = Math.max(peak, process.memoryUsage().rss)), 50);
  try {
    const result = await work();
    peak = Math.max(peak, process.memoryUsage().rss);
    return { result, peakRssMb: Math.round(peak / 1024 / 1024) };
  } finally {
    clearInterval(timer);
  }
}

/** Clients reading (and one writing) through the API until `until` resolves. */
async function loadDuring(api: ApiProcess, until: Promise<unknown>) {
  const client = new TestClient(api.url);
  const signUp = await client.post('/api/auth/register', { mobile: freshMobile(), password: 'secret123', firstName: 'Bench', lastName: 'Reader', consent: true });
  if (signUp.status !== 201) throw new Error(`sign-up failed: ${signUp.status}`);
  let done = false;
  void until.finally(() => (done = true));
  let requests = 0;
  let failed = 0;
  let longest = 0;
  const timed = async (request: () => Promise<{ status: number }>) => {
    const started = performance.now();
    try {
      const res = await request();
      if (res.status >= 500) failed += 1;
    } catch {
      failed += 1;
    }
    requests += 1;
    longest = Math.max(longest, performance.now() - started);
  };
  const reader = async () => {
    while (!done) {
      await timed(() => client.get('/api/auth/user'));
      await timed(() => client.get('/api/transactions'));
      await timed(() => client.get('/api/tasks'));
    }
  };
  const writer = async () => {
    for (let i = 0; !done; i++) {
      await timed(() => client.put('/api/profile', { firstName: `Bench${i}` }));
      await new Promise((r) => setTimeout(r, 20));
    }
  };
  await Promise.all([reader(), reader(), writer()]);
  return { requests, failed, longestMs: Math.round(longest) };
}

/** This thread's CPU time so far in µs (Linux: the main thread's task has the process's id), or null. */
function mainThreadCpuMicros(): number | null {
  try {
    // Fields 14 and 15 of stat, after the command's closing parenthesis: utime and stime in clock ticks (100 a second).
    const fields = readFileSync(`/proc/self/task/${process.pid}/stat`, 'utf8').split(') ')[1]!.split(' ');
    return (Number(fields[11]) + Number(fields[12])) * 10_000;
  } catch {
    return null;
  }
}

/** CPU µs per event of `work`, in this process (every thread). */
async function cpuPerEvent(work: () => Promise<number>): Promise<number> {
  const before = process.cpuUsage();
  const events = await work();
  const cpu = process.cpuUsage(before);
  return Number(((cpu.user + cpu.system) / events).toFixed(1));
}

/** Reading the whole store alone, then each read model built alone from zero, each with its CPU per event. */
async function eachAlone(db: ReadDbHandle, store: ReturnType<typeof openSealedSqliteStore>, log: (line: string) => void) {
  const readOnlyCpuMicrosPerEvent = await cpuPerEvent(async () => {
    let after = 0;
    let events = 0;
    for (;;) {
      const page = await store.readAll({ after, limit: 5000 });
      if (page.length === 0) return events;
      events += page.length;
      after = page.at(-1)!.position;
    }
  });
  log(`  reading the store alone: ${readOnlyCpuMicrosPerEvent} µs of CPU per event`);
  const projections: Array<{ name: string; cpuMicrosPerEvent: number }> = [];
  for (const projection of allProjections) {
    // Read on this thread, as the figure above: each figure less that one is the read model's own.
    const cpuMicrosPerEvent = await cpuPerEvent(async () => (await rebuildReadModels(db, store, [projection])).events);
    projections.push({ name: projection.name, cpuMicrosPerEvent });
    log(`  ${projection.name} alone: ${cpuMicrosPerEvent} µs of CPU per event (${(cpuMicrosPerEvent - readOnlyCpuMicrosPerEvent).toFixed(1)} beyond reading)`);
  }
  return { readOnlyCpuMicrosPerEvent, projections };
}

interface BuildFromZero {
  events: number;
  seconds: number;
  eventsPerSecond: number;
  cpuMicrosPerEvent: number;
  applyingCpuMicrosPerEvent: number | null;
}

/** `models` built from zero into `db`, read as the CLI reads (a thread of its own), with the CPU it took. */
async function buildFromZero(db: ReadDbHandle, store: ReturnType<typeof openSealedSqliteStore>, models: typeof allProjections): Promise<BuildFromZero> {
  const cpuBefore = process.cpuUsage();
  const threadBefore = mainThreadCpuMicros();
  const { events, seconds } = await rebuildReadModels(db, store, models, { readAhead: readAheadFor(store) });
  const cpu = process.cpuUsage(cpuBefore);
  const threadAfter = mainThreadCpuMicros();
  return {
    events,
    seconds,
    eventsPerSecond: Math.round(events / seconds),
    cpuMicrosPerEvent: Number(((cpu.user + cpu.system) / events).toFixed(1)),
    applyingCpuMicrosPerEvent: threadBefore === null || threadAfter === null ? null : Number(((threadAfter - threadBefore) / events).toFixed(1)),
  };
}

export async function benchRebuild(
  options: { events?: number; builds?: number; serve?: boolean; each?: boolean; models?: readonly string[]; log?: (line: string) => void } = {},
): Promise<BenchRebuildResult> {
  const target = options.events ?? 1_000_000;
  const log = options.log ?? console.log;
  const dir = mkdtempSync(join(tmpdir(), 'kamai-bench-rebuild-'));
  // As the server opens it: personal fields sealed, so a rebuild pays for opening them.
  const store = openSealedSqliteStore(join(dir, 'events.sqlite'));
  const db = await openReadDb(join(dir, 'read.sqlite'));
  let api: ApiProcess | null = null;
  try {
    const now = new Date().toISOString();
    const users = Math.ceil(target / EVENTS_PER_USER);
    const fillStarted = performance.now();
    // 64 appends in flight: the store's group commit writes them in shared transactions.
    for (let i = 0; i < users; i += 64) {
      await Promise.all(
        Array.from({ length: Math.min(64, users - i) }, (_, j) => {
          const userId = randomUUID();
          const events: NewEvent[] = userHistory(userId, i + j, now).map((e) => ({ id: randomUUID(), type: e.type, data: e.data as NewEvent['data'] }));
          return store.append(`user-${userId}`, events, 'no_stream');
        }),
      );
    }
    const fillSeconds = (performance.now() - fillStarted) / 1000;
    const total = await store.headPosition();
    log(`filled the store with ${total} events for ${users} users in ${fillSeconds.toFixed(1)} s`);

    const models = options.models ? allProjections.filter((p) => options.models!.includes(p.name)) : allProjections;
    if (models.length === 0) throw new Error(`no read model named ${options.models?.join(', ')}`);
    // Each build from zero into an empty read database (the last into the one an API serves in step 2):
    // several builds give the figure a spread, on a machine whose speed swings from minute to minute.
    const builds: Array<BuildFromZero> = [];
    for (let i = 1; i <= (options.builds ?? 1); i++) {
      const last = i === (options.builds ?? 1);
      const into = last ? db : await openReadDb(join(dir, `read-from-zero-${i}.sqlite`));
      try {
        builds.push(await buildFromZero(into, store, models));
      } finally {
        if (!last) await into.destroy();
      }
      const b = builds.at(-1)!;
      log(
        `built ${options.models ? models.map((p) => p.name).join(', ') : 'every read model'} from zero, ${b.events} events in ${b.seconds.toFixed(2)} s: ${b.eventsPerSecond} events/s ` +
          `(${b.cpuMicrosPerEvent} µs of CPU per event, ${b.applyingCpuMicrosPerEvent ?? '?'} µs of it on the applying thread)`,
      );
    }
    const cold = [...builds].sort((a, b) => a.eventsPerSecond - b.eventsPerSecond)[Math.floor(builds.length / 2)]!;
    const coldEventsPerSecond = cold.eventsPerSecond;
    const coldCpuMicrosPerEvent = cold.cpuMicrosPerEvent;
    const coldApplyingCpuMicrosPerEvent = cold.applyingCpuMicrosPerEvent;

    const each = options.each ? await eachAlone(db, store, log) : null;

    let serving: BenchRebuildResult['serving'] = null;
    if (options.serve ?? true) {
      api = await startApiProcess(dir, { PROJECTIONS: 'inline' });
      const rebuild = withPeakRss(() => rebuildReadModels(db, store, allProjections, { readAhead: readAheadFor(store) }));
      const load = await loadDuring(api, rebuild);
      const { result, peakRssMb } = await rebuild;
      const healthyAfter = (await fetch(`${api.url}/api/health`)).status === 200;
      serving = {
        rebuildSeconds: result.seconds,
        eventsPerSecond: Math.round(result.events / result.seconds),
        peakRssMb,
        requests: load.requests,
        failedRequests: load.failed,
        longestRequestMs: load.longestMs,
        healthyAfter,
      };
      log(
        `rebuilt every read model aside while an API process served the data: ${result.events} events in ${result.seconds.toFixed(2)} s: ` +
          `${serving.eventsPerSecond} events/s, peak RSS ${peakRssMb} MB; the API answered ${load.requests} requests, ${load.failed} failed, ` +
          `slowest ${load.longestMs} ms; health afterwards ${healthyAfter ? 'ok' : 'DEGRADED'}`,
      );
    }
    return {
      events: cold.events,
      fillSeconds,
      coldSeconds: cold.seconds,
      coldEventsPerSecond,
      builds: builds.map((b) => ({ eventsPerSecond: b.eventsPerSecond, cpuMicrosPerEvent: b.cpuMicrosPerEvent })),
      coldCpuMicrosPerEvent,
      coldApplyingCpuMicrosPerEvent,
      each,
      serving,
    };
  } finally {
    await api?.stop();
    await db.destroy();
    await store.close();
    rmSync(dir, { recursive: true, force: true });
  }
}

/**
 * Runs the rebuild in a Node process of its own, as the bench does, so its figure does not depend on
 * the parts run before it (in the bench's own process after the waiting part, builds gave 68-76k
 * events/s where fresh processes gave 112-115k: docs/figures.md). Its lines go to `log`; its figures
 * come back as JSON.
 */
export async function benchRebuildInOwnProcess(options: { events: number; builds: number; log: (line: string) => void }): Promise<BenchRebuildResult> {
  const child = spawn(process.execPath, ['--import', 'tsx', fileURLToPath(import.meta.url), '--events', String(options.events), '--builds', String(options.builds), '--json'], {
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let out = '';
  child.stdout.setEncoding('utf8').on('data', (chunk: string) => (out += chunk));
  createInterface({ input: child.stderr }).on('line', options.log);
  // 'close', not 'exit': the child's stdout may still hold the JSON when it exits.
  const [code] = (await once(child, 'close')) as [number | null];
  if (code !== 0) throw new Error(`the rebuild process exited with ${code}`);
  return JSON.parse(out) as BenchRebuildResult;
}

if (import.meta.url === pathToFileURL(process.argv[1] ?? '').href) {
  const i = process.argv.indexOf('--events');
  const m = process.argv.indexOf('--models');
  const b = process.argv.indexOf('--builds');
  // --json: the figures on stdout for the bench, what happens on stderr.
  const json = process.argv.includes('--json');
  const result = await benchRebuild({
    models: m > 0 ? process.argv[m + 1]!.split(',') : undefined,
    events: i > 0 ? Number(process.argv[i + 1]) : undefined,
    builds: b > 0 ? Number(process.argv[b + 1]) : undefined,
    serve: !process.argv.includes('--no-serve'),
    each: process.argv.includes('--each'),
    log: json ? (line) => console.error(line) : undefined,
  });
  if (json) process.stdout.write(`${JSON.stringify(result)}\n`);
}
