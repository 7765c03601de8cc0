#!/usr/bin/env node
// The entry behind the root `npm start`, `npm test`, `npm run bench`, `npm run cli`, `npm run worker`
// and `npm run typecheck`. It installs whatever a fresh machine lacks (pnpm through npx, the workspace's
// dependencies, Debian's Chromium and a Devanagari font for the browser tests, Debian's PostgreSQL server
// for the event-store tests) and then runs the command. Plain Node and no dependencies, because it runs
// before anything is installed.
import { spawnSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import { existsSync, readFileSync, readdirSync, statSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');
const PNPM = ['-y', 'pnpm@10.34.9'];
const [command, ...rest] = process.argv.slice(2);

function run(cmd, args, opts = {}) {
  const result = spawnSync(cmd, args, { cwd: root, stdio: 'inherit', ...opts });
  if (result.error) throw result.error;
  if (result.status !== 0) process.exit(result.status ?? 1);
}
const pnpm = (...args) => run('npx', [...PNPM, ...args]);
const bin = (name) => join(root, 'node_modules', '.bin', name);

function ensureDependencies() {
  const marker = join(root, 'node_modules', '.modules.yaml');
  const lock = join(root, 'pnpm-lock.yaml');
  const fresh = existsSync(marker) && (!existsSync(lock) || statSync(lock).mtimeMs <= statSync(marker).mtimeMs);
  if (fresh) return;
  console.log('[bootstrap] installing dependencies with pnpm (better-sqlite3 compiles from source, about a minute)');
  pnpm('install', ...(existsSync(lock) && process.env.CI ? ['--frozen-lockfile'] : []));
}

export function chromiumPath() {
  return process.env.CHROMIUM_PATH ?? '/usr/bin/chromium';
}

const aptInstall = (...packages) => {
  run('apt-get', ['update', '-qq']);
  run('apt-get', ['install', '-y', '-qq', ...packages], { env: { ...process.env, DEBIAN_FRONTEND: 'noninteractive' } });
};

function ensureChromium() {
  if (existsSync(chromiumPath())) return;
  if (process.getuid?.() !== 0) {
    console.error(`[bootstrap] Chromium is missing at ${chromiumPath()}; install Debian's "chromium" package or set CHROMIUM_PATH.`);
    process.exit(1);
  }
  console.log('[bootstrap] installing Chromium from Debian for the browser tests');
  aptInstall('chromium');
}

/**
 * The int tests start a throwaway PostgreSQL cluster of their own (apps/api/src/event-store/
 * postgres-cluster.ts) from Debian's server binaries, under /usr/lib/postgresql/<version>/bin.
 */
function hasPostgresServer() {
  if (process.env.POSTGRES_BIN || process.env.TEST_DATABASE_URL) return true;
  const base = '/usr/lib/postgresql';
  return existsSync(base) && readdirSync(base).some((version) => existsSync(join(base, version, 'bin', 'initdb')));
}

function ensurePostgres() {
  if (hasPostgresServer()) return;
  if (process.getuid?.() !== 0) {
    console.error('[bootstrap] PostgreSQL\'s server is missing: install Debian\'s "postgresql" package, or set POSTGRES_BIN (its bin folder) or TEST_DATABASE_URL.');
    process.exit(1);
  }
  console.log('[bootstrap] installing PostgreSQL from Debian for the event-store tests');
  aptInstall('postgresql');
}

/** Whether fontconfig knows a font for Hindi; a missing fc-list counts as no. */
function hasDevanagariFont() {
  const result = spawnSync('fc-list', [':lang=hi', 'family'], { encoding: 'utf8' });
  return result.status === 0 && result.stdout.trim() !== '';
}

/**
 * Headless Chromium draws Hindi with whatever fontconfig offers: without a Devanagari font every
 * letter is a box in screenshots, and money-confirmations.e2e (which checks the font Chromium drew
 * Hindi with) fails. Noto Sans Devanagari is what Android phones show.
 */
function ensureDevanagariFont() {
  if (hasDevanagariFont()) return;
  if (process.getuid?.() !== 0) {
    console.warn('[bootstrap] no Devanagari font: Hindi shows as boxes and a browser test fails; install Debian\'s "fonts-noto-core".');
    return;
  }
  console.log('[bootstrap] installing a Devanagari font from Debian (fonts-noto-core) for the browser tests');
  aptInstall('fonts-noto-core');
}

/**
 * A hash of everything the web build reads: its sources and config, the contracts it imports and
 * the lockfile. Stored next to the build, so `npm start` skips an unchanged web app.
 */
function webSourceHash() {
  const hash = createHash('sha256');
  const skip = new Set(['node_modules', 'dist', 'e2e', 'test-results']);
  const walk = (path) => {
    if (!existsSync(path)) return;
    if (statSync(path).isDirectory()) {
      for (const name of readdirSync(path).sort()) if (!skip.has(name)) walk(join(path, name));
      return;
    }
    hash.update(path.slice(root.length)).update('\0').update(readFileSync(path)).update('\0');
  };
  for (const part of ['apps/web', 'contracts/src', 'contracts/package.json', 'pnpm-lock.yaml', 'tsconfig.json']) walk(join(root, part));
  return hash.digest('hex');
}

function buildWeb({ always = false } = {}) {
  const stamp = join(root, 'apps', 'web', 'dist', '.source-hash');
  const current = webSourceHash();
  if (!always && existsSync(stamp) && existsSync(join(root, 'apps', 'web', 'dist', 'index.html')) && readFileSync(stamp, 'utf8') === current) {
    console.log('[bootstrap] web app unchanged since its last build; skipping the build');
    return;
  }
  pnpm('--filter', '@kamai/web', 'build');
  writeFileSync(stamp, current);
}
const typecheck = () => pnpm('-r', '--workspace-concurrency=1', 'typecheck');
// No import cycles, and the layers point one way (.dependency-cruiser.cjs); a violation fails the run.
const checkDependencies = () =>
  run(bin('depcruise'), ['--config', '.dependency-cruiser.cjs', '--output-type', 'err', 'contracts', 'domain', 'projections', 'apps', 'scripts']);

ensureDependencies();
switch (command) {
  case 'start':
    buildWeb();
    run(bin('tsx'), ['apps/api/src/main.ts', ...rest]);
    break;
  case 'test':
    ensureChromium();
    ensureDevanagariFont();
    ensurePostgres();
    typecheck();
    checkDependencies();
    buildWeb();
    run(bin('vitest'), ['run', ...rest]);
    break;
  case 'typecheck':
    typecheck();
    break;
  case 'bench':
    run(bin('tsx'), ['scripts/src/bench.ts', ...rest]);
    break;
  case 'cli':
    run(bin('tsx'), ['scripts/src/cli.ts', ...rest]);
    break;
  case 'worker':
    // Node with tsx as a loader, not the tsx CLI: the CLI relays SIGTERM to its child and kills it
    // outright when the child does not acknowledge within 30 ms, which a busy worker may not.
    run(process.execPath, ['--import', 'tsx', 'apps/api/src/worker.ts', ...rest]);
    break;
  default:
    console.error('usage: bootstrap.mjs start|test|typecheck|bench|cli|worker [args]');
    process.exit(2);
}
