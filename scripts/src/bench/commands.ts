/**
 * What a command costs as a user's stream grows: `POST /api/withdrawals` (with read-your-writes) on
 * user streams of 10 / 1,000 / 10,000 / 50,000 events, the median of 50 commands each, through a
 * real server on loopback: the first command ever (every event folded, a snapshot kept), the first
 * after emptying the decision cache (from the snapshot, in the running process), the median of the
 * warm ones, and the first command in a new OS process started on the data directory beside the
 * warm ones that follow it there, over several restarts. Each stream is grown through the API's own
 * commands first, with the notifications real traffic leaves (unread ones included). Also the
 * longest wait of a concurrent read (`GET /api/health`, another request in the same process) during
 * each kind of command on the 50,000-event stream.
 *
 *   node_modules/.bin/tsx scripts/src/bench/commands.ts [--commands 50] [--sizes 10,1000,10000,50000]
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { performance } from 'node:perf_hooks';
import { pathToFileURL } from 'node:url';
import { streams } from '@kamai/contracts';
import { type RunningServer, grantRole, loadConfig, startServer, streamStateCache } from '@kamai/api';
import { startApi } from './http.ts';

export interface BenchCommandsOptions {
  /** Stream lengths, in events, before the measured commands. Default 10, 1,000, 10,000, 50,000. */
  sizes?: number[];
  /** Commands measured per size (the median is reported). Default 50. */
  commands?: number;
  /** Where the temporary data folder goes. Default: a new folder in the OS temp dir, removed after. */
  dir?: string;
  /** Where the figures are printed. Default console.log; pass () => {} for silence. */
  log?: (line: string) => void;
}

interface CommandBenchRow {
  /** Events on the user's stream before the first measured command. */
  events: number;
  /** The first command ever on the stream: no cached state, no snapshot, every event read and folded. */
  firstMs: number;
  /** The next command after emptying the decision cache (as after a restart): from the kept snapshot. */
  coldMs: number;
  /**
   * The first command on this stream after a restart, the median over RESTARTS restarts: each time
   * the server closed and a new OS process started on the same data directory (`tsx
   * apps/api/src/main.ts`, as `npm start` runs it), nothing of the stream cached, the snapshot read
   * from disk; the process has answered PROCESS_WARMUP_COMMANDS of another user's commands first.
   */
  restartMs: number;
  /** Each restart's first command on this stream, in order. */
  restartRuns: number[];
  /** The other user's first command: each new process's very first, with its own first-use costs (the slowest of the restarts). */
  processFirstMs: number;
  /** Median of the commands that followed in those new processes: the restart's fair peer. */
  restartWarmMs: number;
  /** Median and 90th percentile of the following `commands` commands. */
  medianMs: number;
  p90Ms: number;
}

export interface BenchCommandsResult {
  settings: { commands: number; sizes: number[] };
  rows: CommandBenchRow[];
  /** Median on the largest stream over the median on the smallest (the target is at most 2). */
  ratioLargestToSmallest: number;
  /** Longest `GET /api/health` while the first command on the largest stream ran (full fold), in ms. */
  longestReadStallFirstMs: number;
  /** Longest `GET /api/health` while the cold command on the largest stream ran, in ms. */
  longestReadStallColdMs: number;
  /** Longest `GET /api/health` while the warm commands on the largest stream ran, in ms. */
  longestReadStallWarmMs: number;
}

/**
 * New processes per stream: one first command is a single sample of a noisy thing (a new process
 * compiles as it goes, two cores are shared with the load), so the row is the median of several.
 */
const RESTARTS = 3;
/**
 * Another user's commands each new process answers first: its own first-use costs (code loaded,
 * compiled, statements prepared), which any request pays after a restart, whatever its stream.
 */
const PROCESS_WARMUP_COMMANDS = 5;
/** Warm commands measured in each restarted process after the stream's first. */
const RESTART_WARM_COMMANDS = 10;

const median = (xs: number[]) => quantile(xs, 0.5);
function quantile(xs: number[], q: number): number {
  const sorted = [...xs].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.floor(q * sorted.length))] ?? 0;
}
const round = (ms: number) => Math.round(ms * 100) / 100;

