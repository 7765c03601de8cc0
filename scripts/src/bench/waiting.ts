/**
 * Whether a withdrawal costs more when many wait (issue 39): `POST /api/withdrawals` (read-your-writes)
 * by users with no unpaid withdrawals and by users with 500 unpaid each, on one API process, in the
 * same run, interleaved A B B A. Each A burst is made by users registered just before it (none of
 * theirs unpaid when it starts); the B users were given 500 unpaid withdrawals each first, so both
 * sides run on the same data directory, with the same read models and indexes, and differ only in
 * what waits on their own streams.
 *
 *   node_modules/.bin/tsx scripts/src/bench/waiting.ts [--rounds 5]
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { performance } from 'node:perf_hooks';
import { pathToFileURL } from 'node:url';
import autocannon from 'autocannon';
import { fundedUsers, spread, startApi, treeCpuMs, withdrawals } from './http.ts';

/** Users (and connections) on each side: each user on one connection. */
const USERS = 32;
/** Unpaid withdrawals each B user has before the measured bursts. */
export const UNPAID = 500;
/**
 * Withdrawals per user in a measured burst: about a second of this machine's answers when quiet (at 20,
 * half a second, one pause of the collector or the WAL's checkpoint swung a round's ratio by a third).
 */
const PER_USER = 40;

export interface WaitingBurst {
  side: 'none' | 'many';
  perSecond: number;
  failures: number;
  /** CPU of the API process, all its threads, per answer (µs): steadier than answers a second on a busy machine. */
  cpuUs: number | null;
}

export interface BenchWaitingResult {
  bursts: WaitingBurst[];
  none: ReturnType<typeof spread>;
  many: ReturnType<typeof spread>;
  /** CPU per answer (µs) of each side's bursts; null where /proc is not there. */
  cpu: { none: ReturnType<typeof spread>; many: ReturnType<typeof spread> } | null;
  /** Each round's ratio, many over none (B over A of the same round). */
  ratios: number[];
  /** How many unpaid withdrawals the B users had in all before the bursts (USERS × UNPAID). */
  unpaid: number;
}

/** `PER_USER` withdrawals by each of `cookies`, as fast as they are answered: answers per second to the last answer. */
async function burst(url: string, cookies: string[], side: WaitingBurst['side'], pid: number | undefined): Promise<WaitingBurst> {
  const answers = cookies.length * PER_USER;
  const cpuBefore = treeCpuMs(pid);
  const started = performance.now();
  // Read at the last answer: with a fixed amount autocannon notices it is done only at its next tick.
  let answered = 0;
  let lastAnswerAt = 0;
  const result = await autocannon({ url, amount: answers, ...withdrawals(url, cookies) }).on('response', () => {
    if (++answered === answers) lastAnswerAt = performance.now();
  });
  lastAnswerAt ||= performance.now();
  const cpuAfter = treeCpuMs(pid);
  // A refused withdrawal answers fast: a burst with any is no figure of the withdrawals.
  const failures = result.non2xx + result.errors + result.timeouts;
  if (failures > 0) throw new Error(`${failures} of ${answers} withdrawals (${side} unpaid) were not accepted`);
  const cpuUs = cpuBefore === null || cpuAfter === null ? null : ((cpuAfter - cpuBefore) * 1000) / result.requests.total;
  return { side, perSecond: result.requests.total / ((lastAnswerAt - started) / 1000), failures, cpuUs };
}

export async function benchWaiting(options: { rounds?: number; log?: (line: string) => void } = {}): Promise<BenchWaitingResult> {
  const rounds = options.rounds ?? 5;
  const log = options.log ?? console.log;
  const dir = mkdtempSync(join(tmpdir(), 'kamai-bench-waiting-'));
  const api = await startApi(dir, true);
  try {
    let nextMobile = 7_200_000_000;
    // Enough for their burst only: a member's daily limit (raised, not lifted) counts every float credited.
    const freshUsers = async () => {
      const { cookies } = await fundedUsers(api.url, USERS, nextMobile, `${PER_USER * 100}.00`);
      nextMobile += USERS;
      return cookies;
    };
    const many = (await fundedUsers(api.url, USERS, nextMobile)).cookies;
    nextMobile += USERS;
    // The B users' unpaid withdrawals: USERS × UNPAID answers, each connection (user) about UNPAID of them.
    const seeded = await autocannon({ url: api.url, amount: USERS * UNPAID, ...withdrawals(api.url, many) });
    if (seeded.non2xx + seeded.errors > 0) throw new Error(`${seeded.non2xx + seeded.errors} of the ${USERS * UNPAID} unpaid withdrawals were refused`);
    log(`  ${USERS} users with ${UNPAID} unpaid withdrawals each (${seeded['2xx']} in all); each burst ${PER_USER} withdrawals a user`);
    // Warm-up: code compiled, statements prepared, on both sides.
    await burst(api.url, await freshUsers(), 'none', api.pid);
    await burst(api.url, many, 'many', api.pid);
    const bursts: WaitingBurst[] = [];
    for (let round = 0; round < rounds; round++) {
      // A B B A: the machine's drift falls on both alike.
      for (const side of round % 2 === 0 ? (['none', 'many'] as const) : (['many', 'none'] as const)) {
        bursts.push(await burst(api.url, side === 'none' ? await freshUsers() : many, side, api.pid));
      }
      const [a, b] = bursts.slice(-2) as [WaitingBurst, WaitingBurst];
      const cpu = (w: WaitingBurst) => (w.cpuUs === null ? '' : ` (${Math.round(w.cpuUs)} µs CPU an answer)`);
      log(`  round ${round + 1}: ${a.side} unpaid ${Math.round(a.perSecond)}/s${cpu(a)}, ${b.side} ${Math.round(b.perSecond)}/s${cpu(b)}`);
    }
    const ratios: number[] = [];
    for (let i = 0; i + 1 < bursts.length; i += 2) {
      const pair = [bursts[i]!, bursts[i + 1]!];
      ratios.push(pair.find((b) => b.side === 'many')!.perSecond / pair.find((b) => b.side === 'none')!.perSecond);
    }
    const of = (side: WaitingBurst['side']) => spread(bursts.filter((b) => b.side === side).map((b) => b.perSecond));
    const cpuOf = (side: WaitingBurst['side']) => spread(bursts.filter((b) => b.side === side).map((b) => b.cpuUs ?? 0));
    const cpu = bursts.every((b) => b.cpuUs !== null) ? { none: cpuOf('none'), many: cpuOf('many') } : null;
    return { bursts, none: of('none'), many: of('many'), cpu, ratios, unpaid: seeded['2xx'] };
  } finally {
    await api.stop();
    rmSync(dir, { recursive: true, force: true });
  }
}

if (process.argv[1] && import.meta.url === pathToFileURL(process.argv[1]).href) {
  const i = process.argv.indexOf('--rounds');
  const r = await benchWaiting({ rounds: i > 0 ? Number(process.argv[i + 1]) : undefined });
  console.log({ none: r.none, many: r.many, cpu: r.cpu, ratios: r.ratios.map((x) => x.toFixed(2)) });
}
