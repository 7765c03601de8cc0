/**
 * `npm run bench -- --against DIR`: POST /api/withdrawals of this checkout against another checkout
 * of Kamai (DIR, installed: e.g. `git worktree add ../kamai-old <commit>` and `npm install` there),
 * on this machine. Each side prepares a data directory (demo seeded, 64 users with a float); one
 * server of each runs on it as `npm start` runs it (default logging), both up at once. After
 * WARMUP_ANSWERS withdrawals each, they take turns: a burst of BURST_ANSWERS withdrawals to one,
 * then to the other, the first of a round alternating. Per burst: answers a second, and the CPU
 * per answer of the server process, all threads together and per thread, from each thread's
 * `/proc/…/schedstat` (nanoseconds, not the 10 ms ticks of `stat`), counted from the burst's start
 * to SETTLE_MS after its last answer. Halfway, both servers are started again in the other order.
 *
 * Why bursts, not whole runs: on this shared 2-core machine the same code's CPU per answer moves by
 * a third between runs tens of seconds apart (the machine's neighbours, not the code), so whole runs
 * of either side, even interleaved, could not separate a 10 % difference. Two bursts a second apart
 * see the same machine: each round's ratio is one sample of the difference, and their median, with
 * how many rounds went which way, is the figure. Both sides do the same work in the same order, so
 * their unpaid withdrawals (which make each next one dearer) grow alike.
 */