/** A signed-in client: fetch with the session cookie the registration set. */
async function signUp(url: string, mobile: string) {
  const res = await fetch(`${url}/api/auth/register`, {
    method: 'POST',
    // State-changing requests must name the app's own origin (cross-site protection).
    headers: { 'content-type': 'application/json', origin: url },
    body: JSON.stringify({ mobile, password: 'bench1234', firstName: 'Bench', lastName: 'User', consent: true }),
  });
  if (res.status !== 201) throw new Error(`sign-up failed: ${res.status} ${await res.text()}`);
  const cookie = res.headers.getSetCookie().map((c) => c.split(';')[0]).join('; ');
  const { id } = (await res.json()) as { id: string };
  return { userId: id, cookie, mobile };
}

/** A JSON call to the API as a signed-in client; throws on anything but the expected status. */
async function call(url: string, cookie: string, method: string, path: string, body: unknown) {
  const res = await fetch(`${url}${path}`, {
    method,
    headers: { 'content-type': 'application/json', cookie, origin: url },
    ...(body === undefined ? {} : { body: JSON.stringify(body) }),
  });
  const text = await res.text();
  if (!res.ok) throw new Error(`${method} ${path} answered ${res.status}: ${text}`);
  return text ? (JSON.parse(text) as unknown) : undefined;
}

/** The staff a busy user's history needs: finance credits them and a second finance member pays. */
interface Staff {
  /** Signed in as the demo finance member: adjustments (the user's rewards). */
  crediting: string;
  /** Signed in as another finance member: pays the withdrawals (nobody pays for a user they credited). */
  paying: string;
}

async function signIn(url: string, mobile: string, password: string): Promise<string> {
  const res = await fetch(`${url}/api/auth/login`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', origin: url },
    body: JSON.stringify({ mobile, password }),
  });
  if (res.status !== 200) throw new Error(`sign-in as ${mobile} answered ${res.status}: ${await res.text()}`);
  await res.arrayBuffer();
  return res.headers.getSetCookie().map((c) => c.split(';')[0]).join('; ');
}

/**
 * The demo admins lift the four-eyes threshold and the member's daily limit (rounds of ₹100 add up; control settings, so one
 * asks and the other approves) and a second finance member is made.
 */
async function prepareStaff(server: RunningServer, url: string): Promise<Staff> {
  const admin = await signIn(url, '9000000002', 'admin1234');
  // And the per-member daily sum across users (memberDailyAdjustmentLimit): one member credits every round.
  const asked = (await call(url, admin, 'PUT', '/api/admin/settings', { adjustmentApprovalThreshold: '99999999.00', memberDailyAdjustmentLimit: '99999999.00' })) as {
    request: { id: string };
  };
  await call(url, await signIn(url, '9000000005', 'admin21234'), 'POST', `/api/admin/settings/requests/${asked.request.id}/approve`, {});
  const payer = await signUp(url, '6999999999');
  await grantRole(server.store, payer.userId, 'finance', 'bench', new Date());
  return { crediting: await signIn(url, '9000000004', 'finance1234'), paying: payer.cookie };
}

/**
 * Grows the user's stream to at least `total` events the way real traffic does, through the API's
 * own commands: per round finance credits ₹100 (with its notification), the user withdraws it
 * (request, hold, notification), another finance member pays it (settlement, notification) and the
 * user opens the list and reads the "requested" notification; the other notifications stay unread.
 * Returns the stream's length.
 */
