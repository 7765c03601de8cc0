/**
 * What a command costs as a user's stream grows: `POST /api/withdrawals` (with read-your-writes) on
 * user streams of 10 / 1,000 / 10,000 / 50,000 events, the median of 50 commands each, through a
 * real server on loopback: the first command ever (every event folded, a snapshot kept), the first
 * after emptying the decision cache (cold, from the snapshot, as after a restart) and the median of
 * the warm ones. Also the longest wait of a concurrent read (`GET /api/health`, another request in
 * the same process) during each kind of command on the 50,000-event stream.
 *
 *   node_modules/.bin/tsx scripts/src/bench/commands.ts [--commands 50] [--sizes 10,1000,10000,50000]
 */
import { randomUUID } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { performance } from 'node:perf_hooks';
import { pathToFileURL } from 'node:url';
import { SCHEMA_VERSION_KEY, eventCodec, rupees, streams } from '@kamai/contracts';
import { loadConfig, startServer, streamStateCache } from '@kamai/api';
import type { EventStore, Json, NewEvent } from '@kamai/domain';

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

export interface CommandBenchRow {
  /** Events on the user's stream before the first measured command. */
  events: number;
  /** The first command ever on the stream: no cached state, no snapshot, every event read and folded. */
  firstMs: number;
  /** The next command after emptying the decision cache (as after a restart): from the kept snapshot. */
  coldMs: number;
  /**
   * The first command after a restart: the server closed and a new one started on the same data
   * directory (a new store connection, empty decision and session caches, the snapshot read from disk).
   */
  restartMs: number;
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
  return { userId: id, cookie };
}

/**
 * Grows the user's stream to `total` events with what a busy user's history holds: per round, a
 * credit and its notification (left unread), a withdrawal requested (request, hold, notification)
 * and paid (settlement, notification, left unread), and a read of one notification. Appended straight
 * to the store in batches, contract-checked and versioned like the command handler's own appends.
 */
async function growStream(store: EventStore, userId: string, total: number) {
  const stream = streams.user(userId);
  let revision = (await store.readStream(stream)).length - 1;
  const at = new Date().toISOString();
  let batch: NewEvent[] = [];
  const push = (type: string, data: { [key: string]: Json }) => {
    const { schemaVersion } = eventCodec.encode({ type, data });
    batch.push({ id: randomUUID(), type, data, metadata: { actor: 'bench', [SCHEMA_VERSION_KEY]: schemaVersion } });
  };
  const flush = async () => {
    if (batch.length === 0) return;
    const result = await store.append(stream, batch, revision);
    revision = result.nextExpectedRevision;
    batch = [];
  };
  const amountPaise = rupees(10_000);
  const paid = rupees(100);
  const destination = { kind: 'upi', upiId: 'bench.user@okhdfc' };
  for (let n = revision + 1; n < total; ) {
    const withdrawalId = randomUUID();
    const requestedNote = randomUUID();
    const history: [string, { [key: string]: Json }][] = [
      ['WalletCredited', { entryId: randomUUID(), amountPaise, kind: 'adjustment', params: { reason: 'bench' }, by: 'bench', creditedAt: at }],
      ['NotificationSent', { notificationId: randomUUID(), key: 'wallet_credited', params: { amountPaise, reason: 'bench' }, kind: 'success', sentAt: at }],
      ['WithdrawalRequested', { withdrawalId, amountPaise: paid, destination, requestedAt: at }],
      ['WalletDebited', { entryId: randomUUID(), amountPaise: paid, kind: 'withdrawal', params: { destination: 'UPI be***@okhdfc' }, reference: withdrawalId, debitedAt: at }],
      ['NotificationSent', { notificationId: requestedNote, key: 'withdrawal_requested', params: { amountPaise: paid, destination: 'UPI be***@okhdfc' }, kind: 'info', sentAt: at }],
      ['WithdrawalPaid', { withdrawalId, reference: `UTR${n}`, paidBy: 'bench', paidAt: at, amountPaise: paid }],
      ['NotificationSent', { notificationId: randomUUID(), key: 'withdrawal_paid', params: { amountPaise: paid, destination: 'UPI be***@okhdfc', reference: `UTR${n}` }, kind: 'success', sentAt: at }],
      ['NotificationRead', { notificationId: requestedNote, readAt: at }],
    ];
    for (const [type, data] of history) {
      if (n >= total) break;
      push(type, data);
      n++;
    }
    if (batch.length >= 999) await flush();
  }
  await flush();
  return revision + 1;
}

export async function benchCommands(options: BenchCommandsOptions = {}): Promise<BenchCommandsResult> {
  const sizes = options.sizes ?? [10, 1_000, 10_000, 50_000];
  const commands = options.commands ?? 50;
  const log = options.log ?? console.log;
  const dir = options.dir ?? mkdtempSync(join(tmpdir(), 'kamai-bench-commands-'));
  const config = loadConfig({ PORT: '0', HOST: '127.0.0.1', DATA_DIR: dir, SEED_DEMO: 'false', WEB_DIST: '' });
  let server = await startServer(config, () => {});
  let url = `http://127.0.0.1:${server.port}`;
  const rows: CommandBenchRow[] = [];
  let longestReadStallFirstMs = 0;
  let longestReadStallColdMs = 0;
  let longestReadStallWarmMs = 0;
  try {
    for (const [index, size] of sizes.entries()) {
      const user = await signUp(url, `6${String(process.pid % 1000).padStart(3, '0')}${String(index).padStart(6, '0')}`);
      const events = await growStream(server.store, user.userId, size);
      await server.runner.waitFor(await server.store.headPosition());
      const withdraw = async () => {
        const started = performance.now();
        const res = await fetch(`${url}/api/withdrawals`, {
          method: 'POST',
          headers: { 'content-type': 'application/json', cookie: user.cookie, origin: url },
          body: JSON.stringify({ amount: '100.00', upiId: 'bench.user@okhdfc' }),
        });
        await res.arrayBuffer();
        if (res.status !== 201) throw new Error(`withdrawal answered ${res.status}`);
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
      // A real restart: nothing of this process's caches survives, only what is on disk.
      await server.close();
      server = await startServer(config, () => {});
      url = `http://127.0.0.1:${server.port}`;
      const restartMs = await withdraw();
      if (largest) {
        // A read overlapping the cold command counts for it; the others for the warm ones.
        for (const { start, end } of reads) {
          if (start < firstEnd && end > firstStart) longestReadStallFirstMs = Math.max(longestReadStallFirstMs, end - start);
          else if (start < coldEnd && end > coldStart) longestReadStallColdMs = Math.max(longestReadStallColdMs, end - start);
          else longestReadStallWarmMs = Math.max(longestReadStallWarmMs, end - start);
        }
      }
      const row = { events, firstMs: round(firstMs), coldMs: round(coldMs), restartMs: round(restartMs), medianMs: round(median(times)), p90Ms: round(quantile(times, 0.9)) };
      rows.push(row);
      log(`  ${String(events).padStart(6)} events: first ${row.firstMs} ms, cold ${row.coldMs} ms, after a restart ${row.restartMs} ms, median ${row.medianMs} ms, p90 ${row.p90Ms} ms (${commands} commands)`);
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
