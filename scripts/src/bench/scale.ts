/**
 * The bench's `scale` part (issue 35): `POST /api/withdrawals` per second and CPU per answer on the
 * embedded SQLite store with one API process, and on PostgreSQL with one, two and three nodes (each
 * node an API process with a DATA_DIR of its own, all on one database), and with two and three nodes
 * of which one serves and the others only follow the log (what following costs). Two and three nodes
 * run twice: with the one node's USERS spread over them, and with USERS each, as nodes are added
 * when users are (a node with fewer users in flight commits and reads smaller batches, so its CPU per
 * answer grows with its load falling, whatever the node count). CPU per answer counts every
 * process that served: the API processes (Linux /proc, with their descendants and threads) and the
 * PostgreSQL cluster (the postmaster and its backends). The cluster is a throwaway one on this
 * machine with the server's durable defaults (fsync, synchronous commit), as SQLite commits
 * synchronous=FULL. The runs are interleaved (A B C … C B A, `rounds` times) so the machine's drift
 * falls on all alike; each run starts its processes afresh on the same data, and is measured once
 * every node's read models have caught up with the log and after WARM_UP_SECONDS of the same load.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { postgresNodesEnv, startThrowawayCluster } from '@kamai/api/testing';
import autocannon from 'autocannon';
import { type Child, caughtUp, fundedUsers, spread, startApi, treeCpuMs, withdrawals } from './http.ts';

export interface ScaleRun {
  perSecond: number;
  /** µs of CPU per answer: the API processes, and PostgreSQL's processes (0 on SQLite). */
  apiCpuUs: number;
  postgresCpuUs: number;
  failures: number;
  /** From the nodes' start until each one's read models had applied the whole log, before the run. */
  catchUpMs: number;
}

export interface ScaleConfig {
  name: string;
  nodes: number;
  /** Nodes the load goes to (the first ones); the others only follow the log. All, when absent. */
  serving?: number;
  /** USERS of its own for each serving node; absent, the USERS are spread over the serving nodes. */
  usersEach?: boolean;
  runs: ScaleRun[];
}

const USERS = 48;
/**
 * Seconds of load on a run's fresh nodes before it is measured. Three nodes sharing the load each
 * take about 15 s to reach the CPU per answer they keep (each runs its code a third as often, so its
 * JIT gets there later); one node about 10 s. Measured at 5 s, the start's cost fell on every node.
 */
export const WARM_UP_SECONDS = 15;

/** Adds up CPU ms of the given pids (null when /proc cannot tell). */
const cpuMs = (pids: (number | undefined)[]) => {
  const each = pids.map((pid) => treeCpuMs(pid));
  return each.every((v) => v !== null) ? each.reduce<number>((a, b) => a + b!, 0) : null;
};

