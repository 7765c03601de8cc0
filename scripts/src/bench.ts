/**
 * `npm run bench`: ONE table of Kamai's figures, each beside its peer or limit measured in the same
 * run on this machine. Prints, never asserts: speed is measured here, not in tests.
 *
 *   npm run bench                         # everything, about 27 minutes on 2 cores (the scale part about 15)
 *   npm run bench -- --skip rebuild,http  # leave parts out (appends, http, commands, waiting, rebuild, web, startup, fuzz, scale; web includes a slow-network run of about 2 minutes)
 *   npm run bench -- --full               # the long runs too: rebuild of 1,000,000 events (BENCH_FULL=1)
 *   npm run bench -- --seconds 5          # length of each load run (default 5)
 *   npm run bench -- --rounds 3           # interleaved A B B A rounds of the read peers (default 3; --against: bursts, default 24, at least 8)
 *   npm run bench -- --against ../kamai-old  # withdrawals against another installed checkout, alternating bursts
 *   npm run bench -- --fuzz-requests 5000 # requests of the fuzz part, made from the OpenAPI document (default 20,000; --fuzz-seed repeats a run)
 *
 * A part that fails prints its reason in its rows and the rest of the table still prints.
 */
import { execFileSync } from 'node:child_process';
import { cpus, loadavg, totalmem } from 'node:os';
import { type AgainstBurst, BURST_ANSWERS, WARMUP_ANSWERS, benchAgainst, pairRatios } from './bench/against.ts';
import { benchCommands } from './bench/commands.ts';
import { UNPAID, benchWaiting } from './bench/waiting.ts';
import { benchAppends } from './bench/appends.ts';
import { type ServerMemory, benchHttp, initialJsGzipBytes, spread } from './bench/http.ts';
import { benchRebuildInOwnProcess } from './bench/rebuild.ts';
import { WARM_UP_SECONDS, benchScale, scaleFigures } from './bench/scale.ts';
import { benchStartup, median } from './bench/startup.ts';
import { benchFuzz } from './bench/fuzz.ts';
import { SLOW_NETWORK, benchFirstScreenJs, benchSlowNetwork, slowNetworkRows } from './bench/web.ts';

/** One line of the table. `peer` is the figure it is compared with, measured in this run. */
export interface BenchRow {
  what: string;
  figure: string;
  peer?: string;
  ratio?: string;
}

const args = process.argv.slice(2);
const flag = (name: string) => {
  const i = args.indexOf(`--${name}`);
  return i < 0 ? undefined : (args[i + 1] ?? '');
};
const full = args.includes('--full') || process.env.BENCH_FULL === '1';
const skip = new Set((flag('skip') ?? '').split(',').filter(Boolean));
const seconds = Number(flag('seconds') ?? 5);

const rows: BenchRow[] = [];
const section = (title: string) => rows.push({ what: `**${title}**`, figure: '' });
const n = (value: number) => Math.round(value).toLocaleString('en-US');
const x = (value: number, peer: number) => `${(value / peer).toFixed(2)}×`;
const log = (line: string) => console.error(line);
const load = () => (loadavg()[0] ?? 0).toFixed(2);
/** A spread as the table prints it: median (min–max). */
const range = (s: { min: number; median: number; max: number }, unit: string) => `${n(s.median)}${unit} (${n(s.min)}–${n(s.max)})`;

/** Runs a part; a failure becomes a row saying why, so the table still prints. */
async function part(name: string, run: () => Promise<void>) {
  if (skip.has(name)) {
    rows.push({ what: `${name}: skipped (--skip)`, figure: '–' });
    return;
  }
  log(`[bench] ${name}...`);
  const started = performance.now();
  const loadBefore = load();
  try {
    await run();
  } catch (err) {
    rows.push({ what: `${name}: did not run`, figure: err instanceof Error ? err.message.split('\n')[0]! : String(err) });
  }
  // Figures taken beside other work are not the machine's: each part says what else was running.
  rows.push({ what: `${name}: load average (1 min) before / after`, figure: `${loadBefore} / ${load()}`, peer: `${cpus().length} cores` });
  log(`[bench] ${name} done in ${((performance.now() - started) / 1000).toFixed(1)} s`);
}

