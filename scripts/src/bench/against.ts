/**
 * `npm run bench -- --against DIR`: POST /api/withdrawals of this checkout against another checkout
 * of Kamai (DIR, installed: e.g. `git worktree add ../kamai-old <commit>` and `npm install` there),
 * on this machine, in rounds of A B B A. Each side prepares one data directory (demo seeded, 64
 * users with a float); every run starts from a fresh copy of it, with that side's server as
 * `npm start` runs it (default logging), warms it with WARMUP_ANSWERS withdrawals and measures the
 * next MEASURED_ANSWERS: answers a second, and the CPU per answer of the server process, all threads
 * together and per thread (from /proc), so a change of where the work runs (the event loop, the
 * read-model thread, the garbage collector's helpers) shows.
 *
 * Why a fixed number of answers from the same copy, not a fixed time on a growing directory: each
 * withdrawal stays unpaid and the cost of the next grows with them (decision state, read-model
 * indexes), so with fixed time the side that answered more in one run started its next one on more
 * history, and a 10 % difference drowned in that and in the machine's drift. Now every run of
 * either side does the same work on the same state, and a round's two sides are neighbours in time:
 * the ratio of each round's pair is printed, and their median is the figure.
 */
import { spawn } from 'node:child_process';
import { cpSync, mkdtempSync, readFileSync, readdirSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import autocannon from 'autocannon';
import { fundedUsers } from './http.ts';

const USERS = 64;
/** Withdrawals answered before the measured ones: code compiled, caches and pools filled. */
export const WARMUP_ANSWERS = 3_000;
/** Withdrawals measured per run: about ten seconds of this machine's throughput. */
export const MEASURED_ANSWERS = 12_000;
const TICKS_PER_SECOND = 100; // USER_HZ on Linux

export interface AgainstRun {
  side: 'this' | 'other';
  perSecond: number;
  p99: number;
  failures: number;
  /** CPU per answer of the whole server process, µs. */
  cpuUs: number;
  /** CPU per answer of each of its threads that used any, µs, the main thread first. */
  threadsUs: number[];
}

/** utime + stime of each thread of `pid`, in seconds, by thread id. */
function threadCpu(pid: number): Map<string, number> {
  const out = new Map<string, number>();
  for (const tid of readdirSync(`/proc/${pid}/task`)) {
    try {
      const stat = readFileSync(`/proc/${pid}/task/${tid}/stat`, 'utf8');
      const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
      out.set(tid, (Number(fields[11]) + Number(fields[12])) / TICKS_PER_SECOND);
    } catch {
      // the thread ended meanwhile
    }
  }
  return out;
}

/**
 * A server of the checkout at `root`, as node with tsx as a loader rather than http.ts's startApi
 * (the tsx CLI, this checkout's): the pid is then the server's own, whose threads are measured.
 */
async function startServer(root: string, dataDir: string, seed: boolean) {
  const child = spawn(process.execPath, ['--import', 'tsx', 'apps/api/src/main.ts'], {
    cwd: root,
    stdio: ['ignore', 'pipe', 'pipe'],
    env: { ...process.env, PORT: '0', HOST: '127.0.0.1', DATA_DIR: dataDir, SEED_DEMO: seed ? 'true' : 'false', WEB_DIST: '', REGISTRATIONS_PER_HOUR: '1000000' },
  });
  child.stderr!.resume();
  const url = await new Promise<string>((found, failed) => {
    let head = '';
    const onData = (chunk: Buffer) => {
      head += chunk;
      const match = /Kamai is running at (\S+)/.exec(head);
      if (match) {
        // The request log keeps coming: read and dropped from here on.
        child.stdout!.off('data', onData);
        child.stdout!.resume();
        found(match[1]!);
      } else if (head.length > 1_000_000) head = head.slice(-10_000);
    };
    child.stdout!.on('data', onData);
    child.once('exit', (code) => failed(new Error(`the server in ${root} exited (${code}) before it listened`)));
  });
  return { url, pid: child.pid!, stop: () => new Promise<void>((done) => (child.exitCode !== null ? done() : (child.once('exit', () => done()), child.kill('SIGTERM')))) };
}

/** A seeded data directory with USERS users holding a float, and their session cookies. */
async function prepare(root: string) {
  const dataDir = mkdtempSync(join(tmpdir(), 'kamai-against-'));
  const api = await startServer(root, dataDir, true);
  try {
    const { cookies } = await fundedUsers(api.url, USERS);
    return { dataDir, cookies };
  } finally {
    await api.stop();
  }
}

/** One run: a new copy of the side's prepared data directory, a new server, the fixed work. */
async function measure(root: string, side: AgainstRun['side'], prepared: { dataDir: string; cookies: string[] }): Promise<AgainstRun> {
  const dataDir = mkdtempSync(join(tmpdir(), 'kamai-against-run-'));
  cpSync(prepared.dataDir, dataDir, { recursive: true });
  const api = await startServer(root, dataDir, false);
  try {
    const request = { method: 'POST' as const, path: '/api/withdrawals', headers: { 'content-type': 'application/json', origin: api.url }, body: JSON.stringify({ amount: '100.00', upiId: 'bench@okhdfc' }) };
    const load = (amount: number) => {
      let next = 0;
      return autocannon({
        url: api.url,
        amount,
        connections: USERS,
        requests: [request],
        setupClient: (client) => client.setRequests([{ ...request, headers: { ...request.headers, cookie: prepared.cookies[next++ % USERS]! } }]),
      });
    };
    await load(WARMUP_ANSWERS);
    // Time and CPU are read at the last answer: with `amount`, autocannon notices it is done only
    // at its next one-second tick, so its own duration is whole seconds.
    const before = threadCpu(api.pid);
    const started = performance.now();
    let answered = 0;
    let last: { at: number; cpu: Map<string, number> } | undefined;
    const result = await load(MEASURED_ANSWERS).on('response', () => {
      if (++answered === MEASURED_ANSWERS) last = { at: performance.now(), cpu: threadCpu(api.pid) };
    });
    const elapsed = ((last?.at ?? performance.now()) - started) / 1000;
    const after = last?.cpu ?? threadCpu(api.pid);
    const answers = Math.max(1, result.requests.total);
    const used = [...after].map(([tid, cpu]) => cpu - (before.get(tid) ?? 0));
    return {
      side,
      perSecond: answers / elapsed,
      p99: result.latency.p99,
      failures: result.non2xx + result.errors,
      cpuUs: (used.reduce((sum, cpu) => sum + cpu, 0) / answers) * 1e6,
      // The main thread's id is the process id: listed first.
      threadsUs: [...after.keys()]
        .sort((a, b) => (a === String(api.pid) ? -1 : b === String(api.pid) ? 1 : Number(a) - Number(b)))
        .map((tid) => ((after.get(tid)! - (before.get(tid) ?? 0)) / answers) * 1e6)
        .filter((us) => us >= 5),
    };
  } finally {
    await api.stop();
    rmSync(dataDir, { recursive: true, force: true });
  }
}

/**
 * `rounds` rounds of other, this, this, other. Runs are returned in order; each two neighbours
 * (1-2, 3-4, …) are one of each side, a pair close in time.
 */
export async function benchAgainst(options: { other: string; rounds: number; log: (line: string) => void }): Promise<AgainstRun[]> {
  const roots = { this: resolve(import.meta.dirname, '../../..'), other: resolve(options.other) };
  const prepared = { this: await prepare(roots.this), other: await prepare(roots.other) };
  try {
    const runs: AgainstRun[] = [];
    for (let round = 0; round < options.rounds; round++) {
      for (const side of ['other', 'this', 'this', 'other'] as const) {
        const run = await measure(roots[side], side, prepared[side]);
        options.log(`[bench] against: ${side} ${Math.round(run.perSecond)}/s, ${Math.round(run.cpuUs)} µs CPU per answer`);
        runs.push(run);
      }
    }
    return runs;
  } finally {
    for (const { dataDir } of Object.values(prepared)) rmSync(dataDir, { recursive: true, force: true });
  }
}

/** Each neighbouring pair's ratio, this side over the other, of `value`. */
export function pairRatios(runs: AgainstRun[], value: (run: AgainstRun) => number): number[] {
  const ratios: number[] = [];
  for (let i = 0; i + 1 < runs.length; i += 2) {
    const pair = [runs[i]!, runs[i + 1]!];
    const mine = pair.find((run) => run.side === 'this');
    const theirs = pair.find((run) => run.side === 'other');
    if (mine && theirs) ratios.push(value(mine) / value(theirs));
  }
  return ratios;
}