export async function benchScale(options: { seconds?: number; rounds?: number; log?: (line: string) => void } = {}): Promise<ScaleConfig[]> {
  const seconds = options.seconds ?? 5;
  const rounds = options.rounds ?? 2;
  const log = options.log ?? console.log;
  const dir = mkdtempSync(join(tmpdir(), 'kamai-bench-scale-'));
  const cluster = await startThrowawayCluster({ durable: true });
  try {
    // The cluster is this part's alone: its first database holds the log.
    const pgEnv = postgresNodesEnv(cluster.url);
    const sqliteDir = join(dir, 'sqlite');
    const nodeDirs = [1, 2, 3].map((i) => join(dir, `node-${i}`));

    // The data: demo staff and USERS funded users on each store (sessions are in the log: any node takes them).
    const seeded = async (dataDir: string, env: Record<string, string>, count: number) => {
      const api = await startApi(dataDir, true, env);
      try {
        // Floats by use: the first USERS serve in every configuration (some 9,500 withdrawals each in
        // two rounds), the others only in the runs of USERS each. A finance member may credit at most
        // the settings' largest daily limit (about ₹10 crore) in a day.
        const first = (await fundedUsers(api.url, USERS, 7_100_000_000, count > USERS ? '1500000.00' : undefined)).cookies;
        const more = count > USERS ? (await fundedUsers(api.url, count - USERS, 7_100_000_000 + USERS, '250000.00')).cookies : [];
        return [...first, ...more];
      } finally {
        await api.stop();
      }
    };
    const cookies = { sqlite: await seeded(sqliteDir, {}, USERS), postgres: await seeded(nodeDirs[0]!, pgEnv, 3 * USERS) };
    log(`  ${USERS} funded users on SQLite, ${3 * USERS} on PostgreSQL; ${seconds} s per run`);

    const configs: (ScaleConfig & { kind: 'sqlite' | 'postgres' })[] = [
      { name: 'SQLite, 1 process', nodes: 1, kind: 'sqlite', runs: [] },
      { name: 'PostgreSQL, 1 node', nodes: 1, kind: 'postgres', runs: [] },
      { name: `PostgreSQL, 2 nodes, ${USERS} users spread`, nodes: 2, kind: 'postgres', runs: [] },
      { name: `PostgreSQL, 3 nodes, ${USERS} users spread`, nodes: 3, kind: 'postgres', runs: [] },
      // What following the log costs: nodes that serve nothing beside one that serves a node's load.
      { name: 'PostgreSQL, 2 nodes, one serving', nodes: 2, serving: 1, kind: 'postgres', runs: [] },
      { name: 'PostgreSQL, 3 nodes, one serving', nodes: 3, serving: 1, kind: 'postgres', runs: [] },
      { name: `PostgreSQL, 2 nodes, ${USERS} users each`, nodes: 2, usersEach: true, kind: 'postgres', runs: [] },
      { name: `PostgreSQL, 3 nodes, ${USERS} users each`, nodes: 3, usersEach: true, kind: 'postgres', runs: [] },
    ];
    const once = async (config: (typeof configs)[number]) => {
      const nodes: Child[] = [];
      try {
        for (let i = 0; i < config.nodes; i++) nodes.push(await startApi(config.kind === 'sqlite' ? sqliteDir : nodeDirs[i]!, false, config.kind === 'sqlite' ? {} : pgEnv));
        // A node's read models first apply what the other configurations' runs appended since it last
        // ran (thousands of events): a start's cost, timed apart, not an answer's.
        const began = performance.now();
        await Promise.all(nodes.map((node) => caughtUp(node.url)));
        const catchUpMs = performance.now() - began;
        // Each user on one node (as a load balancer spreads users), the connections split with them.
        const serving = nodes.slice(0, config.serving ?? nodes.length);
        const users = cookies[config.kind].slice(0, config.usersEach ? serving.length * USERS : USERS);
        const shares = serving.map((_, i) => users.filter((_, u) => u % serving.length === i));
        // Warmed up by the same load first: a fresh node's first seconds load modules (under tsx),
        // fold each user's stream from its snapshot and warm the JIT, a start's cost, not an answer's.
        await Promise.all(serving.map((node, i) => autocannon({ url: node.url, duration: WARM_UP_SECONDS, ...withdrawals(node.url, shares[i]!) })));
        const postmaster = config.kind === 'postgres' ? cluster.postmasterPid() : undefined;
        const apiBefore = cpuMs(nodes.map((n) => n.pid));
        const pgBefore = postmaster === undefined ? 0 : cpuMs([postmaster]);
        const results = await Promise.all(serving.map((node, i) => autocannon({ url: node.url, duration: seconds, ...withdrawals(node.url, shares[i]!) })));
        const apiAfter = cpuMs(nodes.map((n) => n.pid));
        const pgAfter = postmaster === undefined ? 0 : cpuMs([postmaster]);
        const answers = results.reduce((sum, r) => sum + r.requests.total, 0) || 1;
        const perAnswer = (before: number | null, after: number | null) => (before === null || after === null ? Number.NaN : ((after - before) * 1000) / answers);
        config.runs.push({
          perSecond: Math.round(results.reduce((sum, r) => sum + r.requests.average, 0)),
          apiCpuUs: perAnswer(apiBefore, apiAfter),
          postgresCpuUs: perAnswer(pgBefore, pgAfter),
          failures: results.reduce((sum, r) => sum + r.non2xx + r.errors + r.timeouts, 0),
          catchUpMs,
        });
      } finally {
        for (const node of nodes) await node.stop();
      }
    };
    for (let round = 0; round < rounds; round++) {
      for (const config of [...configs, ...[...configs].reverse()]) await once(config);
    }
    for (const config of configs) {
      log(`  ${config.name}: ${config.runs.map((r) => r.perSecond).join(', ')}/s; read models caught up after ${config.runs.map((r) => Math.round(r.catchUpMs)).join(', ')} ms`);
    }
    return configs;
  } finally {
    cluster.stop();
    rmSync(dir, { recursive: true, force: true });
  }
}

/** The median and spread of a config's runs, for the table. */
export function scaleFigures(config: ScaleConfig) {
  return {
    perSecond: spread(config.runs.map((r) => r.perSecond)),
    apiCpuUs: spread(config.runs.map((r) => r.apiCpuUs)),
    postgresCpuUs: spread(config.runs.map((r) => r.postgresCpuUs)),
    failures: config.runs.reduce((sum, r) => sum + r.failures, 0),
  };
}