await part('appends', async () => {
  const r = await benchAppends({ seconds: 3, log: () => {} });
  section('Event store: durable appends (WAL, synchronous=FULL, single-event commands)');
  rows.push({ what: 'ceiling: plain better-sqlite3 INSERT, one transaction each', figure: `${n(r.ceiling.perSecond)}/s` });
  const ceiling = `${n(r.ceiling.perSecond)}/s`;
  rows.push({ what: 'store, one append at a time', figure: `${n(r.sequential.groupCommit.perSecond)}/s`, peer: ceiling, ratio: x(r.sequential.groupCommit.perSecond, r.ceiling.perSecond) });
  const batched = `${n(r.batchedCeiling.perSecond)}/s (plain, ${r.settings.concurrency} per transaction)`;
  rows.push({ what: `plain better-sqlite3 INSERT, ${r.settings.concurrency} per transaction`, figure: `${n(r.batchedCeiling.perSecond)}/s` });
  rows.push({ what: `store, ${r.settings.concurrency} appends in flight (group commit)`, figure: `${n(r.concurrent.groupCommit.perSecond)}/s`, peer: batched, ratio: x(r.concurrent.groupCommit.perSecond, r.batchedCeiling.perSecond) });
});

await part('http', async () => {
  const rounds = Number(flag('rounds') ?? 3);
  const r = await benchHttp({ seconds, rounds, log });
  section(`HTTP, autocannon, 64 connections, ${seconds} s each, each server in its own process as \`npm start\` runs it (default logging)`);
  // min / median / max of the interleaved runs (A B B A, `rounds` times); ratios are of medians.
  const s3 = (f: { min: number; median: number; max: number }) => range(f, '/s');
  const bareIdle = `${s3(r.bareRounds)} bare Hono + 1 better-sqlite3 lookup`;
  rows.push({ what: `bare Hono + one better-sqlite3 lookup: median (min–max) of ${r.bareRounds.runs.length}, interleaved`, figure: `${s3(r.bareRounds)}, p99 ${r.bare.p99} ms` });
  rows.push({ what: `GET /api/auth/user (signed in): median (min–max) of ${r.authUserRounds.runs.length}, interleaved`, figure: `${s3(r.authUserRounds)}, p99 ${r.authUser.p99} ms`, peer: bareIdle, ratio: x(r.authUserRounds.median, r.bareRounds.median) });
  const memory = (m: ServerMemory | null | undefined) => (m ? `${n(m.rssMb)} MB (peak ${n(m.peakRssMb)} MB)` : 'not measured (no /proc)');
  rows.push({ what: `bare Hono, while the API writes 100 withdrawals/s (achieved: ${n(r.writesPerSecond)}/s at least)`, figure: s3(r.bareUnderWrites) });
  rows.push({
    what: 'GET /api/auth/user (other users), while the API writes 100 withdrawals/s',
    figure: s3(r.authUserUnderWrites),
    peer: `${s3(r.bareUnderWrites)} bare, same writes; target 0.6×`,
    ratio: x(r.authUserUnderWrites.median, r.bareUnderWrites.median),
  });
  rows.push({ what: 'resident memory of that API process after the GET runs (idle, then under writes)', figure: memory(r.apiMemoryAfterReads) });
  const fails = (f: { failures: number }) => (f.failures ? `, ${f.failures} non-2xx` : '');
  // The writer-thread decision: the same process, commits inline or on the writer thread, A B B A.
  const perSecond = (runs: { perSecond: number }[]) => spread(runs.map((f) => f.perSecond));
  const cpuMedian = (runs: { serverCpuUs?: number }[]) => {
    const known = runs.flatMap((f) => (f.serverCpuUs === undefined ? [] : [f.serverCpuUs]));
    return known.length ? median(known) : undefined;
  };
  const inline = perSecond(r.withdrawalsInline);
  const thread = perSecond(r.withdrawalsThread);
  rows.push({ what: `POST /api/withdrawals, 1 process, commits on the event loop (EVENT_STORE_WRITER=inline): median (min–max) of ${inline.runs.length}, interleaved`, figure: s3(inline) });
  rows.push({ what: `POST /api/withdrawals, 1 process, commits on a writer thread (EVENT_STORE_WRITER=thread): median (min–max) of ${thread.runs.length}, interleaved`, figure: s3(thread), peer: `${s3(inline)} inline`, ratio: x(thread.median, inline.median) });
  const cpuInline = cpuMedian(r.withdrawalsInline);
  const cpuThread = cpuMedian(r.withdrawalsThread);
  if (cpuInline !== undefined && cpuThread !== undefined) {
    rows.push({ what: 'POST /api/withdrawals, CPU per answer, all threads of the process, median: writer thread', figure: `${n(cpuThread)} µs`, peer: `${n(cpuInline)} µs inline`, ratio: x(cpuThread, cpuInline) });
  }
  rows.push({ what: 'POST /api/withdrawals, read-your-writes, 1 process', figure: `${n(r.withdrawalsOne.perSecond)}/s, p99 ${r.withdrawalsOne.p99} ms${fails(r.withdrawalsOne)}` });
  rows.push({ what: 'its resident memory after that run', figure: memory(r.withdrawalsOne.serverMemory) });
  rows.push({
    what: 'POST /api/withdrawals, read-your-writes, 2 processes, 1 data dir',
    figure: `${n(r.withdrawalsTwo.perSecond)}/s, p99 ${r.withdrawalsTwo.p99} ms${fails(r.withdrawalsTwo)}`,
    peer: `${n(r.withdrawalsOne.perSecond)}/s (1 process)`,
    ratio: x(r.withdrawalsTwo.perSecond, r.withdrawalsOne.perSecond),
  });
  rows.push({
    what: 'POST /api/withdrawals, read-your-writes, 2 processes + 1 projection worker, 1 data dir',
    figure: `${n(r.withdrawalsTwoWithWorker.perSecond)}/s, p99 ${r.withdrawalsTwoWithWorker.p99} ms${fails(r.withdrawalsTwoWithWorker)}`,
    peer: `${n(r.withdrawalsOne.perSecond)}/s (1 process)`,
    ratio: x(r.withdrawalsTwoWithWorker.perSecond, r.withdrawalsOne.perSecond),
  });
  // What the cores allow: however many processes, each answer costs the servers' CPU plus the load
  // generator's, on the same cores (Linux /proc; left out elsewhere).
  const cores = cpus().length;
  const cpuOf = (label: string, f: typeof r.withdrawalsOne) => {
    if (f.serverCpuUs === undefined || f.clientCpuUs === undefined) return;
    const loop = f.serverMainThreadCpuUs === undefined ? '' : ` (event loops ${n(f.serverMainThreadCpuUs)} µs)`;
    rows.push({ what: `POST /api/withdrawals, CPU per answer, ${label}: servers (their event loops) + autocannon`, figure: `${n(f.serverCpuUs)} µs${loop} + ${n(f.clientCpuUs)} µs` });
  };
  cpuOf('1 process', r.withdrawalsOne);
  cpuOf('2 processes', r.withdrawalsTwo);
  cpuOf('2 processes + worker', r.withdrawalsTwoWithWorker);
  const one = r.withdrawalsOne;
  if (one.serverCpuUs !== undefined && one.clientCpuUs !== undefined) {
    const ceiling = (cores * 1_000_000) / (one.serverCpuUs + one.clientCpuUs);
    rows.push({
      what: `ceiling for any number of processes at 1 process's CPU per answer: ${cores} cores × 1,000,000 / (server + client µs)`,
      figure: `${n(ceiling)}/s`,
      peer: `${n(one.perSecond)}/s (1 process)`,
      ratio: x(ceiling, one.perSecond),
    });
  }
});