async function growStream(server: RunningServer, url: string, staff: Staff, user: { userId: string; cookie: string; mobile: string }, total: number) {
  const length = async () => (await server.store.readStream(streams.user(user.userId))).length;
  const round = async (n: number) => {
    await call(url, staff.crediting, 'POST', '/api/admin/adjustments', { mobile: user.mobile, amount: '100.00', direction: 'credit', reason: 'Task reward' });
    const withdrawal = (await call(url, user.cookie, 'POST', '/api/withdrawals', { amount: '100.00', upiId: 'bench.user@okhdfc' })) as { id: string };
    await call(url, staff.paying, 'POST', `/api/admin/withdrawals/${withdrawal.id}/paid`, { reference: `UTR${user.mobile}${n}` });
    const notifications = (await call(url, user.cookie, 'GET', '/api/notifications', undefined)) as { id: string; key?: string }[];
    const requested = notifications.find((note) => note.key === 'withdrawal_requested');
    if (requested) await call(url, user.cookie, 'PUT', `/api/notifications/${requested.id}/read`, undefined);
  };
  let events = await length();
  if (events >= total) return events;
  // One round measured, the rest counted: reading a 50,000-event stream after each would dominate.
  await round(0);
  const perRound = (await length()) - events;
  events += perRound;
  for (let n = 1; events < total; n++, events += perRound) await round(n);
  return length();
}

