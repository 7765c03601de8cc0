/**
 * The int tests' PostgreSQL: vitest's globalSetup for the int project (vitest.config.ts) starts a
 * throwaway cluster in a temp folder on a free loopback port and stops it after the run; specs get
 * its URL with `inject('postgres')` (postgres-testing.ts makes each spec file a database of its own).
 *
 * The server binaries are Debian's `postgresql` package (scripts/bootstrap.mjs installs it for
 * `npm test`), found under /usr/lib/postgresql/<version>/bin, or in POSTGRES_BIN. PostgreSQL refuses to
 * run as root, so as root (CI) the cluster is run by the package's `postgres` user. TEST_DATABASE_URL
 * names a server to use instead. When none can start, the specs that need it fail with the reason
 * (they are never skipped); the other int tests run as usual.
 */
import { execFileSync, spawnSync } from 'node:child_process';
import { chownSync, existsSync, mkdtempSync, readFileSync, readdirSync, rmSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { TestProject } from 'vitest/node';

export type PostgresForTests = { url: string } | { error: string };

declare module 'vitest' {
  export interface ProvidedContext {
    postgres: PostgresForTests;
  }
}

const USER = 'kamai';

function binDir(): string | null {
  if (process.env.POSTGRES_BIN) return existsSync(join(process.env.POSTGRES_BIN, 'initdb')) ? process.env.POSTGRES_BIN : null;
  const base = '/usr/lib/postgresql';
  if (!existsSync(base)) return null;
  const versions = readdirSync(base)
    .filter((v) => existsSync(join(base, v, 'bin', 'initdb')))
    .sort((a, b) => Number(b) - Number(a));
  return versions[0] ? join(base, versions[0], 'bin') : null;
}

function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const address = server.address();
      server.close(() => (typeof address === 'object' && address ? resolve(address.port) : reject(new Error('no port'))));
    });
  });
}

/** A server binary's command line, as the `postgres` user when this process is root. */
function asUser(uid: number | null, bin: string, args: string[]): [string, string[]] {
  return uid === null ? [bin, args] : ['setpriv', [`--reuid=${uid}`, `--regid=${gidOf('postgres')}`, '--clear-groups', bin, ...args]];
}

function runAs(uid: number | null, bin: string, args: string[]): void {
  const result = spawnSync(...asUser(uid, bin, args), { encoding: 'utf8', timeout: 60_000 });
  if (result.status !== 0) throw new Error(`${bin} ${args[0] ?? ''} failed: ${result.error?.message ?? ''}${result.stderr}${result.stdout}`.trim());
}

function gidOf(user: string): number {
  return Number(execFileSync('id', ['-g', user], { encoding: 'utf8' }).trim());
}

/**
 * Starts a throwaway cluster: the tests' (no fsync: their data is thrown away), or with `durable` the
 * server's defaults (fsync, synchronous commit), for the bench's figures beside SQLite's synchronous
 * commits. `postmasterPid` is for the bench's CPU figures (the backends are its children).
 */
export async function startThrowawayCluster(options: { durable?: boolean } = {}): Promise<{ url: string; stop: () => void; postmasterPid: () => number }> {
  const { url, stop, data } = await start(options.durable ?? false);
  return { url, stop, postmasterPid: () => Number(readFileSync(join(data, 'postmaster.pid'), 'utf8').split('\n')[0]) };
}

async function start(durable = false): Promise<{ url: string; stop: () => void; data: string }> {
  const bin = binDir();
  if (!bin) {
    throw new Error(
      "PostgreSQL's server binaries were not found (looked in /usr/lib/postgresql/*/bin and POSTGRES_BIN): run `npm test`, which installs Debian's postgresql package, or `apt-get install postgresql`",
    );
  }
  let uid: number | null = null;
  if (process.getuid?.() === 0) {
    const found = spawnSync('id', ['-u', 'postgres'], { encoding: 'utf8' });
    if (found.status !== 0) throw new Error('running as root, and there is no "postgres" user to run PostgreSQL as (Debian\'s postgresql package creates it)');
    uid = Number(found.stdout.trim());
  }
  const dir = mkdtempSync(join(tmpdir(), 'kamai-postgres-'));
  if (uid !== null) chownSync(dir, uid, gidOf('postgres'));
  const data = join(dir, 'data');
  const port = await freePort();
  const stop = () => {
    spawnSync(...asUser(uid, join(bin, 'pg_ctl'), ['-D', data, '-m', 'immediate', '-w', 'stop']), { stdio: 'ignore' });
    rmSync(dir, { recursive: true, force: true });
  };
  try {
    runAs(uid, join(bin, 'initdb'), ['-D', data, '-U', USER, '--auth=trust', '-E', 'UTF8', '--no-sync', '--locale=C']);
    // Throwaway data: no fsync. The socket goes in the temp folder, TCP on loopback only.
    const throwaway = durable ? '' : ' -c fsync=off -c synchronous_commit=off -c full_page_writes=off';
    const settings = `-p ${port} -k ${dir} -c listen_addresses=127.0.0.1${throwaway} -c max_connections=300`;
    runAs(uid, join(bin, 'pg_ctl'), ['-D', data, '-l', join(dir, 'server.log'), '-o', settings, '-w', '-t', '60', 'start']);
  } catch (error) {
    const log = join(dir, 'server.log');
    const tail = existsSync(log) ? `\n${readFileSync(log, 'utf8').slice(-2000)}` : '';
    stop();
    throw new Error(`${error instanceof Error ? error.message : String(error)}${tail}`);
  }
  return { url: `postgres://${USER}@127.0.0.1:${port}/postgres`, stop, data };
}

export default async function setup(project: TestProject): Promise<() => void> {
  const given = process.env.TEST_DATABASE_URL;
  if (given) {
    project.provide('postgres', { url: given });
    return () => {};
  }
  try {
    const { url, stop } = await start();
    project.provide('postgres', { url });
    return stop;
  } catch (error) {
    project.provide('postgres', { error: `PostgreSQL could not be started for the tests: ${error instanceof Error ? error.message : String(error)}` });
    return () => {};
  }
}