// ---- Several API nodes on one PostgreSQL log: scripts/src/bench/scale.ts ----
await part('scale', async () => {
  const rounds = Number(flag('rounds') ?? 2);
  const configs = await benchScale({ seconds, rounds, log });
  section(`Scale (issue 35): POST /api/withdrawals, read-your-writes, ${seconds} s each after ${WARM_UP_SECONDS} s of warm-up, interleaved A B C … C B A × ${rounds}; PostgreSQL durable (fsync, synchronous commit) on this machine`);
  const [sqlite] = configs.map(scaleFigures);
  if (!sqlite) throw new Error('no runs');
  const total = (f: ReturnType<typeof scaleFigures>) => f.apiCpuUs.median + f.postgresCpuUs.median;
  for (const config of configs) {
    const f = scaleFigures(config);
    const fails = f.failures ? `, ${f.failures} non-2xx` : '';
    const isPeer = config === configs[0];
    rows.push({
      what: `${config.name}: answers per second, median (min–max) of ${config.runs.length}`,
      figure: `${range(f.perSecond, '/s')}${fails}`,
      ...(isPeer ? {} : { peer: `${n(sqlite.perSecond.median)}/s SQLite, 1 process`, ratio: x(f.perSecond.median, sqlite.perSecond.median) }),
    });
    rows.push({
      what: `${config.name}: CPU per answer, API processes + PostgreSQL's, medians (API min–max)`,
      figure: `${n(f.apiCpuUs.median)} µs (${n(f.apiCpuUs.min)}–${n(f.apiCpuUs.max)}) + ${n(f.postgresCpuUs.median)} µs`,
      ...(isPeer ? {} : { peer: `${n(total(sqlite))} µs SQLite, 1 process`, ratio: x(total(f), total(sqlite)) }),
    });
  }
  // A node's CPU per answer may grow with the nodes only by following the others' events: n nodes'
  // API CPU per answer against n nodes of which one serves and n − 1 only follow (one node's answers
  // plus what following them costs n − 1 nodes, on as many processes). The bar is the nodes serving
  // one node's load each, as their peer does; spread over the nodes, one node's users give each node
  // less to batch, which costs on one node as well.
  const apiCpu = (name: string) => {
    const config = configs.find((c) => c.name === name);
    return config ? scaleFigures(config).apiCpuUs.median : undefined;
  };
  const [one, oneServing] = [apiCpu('PostgreSQL, 1 node'), apiCpu('PostgreSQL, 2 nodes, one serving')];
  if (one !== undefined && oneServing !== undefined) {
    rows.push({ what: 'PostgreSQL: what following the log adds, API CPU per answer (2 nodes, one serving, over 1 node)', figure: `${n(oneServing - one)} µs` });
  }
  for (const load of ['users each', 'users spread']) {
    for (const nodes of [2, 3]) {
      const config = configs.find((c) => c.name.startsWith(`PostgreSQL, ${nodes} nodes,`) && c.name.endsWith(load));
      const peer = apiCpu(`PostgreSQL, ${nodes} nodes, one serving`);
      if (!config || peer === undefined) continue;
      const figure = scaleFigures(config).apiCpuUs.median;
      const bar = load === 'users each' ? ' (bar 1.0×)' : ' (each node batches less than the one serving)';
      rows.push({ what: `${config.name}: API CPU per answer over ${nodes} nodes' with one serving${bar}`, figure: `${n(figure)} µs`, peer: `${n(peer)} µs`, ratio: x(figure, peer) });
    }
  }
});