export async function benchCommands(options: BenchCommandsOptions = {}): Promise<BenchCommandsResult> {
  const sizes = options.sizes ?? [10, 1_000, 10_000, 50_000];
  const commands = options.commands ?? 50;
  const log = options.log ?? console.log;
  const dir = options.dir ?? mkdtempSync(join(tmpdir(), 'kamai-bench-commands-'));
  // The demo staff credit and pay; a handful of bench users register from one address.
  const config = loadConfig({ PORT: '0', HOST: '127.0.0.1', DATA_DIR: dir, SEED_DEMO: 'true', WEB_DIST: '', REGISTRATIONS_PER_HOUR: '1000000' });
  let server = await startServer(config, () => {});
  let url = `http://127.0.0.1:${server.port}`;
  const staff = await prepareStaff(server, url);
  // Another user, whose withdrawals are each restarted process's first commands: they pay the new
  // process's own first-use costs (code compiled, statements prepared), so the row after them is
  // what the stream costs.
  const other = await signUp(url, '6999999998');
  await call(url, staff.crediting, 'POST', '/api/admin/adjustments', { mobile: other.mobile, amount: `${100 * sizes.length * RESTARTS * PROCESS_WARMUP_COMMANDS}.00`, direction: 'credit', reason: 'Task reward' });
  const rows: CommandBenchRow[] = [];
  let longestReadStallFirstMs = 0;
  let longestReadStallColdMs = 0;
  let longestReadStallWarmMs = 0;
  try {
    for (const [index, size] of sizes.entries()) {
      const user = await signUp(url, `6${String(process.pid % 1000).padStart(3, '0')}${String(index).padStart(6, '0')}`);
      const grown = performance.now();
      const events = await growStream(server, url, staff, user, size);
      log(`  grew a user stream to ${events} events through the API in ${Math.round((performance.now() - grown) / 1000)} s`);
      // What the measured withdrawals take out: the first, the cold one, the warm ones, and the restart's.
      const float = 100 * (commands + 2 + RESTARTS * (1 + RESTART_WARM_COMMANDS));
      await call(url, staff.crediting, 'POST', '/api/admin/adjustments', { mobile: user.mobile, amount: `${float}.00`, direction: 'credit', reason: 'Task reward' });
      await server.runner.waitFor(await server.store.headPosition());
      const withdraw = async (at = url, by = user) => {
        const started = performance.now();
        const res = await fetch(`${at}/api/withdrawals`, {
          method: 'POST',
          headers: { 'content-type': 'application/json', cookie: by.cookie, origin: at },
          body: JSON.stringify({ amount: '100.00', upiId: 'bench.user@okhdfc' }),
        });
        const text = await res.text();
        if (res.status !== 201) throw new Error(`withdrawal answered ${res.status}: ${text}`);
        return performance.now() - started;
      };
      // A reader beside the commands: back-to-back health checks, each with when it started and ended.
      const largest = index === sizes.length - 1;
      let reading = largest;
      const reads: { start: number; end: number }[] = [];
      const reader = (async () => {
        while (reading) {
          const start = performance.now();
          await (await fetch(`${url}/api/health`)).arrayBuffer();
          reads.push({ start, end: performance.now() });
        }
      })();
      // First: nothing cached, no snapshot; the fold of every event (which keeps a snapshot).
      streamStateCache(server.store).clear();
      const firstStart = performance.now();
      const firstMs = await withdraw();
      const firstEnd = performance.now();
      // Cold: as after a restart, nothing of this stream in the decision cache, the snapshot kept.
      streamStateCache(server.store).clear();
      const coldStart = performance.now();
      const coldMs = await withdraw();
      const coldEnd = performance.now();
      const times: number[] = [];
      for (let i = 0; i < commands; i++) times.push(await withdraw());
      reading = false;
      await reader;
      // Real restarts: this server closed and a new OS process started on the data directory, as
      // `npm start` starts it; nothing survives but what is on disk. Its own warm commands are the peer.
      await server.close();
      const restartRuns: number[] = [];
      let processFirstMs = 0;
      const warmAfterRestart: number[] = [];
      for (let restart = 0; restart < RESTARTS; restart++) {
        const restarted = await startApi(dir, false);
        try {
          for (let i = 0; i < PROCESS_WARMUP_COMMANDS; i++) {
            const ms = await withdraw(restarted.url, other);
            if (i === 0) processFirstMs = Math.max(processFirstMs, ms);
          }
          restartRuns.push(await withdraw(restarted.url));
          for (let i = 0; i < RESTART_WARM_COMMANDS; i++) warmAfterRestart.push(await withdraw(restarted.url));
        } finally {
          await restarted.stop();
        }
      }
      server = await startServer(config, () => {});
      url = `http://127.0.0.1:${server.port}`;
      if (largest) {
        // A read overlapping the cold command counts for it; the others for the warm ones.
        for (const { start, end } of reads) {
          if (start < firstEnd && end > firstStart) longestReadStallFirstMs = Math.max(longestReadStallFirstMs, end - start);
          else if (start < coldEnd && end > coldStart) longestReadStallColdMs = Math.max(longestReadStallColdMs, end - start);
          else longestReadStallWarmMs = Math.max(longestReadStallWarmMs, end - start);
        }
      }
      const row = {
        events,
        firstMs: round(firstMs),
        coldMs: round(coldMs),
        processFirstMs: round(processFirstMs),
        restartMs: round(median(restartRuns)),
        restartRuns: restartRuns.map(round),
        restartWarmMs: round(median(warmAfterRestart)),
        medianMs: round(median(times)),
        p90Ms: round(quantile(times, 0.9)),
      };
      rows.push(row);
      log(`  ${String(events).padStart(6)} events: first ${row.firstMs} ms, cold ${row.coldMs} ms, after a restart ${row.restartRuns.join(' / ')} ms (each new process's very first, another user's: up to ${row.processFirstMs} ms; then ${row.restartWarmMs} ms warm), median ${row.medianMs} ms, p90 ${row.p90Ms} ms (${commands} commands)`);
    }
  } finally {
    await server.close();
    if (!options.dir) rmSync(dir, { recursive: true, force: true });
  }
  const first = rows[0]?.medianMs ?? 0;
  const last = rows.at(-1)?.medianMs ?? 0;
  const result: BenchCommandsResult = {
    settings: { commands, sizes },
    rows,
    ratioLargestToSmallest: first > 0 ? round(last / first) : 0,
    longestReadStallFirstMs: round(longestReadStallFirstMs),
    longestReadStallColdMs: round(longestReadStallColdMs),
    longestReadStallWarmMs: round(longestReadStallWarmMs),
  };
  log(`  largest / smallest median: ${result.ratioLargestToSmallest}x`);
  log(`  longest concurrent read during the ${rows.at(-1)?.events ?? 0}-event command: first ${result.longestReadStallFirstMs} ms, cold ${result.longestReadStallColdMs} ms, warm ${result.longestReadStallWarmMs} ms`);
  return result;
}

if (import.meta.url === pathToFileURL(process.argv[1] ?? '').href) {
  const arg = (name: string) => {
    const i = process.argv.indexOf(`--${name}`);
    return i > 0 ? process.argv[i + 1] : undefined;
  };
  const sizes = arg('sizes')?.split(',').map(Number);
  const commands = arg('commands') ? Number(arg('commands')) : undefined;
  await benchCommands({ ...(sizes ? { sizes } : {}), ...(commands ? { commands } : {}) });
}
