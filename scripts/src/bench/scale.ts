/**
 * The bench's `scale` part (issue 35): `POST /api/withdrawals` per second and CPU per answer on the
 * embedded SQLite store with one API process, and on PostgreSQL with one, two and three nodes (each
 * node an API process with a DATA_DIR of its own, all on one database), and with two nodes of which
 * one serves and the other only follows the log (what following costs a node). CPU per answer counts every
 * process that served: the API processes (Linux /proc, with their descendants and threads) and the
 * PostgreSQL cluster (the postmaster and its backends). The cluster is a throwaway one on this
 * machine with the server's durable defaults (fsync, synchronous commit), as SQLite commits
 * synchronous=FULL. The runs are interleaved (A B C D E E D C B A, `rounds` times) so the machine's drift
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
  runs: ScaleRun[];
}

const USERS = 48;
/** Seconds of load on a run's fresh nodes before it is measured. */
export const WARM_UP_SECONDS = 2;

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
    const seeded = async (dataDir: string, env: Record<string, string>) => {
      const api = await startApi(dataDir, true, env);
      try {
        return (await fundedUsers(api.url, USERS)).cookies;
      } finally {
        await api.stop();
      }
    };
    const cookies = { sqlite: await seeded(sqliteDir, {}), postgres: await seeded(nodeDirs[0]!, pgEnv) };
    log(`  ${USERS} funded users on each store; ${seconds} s per run`);

    const configs: (ScaleConfig & { kind: 'sqlite' | 'postgres' })[] = [
      { name: 'SQLite, 1 process', nodes: 1, kind: 'sqlite', runs: [] },
      { name: 'PostgreSQL, 1 node', nodes: 1, kind: 'postgres', runs: [] },
      { name: 'PostgreSQL, 2 nodes', nodes: 2, kind: 'postgres', runs: [] },
      { name: 'PostgreSQL, 3 nodes', nodes: 3, kind: 'postgres', runs: [] },
      // What following the log costs a node: a second one that serves nothing.
      { name: 'PostgreSQL, 2 nodes, one serving', nodes: 2, serving: 1, kind: 'postgres', runs: [] },
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
        const users = cookies[config.kind];
        const serving = nodes.slice(0, config.serving ?? nodes.length);
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