// ---- Command time as streams grow: scripts/src/bench/commands.ts ----
await part('commands', async () => {
  section('Commands as the user stream grows: POST /api/withdrawals, read-your-writes (scripts/src/bench/commands.ts)');
  const result = await benchCommands({ log });
  const smallest = result.rows[0];
  for (const row of result.rows) {
    rows.push({
      what: `${n(row.events)}-event stream: median of ${result.settings.commands} (first ever; cold from snapshot)`,
      figure: `${row.medianMs} ms (${row.firstMs} ms; ${row.coldMs} ms)`,
      ...(smallest && row !== smallest && { peer: `${smallest.medianMs} ms (${n(smallest.events)} events)`, ratio: x(row.medianMs, smallest.medianMs) }),
    });
  }
  for (const row of result.rows) {
    rows.push({
      what: `${n(row.events)}-event stream: first command on it in a new OS process on the data dir, median of ${row.restartRuns.length} restarts (nothing of it cached; each process first answered another user's commands, the very first up to ${row.processFirstMs} ms)`,
      figure: `${row.restartMs} ms (${row.restartRuns.join(' / ')})`,
      peer: `${row.restartWarmMs} ms (warm median in those processes; bound 3×)`,
      ratio: x(row.restartMs, row.restartWarmMs),
    });
  }
  rows.push({
    what: 'longest concurrent read during the largest stream\'s commands: first ever / cold / warm',
    figure: `${result.longestReadStallFirstMs} / ${result.longestReadStallColdMs} / ${result.longestReadStallWarmMs} ms`,
    peer: 'target 50 ms',
  });
});

