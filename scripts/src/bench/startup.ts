/**
 * Cold start of `npm start` for `npm run bench`: the time from spawning the command (node_modules
 * present, the web app already built and unchanged, so scripts/bootstrap.mjs skips its build) to the
 * server answering `GET /api/health`, the median of a few runs. Beside it, in the same run, the
 * server alone (`tsx apps/api/src/main.ts`), which is what the start command wraps.
 * One warm-up run first, not counted: it builds the web app if its sources changed and seeds the
 * data directory the measured runs then restart on. Each run is a new OS process; interleaved with
 * those, the same on a new, empty data directory (keys made, demo data seeded on first start).
 *
 *   node_modules/.bin/tsx scripts/src/bench/startup.ts [--runs 5]
 */
import { spawn } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { freePort, repoRoot } from '../browser.ts';

export interface StartupResult {
  /** `npm start` on the data directory of earlier runs, milliseconds per measured run. */
  npmStart: number[];
  /** The server alone on that data directory, milliseconds per measured run. */
  serverAlone: number[];
  /** `npm start` on a new, empty data directory each run (keys made, demo data seeded), milliseconds. */
  npmStartNewDir: number[];
  /** The server alone on a new, empty data directory each run, milliseconds. */
  serverAloneNewDir: number[];
}

export const median = (values: readonly number[]): number => {
  const sorted = [...values].sort((a, b) => a - b);
  const middle = Math.floor(sorted.length / 2);
  return sorted.length % 2 ? sorted[middle]! : (sorted[middle - 1]! + sorted[middle]!) / 2;
};

/** Spawns `command`, returns the milliseconds until `/api/health` answers 200, then stops it. */
async function timeToHealthy(command: string, args: string[], dataDir: string, timeoutMs = 120_000): Promise<number> {
  const port = await freePort();
  const started = performance.now();
  const child = spawn(command, args, {
    cwd: repoRoot,
    env: { ...process.env, PORT: String(port), HOST: '127.0.0.1', DATA_DIR: dataDir, LOG_LEVEL: 'warn' },
    stdio: 'ignore',
    // Its own process group: npm, bootstrap.mjs, tsx and the server stop together.
    detached: true,
  });
  const exited = new Promise<void>((done) => child.once('exit', () => done()));
  try {
    for (;;) {
      if (child.exitCode !== null) throw new Error(`${command} ${args.join(' ')} exited with ${child.exitCode} before answering`);
      if (performance.now() - started > timeoutMs) throw new Error(`${command} ${args.join(' ')} did not answer within ${timeoutMs} ms`);
      try {
        const answer = await fetch(`http://127.0.0.1:${port}/api/health`);
        if (answer.ok) return performance.now() - started;
      } catch {
        // Not listening yet.
      }
      await new Promise((wait) => setTimeout(wait, 10));
    }
  } finally {
    if (child.pid !== undefined && child.exitCode === null) process.kill(-child.pid, 'SIGTERM');
    await exited;
  }
}

export async function benchStartup(options: { runs?: number; log?: (line: string) => void } = {}): Promise<StartupResult> {
  const runs = options.runs ?? 5;
  const log = options.log ?? console.log;
  const dataDir = mkdtempSync(join(tmpdir(), 'kamai-bench-startup-'));
  const npm = ['npm', ['start']] as const;
  const server = [join(repoRoot, 'node_modules/.bin/tsx'), ['apps/api/src/main.ts']] as const;
  try {
    log(`  warm-up: npm start (builds the web app only if its sources changed) ${Math.round(await timeToHealthy(npm[0], [...npm[1]], dataDir, 600_000))} ms`);
    const result: StartupResult = { npmStart: [], serverAlone: [], npmStartNewDir: [], serverAloneNewDir: [] };
    const inNewDir = async (command: string, args: string[]) => {
      const fresh = mkdtempSync(join(tmpdir(), 'kamai-bench-startup-new-'));
      try {
        return await timeToHealthy(command, args, fresh);
      } finally {
        rmSync(fresh, { recursive: true, force: true });
      }
    };
    // Interleaved, so a burst of load from elsewhere on the machine hits every kind alike.
    for (let run = 0; run < runs; run++) {
      result.npmStart.push(await timeToHealthy(npm[0], [...npm[1]], dataDir));
      result.npmStartNewDir.push(await inNewDir(npm[0], [...npm[1]]));
      result.serverAlone.push(await timeToHealthy(server[0], [...server[1]], dataDir));
      result.serverAloneNewDir.push(await inNewDir(server[0], [...server[1]]));
    }
    return result;
  } finally {
    rmSync(dataDir, { recursive: true, force: true });
  }
}

if (process.argv[1] && import.meta.url === pathToFileURL(process.argv[1]).href) {
  const i = process.argv.indexOf('--runs');
  const result = await benchStartup({ runs: i > 0 ? Number(process.argv[i + 1]) : undefined });
  const ms = (values: number[]) => values.map((value) => Math.round(value)).join(', ');
  console.log(`npm start:    median ${Math.round(median(result.npmStart))} ms (${ms(result.npmStart)})`);
  console.log(`server alone: median ${Math.round(median(result.serverAlone))} ms (${ms(result.serverAlone)})`);
  console.log(`npm start, new data dir:    median ${Math.round(median(result.npmStartNewDir))} ms (${ms(result.npmStartNewDir)})`);
  console.log(`server alone, new data dir: median ${Math.round(median(result.serverAloneNewDir))} ms (${ms(result.serverAloneNewDir)})`);
}