import { spawn } from 'node:child_process';
import { mkdtempSync, readFileSync, readdirSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import autocannon from 'autocannon';
import { fundedUsers, withdrawals } from './http.ts';

const USERS = 64;
/** Withdrawals each server answers before any is measured: code compiled, caches and pools filled. */
export const WARMUP_ANSWERS = 3_000;
/** Withdrawals per measured burst: about a second of this machine's throughput. */
export const BURST_ANSWERS = 1_500;

/** One measured burst of one side. */
export interface AgainstBurst {
  side: 'this' | 'other';
  perSecond: number;
  failures: number;
  /** CPU per answer of the whole server process, µs. */
  cpuUs: number;
  /** CPU of each of its threads in this burst, µs per answer, by thread id. */
  threadsUs: Map<string, number>;
}

/** Time on a CPU of each thread of `pid`, in nanoseconds, by thread id (the kernel's schedstat). */
function threadCpuNs(pid: number): Map<string, number> {
  const out = new Map<string, number>();
  for (const tid of readdirSync(`/proc/${pid}/task`)) {
    try {
      out.set(tid, Number(readFileSync(`/proc/${pid}/task/${tid}/schedstat`, 'utf8').split(' ')[0]));
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

type Server = Awaited<ReturnType<typeof startServer>>;

/**
 * How long after its last answer a burst's CPU is still counted: what the burst left behind (the WAL
 * checkpoints of its commits) is its own.
 */
const SETTLE_MS = 1000;

/** `answers` withdrawals of the 64 users to `api`, as fast as it answers, and what they cost. */
async function burst(api: Server, cookies: string[], answers: number, side: AgainstBurst['side']): Promise<AgainstBurst> {
  const before = threadCpuNs(api.pid);
  const started = performance.now();
  // The time is read at the last answer: with a fixed amount, autocannon notices it is done only at
  // its next one-second tick.
  let answered = 0;
  let lastAnswerAt = 0;
  const result = await autocannon({ url: api.url, amount: answers, ...withdrawals(api.url, cookies) }).on('response', () => {
    if (++answered === answers) lastAnswerAt = performance.now();
  });
  lastAnswerAt ||= performance.now();
  // Every burst is counted over the same span after its last answer, whenever autocannon returned.
  await new Promise((settled) => setTimeout(settled, Math.max(0, lastAnswerAt + SETTLE_MS - performance.now())));
  const after = threadCpuNs(api.pid);
  const total = Math.max(1, result.requests.total);
  const threadsUs = new Map([...after].map(([tid, ns]) => [tid, (ns - (before.get(tid) ?? 0)) / 1000 / total]));
  return {
    side,
    perSecond: total / ((lastAnswerAt - started) / 1000),
    failures: result.non2xx + result.errors,
    cpuUs: [...threadsUs.values()].reduce((sum, us) => sum + us, 0),
    threadsUs,
  };
}

/**
 * `rounds` rounds of one burst to each server (other first in even rounds, this first in odd ones),
 * in two halves: for each, both servers are started (the first half other first, the second this
 * first: the same code on both sides measured 0.95× and 1.01× with one order or the other, so the
 * order is not left to fall on one side) and warmed. Bursts are returned in order, two per round.
 * `threads` is each side's CPU per answer by thread, the mean over its bursts: the event loop first,
 * then the other threads in the order they started (V8's helpers, the read-model thread, …).
 */
export async function benchAgainst(options: { other: string; rounds: number; log: (line: string) => void }): Promise<{ bursts: AgainstBurst[]; threads: Record<AgainstBurst['side'], number[]> }> {
  const roots = { this: resolve(import.meta.dirname, '../../..'), other: resolve(options.other) };
  const prepared = { this: await prepare(roots.this), other: await prepare(roots.other) };
  const bursts: AgainstBurst[] = [];
  const byThread: Record<AgainstBurst['side'], number[][]> = { this: [], other: [] };
  try {
    for (const [half, order] of [['other', 'this'] as const, ['this', 'other'] as const].entries()) {
      const servers: Partial<Record<AgainstBurst['side'], Server>> = {};
      try {
        for (const side of order) servers[side] = await startServer(roots[side], prepared[side].dataDir, false);
        const run = (side: AgainstBurst['side'], answers: number) => burst(servers[side]!, prepared[side].cookies, answers, side);
        for (const side of order) await run(side, WARMUP_ANSWERS);
        const rounds = half === 0 ? Math.ceil(options.rounds / 2) : Math.floor(options.rounds / 2);
        for (let round = 0; round < rounds; round++) {
          for (const side of bursts.length % 4 === 0 ? (['other', 'this'] as const) : (['this', 'other'] as const)) {
            const measured = await run(side, BURST_ANSWERS);
            bursts.push(measured);
            // The main thread's id is the process id: first; the others in the order they started.
            const pid = String(servers[side]!.pid);
            byThread[side].push(
              [...measured.threadsUs.keys()].sort((a, b) => (a === pid ? -1 : b === pid ? 1 : Number(a) - Number(b))).map((tid) => measured.threadsUs.get(tid)!),
            );
          }
          const [a, b] = bursts.slice(-2) as [AgainstBurst, AgainstBurst];
          options.log(`[bench] against, round ${bursts.length / 2}: ${a.side} ${Math.round(a.perSecond)}/s ${Math.round(a.cpuUs)} µs, ${b.side} ${Math.round(b.perSecond)}/s ${Math.round(b.cpuUs)} µs`);
        }
      } finally {
        for (const server of Object.values(servers)) await server.stop();
      }
    }
  } finally {
    for (const { dataDir } of Object.values(prepared)) rmSync(dataDir, { recursive: true, force: true });
  }
  const threads = (side: AgainstBurst['side']) => {
    const rows = byThread[side];
    const width = Math.max(...rows.map((row) => row.length));
    return Array.from({ length: width }, (_, i) => rows.reduce((sum, row) => sum + (row[i] ?? 0), 0) / rows.length).filter((us) => us >= 5);
  };
  return { bursts, threads: { this: threads('this'), other: threads('other') } };
}

/** Each round's ratio, this side over the other, of `value`. */
export function pairRatios(bursts: AgainstBurst[], value: (burst: AgainstBurst) => number): number[] {
  const ratios: number[] = [];
  for (let i = 0; i + 1 < bursts.length; i += 2) {
    const pair = [bursts[i]!, bursts[i + 1]!];
    const mine = pair.find((b) => b.side === 'this');
    const theirs = pair.find((b) => b.side === 'other');
    if (mine && theirs) ratios.push(value(mine) / value(theirs));
  }
  return ratios;
}