// ---- Withdrawals with many unpaid ones waiting: scripts/src/bench/waiting.ts ----
await part('waiting', async () => {
  const rounds = Number(flag('rounds') ?? 5);
  section(`Withdrawals while unpaid ones wait (issue 39): POST /api/withdrawals, read-your-writes, 1 process, 32 users on 32 connections, interleaved A B B A × ${rounds} (scripts/src/bench/waiting.ts)`);
  const r = await benchWaiting({ rounds, log });
  const s = (f: { min: number; median: number; max: number }) => range(f, '/s');
  rows.push({ what: `users with no unpaid withdrawals (new users each burst): median (min–max) of ${r.none.runs.length}`, figure: s(r.none) });
  const ratios = spread(r.ratios);
  rows.push({
    what: `users with ${UNPAID} unpaid withdrawals each (${n(r.unpaid)} in all), same data: median (min–max) of ${r.many.runs.length}`,
    figure: s(r.many),
    peer: `${s(r.none)} with none; target 0.9×`,
    ratio: `${x(r.many.median, r.none.median)} (rounds ${ratios.min.toFixed(2)}–${ratios.max.toFixed(2)})`,
  });
  // CPU per answer moves less than answers a second when other work shares the machine.
  if (r.cpu) {
    const us = (f: { min: number; median: number; max: number }) => range(f, ' µs');
    rows.push({ what: `CPU per answer, all threads of the API: ${UNPAID} unpaid each, median (min–max)`, figure: us(r.cpu.many), peer: `${us(r.cpu.none)} with none`, ratio: x(r.cpu.many.median, r.cpu.none.median) });
  }
});

// ---- Rebuild: scripts/src/bench/rebuild.ts ----
/** Builds from zero of the same events, one after another: the row's median and spread. */
const REBUILDS = 3;
await part('rebuild', async () => {
  const events = Number(flag('rebuild-events') ?? (full ? 1_000_000 : 200_000));
  section(`Read-model rebuild, ${n(events)} events, every read model (scripts/src/bench/rebuild.ts${full ? '' : '; --full for 1,000,000'})`);
  const r = await benchRebuildInOwnProcess({ events, builds: REBUILDS, log });
  const cold = `${n(r.coldEventsPerSecond)} events/s (from zero, alone)`;
  const built = spread(r.builds.map((b) => b.eventsPerSecond));
  rows.push({
    what: `rebuild from zero, nobody else on the data: median (min–max) of ${r.builds.length} builds, each into an empty read database`,
    figure: `${range(built, ' events/s')} (${n(r.events)} events, the median in ${r.coldSeconds.toFixed(1)} s)`,
    peer: 'target 100,000 events/s',
  });
  // Events a second follow CPU an event, which swings with this machine's minute (the same build took 15.6-27 µs within an hour).
  const applying = r.coldApplyingCpuMicrosPerEvent === null ? '' : `, ${r.coldApplyingCpuMicrosPerEvent} µs of it on the applying thread`;
  rows.push({ what: 'CPU an event of the median build, all threads of its process', figure: `${r.coldCpuMicrosPerEvent} µs${applying} (builds: ${r.builds.map((b) => b.cpuMicrosPerEvent).join(', ')} µs)` });
  const serving = r.serving;
  if (!serving) return;
  rows.push({
    what: 'rebuild aside + swap while an API process serves the data',
    figure: `${n(serving.eventsPerSecond)} events/s (${serving.rebuildSeconds.toFixed(1)} s)`,
    peer: cold,
    ratio: x(serving.eventsPerSecond, r.coldEventsPerSecond),
  });
  rows.push({ what: 'peak RSS of the rebuilding process', figure: `${n(serving.peakRssMb)} MB` });
  rows.push({
    what: 'requests to the serving API during that rebuild',
    figure: `${n(serving.requests)}, ${n(serving.failedRequests)} failed, slowest ${n(serving.longestRequestMs)} ms`,
    peer: serving.healthyAfter ? '/api/health 200 after' : '/api/health NOT 200 after',
  });
});

await part('web', async () => {
  section('Web app (apps/web/dist; scripts/src/bench/web.ts)');
  // What a first visit downloads before its first screen shows, in Chromium: the entry, its
  // modulepreloads and what the app fetches itself before rendering (route code, texts).
  const screens = await benchFirstScreenJs();
  if (!screens) {
    rows.push({ what: 'initial JS', figure: 'not measured: build the web app first (npm start or pnpm --filter @kamai/web build)' });
    return;
  }
  for (const screen of screens) {
    rows.push({
      what: `JS before the first screen shows (${screen.screen}; Chromium, ${screen.files.length} files), gzip`,
      figure: `${n(screen.gzip / 1024)} KB (${n(screen.gzip)} bytes; ${n(screen.raw / 1024)} KB raw)`,
      peer: 'target 100 KB',
    });
  }
  const js = initialJsGzipBytes();
  if (js) {
    rows.push({ what: `of which index.html names: entry + ${js.files - 1} modulepreloads, gzip`, figure: `${n(js.gzip / 1024)} KB (${n(js.gzip)} bytes; ${n(js.raw / 1024)} KB raw)` });
  }
  // The same screens timed on a slow phone network (DevTools' emulation), three runs each.
  const slow = await benchSlowNetwork({ runs: 3 });
  section(`Web app on ${SLOW_NETWORK.kbps} kbps, ${SLOW_NETWORK.latencyMs} ms round trip (Chromium; median (min–max; each run))`);
  const [result] = slow ?? [];
  if (result) rows.push(...slowNetworkRows(result));
});

await part('startup', async () => {
  const r = await benchStartup({ runs: 5, log });
  section('Cold start: spawn to GET /api/health 200, web app built and unchanged (scripts/src/bench/startup.ts)');
  const ms = (values: number[]) => `${n(median(values))} ms (median of ${values.length}; ${values.map((value) => n(value)).join(', ')})`;
  rows.push({ what: '`npm start`, existing data directory', figure: ms(r.npmStart), peer: `server alone (tsx apps/api/src/main.ts): ${n(median(r.serverAlone))} ms`, ratio: x(median(r.npmStart), median(r.serverAlone)) });
  rows.push({ what: '`npm start`, new data directory (keys made, demo data seeded)', figure: ms(r.npmStartNewDir), peer: `server alone, new data directory: ${n(median(r.serverAloneNewDir))} ms`, ratio: x(median(r.npmStartNewDir), median(r.serverAloneNewDir)) });
});

// ---- The fuzz test's generator, longer: scripts/src/bench/fuzz.ts ----
await part('fuzz', async () => {
  const seed = flag('fuzz-seed');
  const r = await benchFuzz({ requests: Number(flag('fuzz-requests') ?? 20_000), ...(seed !== undefined && { seed: Number(seed) }), log });
  section(`Fuzz: requests made from the OpenAPI document, valid and invalid, ${r.operations} operations × 5 callers × ${r.rounds} rounds, one at a time, conformance checked (scripts/src/bench/fuzz.ts; seed ${r.seed})`);
  rows.push({ what: 'requests a second', figure: `${n(r.sent / r.seconds)}/s (${n(r.sent)} in ${r.seconds.toFixed(1)} s)` });
  const statuses = Object.entries(r.statuses).sort(([a], [b]) => Number(a) - Number(b));
  rows.push({ what: 'answers by status', figure: statuses.map(([status, count]) => `${status}: ${n(count)}`).join(', ') });
  rows.push({ what: '5xx answers', figure: String(r.serverErrors.length), peer: 'target 0' });
  rows.push({ what: 'requests or answers that disagree with the document', figure: String(r.violations.length), peer: 'target 0' });
  rows.push({ what: 'reconcile and verify-ledger afterwards', figure: r.ledger.length === 0 ? 'pass' : `${r.ledger.length} problems`, peer: 'target pass' });
  // What went wrong, to repeat with --fuzz-seed (the first 20 of each kind).
  for (const line of [...r.serverErrors.slice(0, 20), ...r.violations.slice(0, 20), ...r.ledger]) rows.push({ what: `  ${line.slice(0, 300)}`, figure: '' });
});

const against = flag('against');
if (against) {
  await part('against', async () => {
    const againstRounds = Math.max(Number(flag('rounds') ?? 24), 8);
    const { bursts, threads } = await benchAgainst({ other: against, rounds: againstRounds, log });
    let commit = '';
    try {
      commit = execFileSync('git', ['-C', against, 'log', '-1', '--format=%h %cs'], { encoding: 'utf8' }).trim();
    } catch {
      // not a git checkout: named by its directory only
    }
    section(
      `POST /api/withdrawals against ${against}${commit ? ` (${commit})` : ''}: 1 process each, both up, 64 users, default logging, ${n(WARMUP_ANSWERS)} answers of warm-up each, then ${againstRounds} rounds of one burst of ${n(BURST_ANSWERS)} answers to each, the servers started again in the other order halfway`,
    );
    const of = (side: 'this' | 'other', value: (burst: AgainstBurst) => number) => spread(bursts.filter((b) => b.side === side).map(value));
    const summary = (ratios: number[], better: (ratio: number) => boolean, word: string) => {
      const sorted = [...ratios].sort((a, b) => a - b);
      const ratio = `${median(ratios).toFixed(2)}×`;
      return { ratio, figure: `${ratio} (${sorted[0]!.toFixed(2)}–${sorted.at(-1)!.toFixed(2)})`, peer: `${word} in ${ratios.filter(better).length} of ${ratios.length} rounds` };
    };
    const answers = summary(pairRatios(bursts, (b) => b.perSecond), (r) => r > 1, 'more');
    const cpu = summary(pairRatios(bursts, (b) => b.cpuUs), (r) => r < 1, 'lower');
    rows.push({ what: 'answers a second, median (min–max) of the bursts: this checkout', figure: range(of('this', (b) => b.perSecond), '/s'), peer: `the other: ${range(of('other', (b) => b.perSecond), '/s')}` });
    rows.push({ what: 'answers a second, this over the other, each round: median (min–max)', figure: answers.figure, peer: answers.peer, ratio: answers.ratio });
    rows.push({ what: 'CPU per answer, all threads of the server process, median (min–max) of the bursts: this checkout', figure: range(of('this', (b) => b.cpuUs), ' µs'), peer: `the other: ${range(of('other', (b) => b.cpuUs), ' µs')}` });
    rows.push({ what: 'CPU per answer, this over the other, each round: median (min–max)', figure: cpu.figure, peer: cpu.peer, ratio: cpu.ratio });
    const list = (values: number[]) => `${values.map((us) => n(us)).join(' + ')} µs`;
    rows.push({ what: 'CPU per answer by thread, mean of the bursts (event loop first, then the others): this / the other', figure: list(threads.this), peer: list(threads.other) });
    const failures = bursts.reduce((sum, b) => sum + b.failures, 0);
    if (failures > 0) rows.push({ what: 'failed answers in these bursts', figure: String(failures) });
  });
} else {
  rows.push({ what: 'against: skipped (give --against DIR, another installed checkout, to compare withdrawals with it)', figure: '–' });
}

const cpu = cpus()[0]?.model ?? 'unknown CPU';
console.log(`\nKamai benchmarks: Node ${process.version}, ${cpus().length} × ${cpu}, ${n(totalmem() / 2 ** 30)} GB RAM, ${new Date().toISOString()}, load average ${loadavg().map((l) => l.toFixed(2)).join(' / ')} (1 / 5 / 15 min)\n`);
const header: BenchRow = { what: 'what', figure: 'figure', peer: 'peer or limit, same run', ratio: 'ratio' };
const widths = (['what', 'figure', 'peer', 'ratio'] as const).map((key) => Math.max(...[header, ...rows].map((row) => (row[key] ?? '').length)));
const line = (row: BenchRow) => `| ${(['what', 'figure', 'peer', 'ratio'] as const).map((key, i) => (row[key] ?? '').padEnd(widths[i]!)).join(' | ')} |`;
console.log(line(header));
console.log(`| ${widths.map((w) => '-'.repeat(w)).join(' | ')} |`);
for (const row of rows) console.log(line(row));
