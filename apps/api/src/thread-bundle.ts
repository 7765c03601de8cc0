import { createHash } from 'node:crypto';
import { existsSync, mkdirSync, readFileSync, renameSync, writeFileSync } from 'node:fs';
import { basename, dirname, join, relative, resolve } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { Worker } from 'node:worker_threads';
import { buildSync, version as esbuildVersion } from 'esbuild';
import { logger } from './observability/logger.ts';
import { describeError, startTsThread, threadExecArgv } from './ts-thread.ts';

/**
 * A thread's TypeScript entry as one ES module, for a thread whose start-up is on someone's clock (a
 * build waits for its reader's first page): loaded through tsx, a thread starts tsx's hooks thread
 * and sends each of some hundred modules through it, about half a second on two busy cores; a
 * bundle loads in a tenth of that.
 *
 * Bundles live in apps/api/node_modules/.cache/kamai-threads, each beside a manifest of the files it
 * was made of and their SHA-256: a start whose files all still match uses it, any other bundles
 * again (esbuild, a few hundred milliseconds, once after a change). The packages apps/api depends on
 * stay outside the bundle and load as Node loads them from there (it is inside apps/api), so native
 * modules and modules that find files beside themselves work as they do unbundled; the workspace's
 * TypeScript (contracts, domain, projections, this package) is what goes in.
 */

const API_ROOT = resolve(dirname(fileURLToPath(import.meta.url)), '..');
const CACHE = join(API_ROOT, 'node_modules/.cache/kamai-threads');
const REPO_ROOT = resolve(API_ROOT, '../..');

interface Manifest {
  esbuild: string;
  /** Input path (relative to the repository) -> SHA-256 of its bytes. */
  inputs: Record<string, string>;
}

const sha256 = (bytes: Buffer) => createHash('sha256').update(bytes).digest('hex');

/** apps/api's dependencies but the workspace's, and their subpaths: what stays outside a bundle. */
function outsidePackages(): string[] {
  const manifest = JSON.parse(readFileSync(join(API_ROOT, 'package.json'), 'utf8')) as { dependencies?: Record<string, string> };
  return Object.keys(manifest.dependencies ?? {})
    .filter((name) => !name.startsWith('@kamai/'))
    .flatMap((name) => [name, `${name}/*`]);
}

/** The package.json nearest above a file (how its imports resolve), relative to the repository. */
function packageJsonOf(path: string): string | null {
  for (let dir = dirname(join(REPO_ROOT, path)); dir.startsWith(REPO_ROOT) && dir !== REPO_ROOT; dir = dirname(dir)) {
    if (existsSync(join(dir, 'package.json'))) return relative(REPO_ROOT, join(dir, 'package.json'));
  }
  return null;
}

function upToDate(manifestFile: string): boolean {
  let manifest: Manifest;
  try {
    manifest = JSON.parse(readFileSync(manifestFile, 'utf8')) as Manifest;
  } catch {
    return false;
  }
  if (manifest.esbuild !== esbuildVersion) return false;
  try {
    return Object.entries(manifest.inputs).every(([path, hash]) => sha256(readFileSync(join(REPO_ROOT, path))) === hash);
  } catch {
    return false;
  }
}

/** Writes `text` to `file` through a file of its own and a rename, so a reader never meets half of it. */
function writeWhole(file: string, text: string | Uint8Array): void {
  const partial = `${file}.${process.pid}.partial`;
  writeFileSync(partial, text);
  renameSync(partial, file);
}

/** The bundle of `entry` (a path relative to `parentURL`, as startTsThread takes it), made or checked now. */
export function bundledEntry(entry: string, parentURL: string): string {
  const source = fileURLToPath(new URL(entry, parentURL));
  const name = relative(REPO_ROOT, source).replaceAll(/[/\\]/g, '__').replace(/\.ts$/, '');
  const bundle = join(CACHE, `${name}.mjs`);
  const manifestFile = join(CACHE, `${name}.json`);
  if (upToDate(manifestFile)) return bundle;
  mkdirSync(CACHE, { recursive: true });
  const result = buildSync({
    entryPoints: [source],
    absWorkingDir: REPO_ROOT,
    bundle: true,
    platform: 'node',
    format: 'esm',
    target: 'node20',
    write: false,
    metafile: true,
    outfile: bundle,
    logLevel: 'silent',
    external: outsidePackages(),
    // CommonJS modules inside an ES module bundle call require: give them Node's, from the bundle's place.
    banner: { js: `import { createRequire as __kamaiRequire } from 'node:module'; const require = __kamaiRequire(import.meta.url);` },
  });
  const output = result.outputFiles.find((file) => basename(file.path) === basename(bundle));
  if (!output) throw new Error(`esbuild wrote no ${basename(bundle)}`);
  // The sources, and the package.json files that decided how their imports resolved (exports, and apps/api's dependencies).
  const paths = new Set(Object.keys(result.metafile.inputs));
  for (const path of [...paths]) {
    const packageJson = packageJsonOf(path);
    if (packageJson) paths.add(packageJson);
  }
  const inputs: Record<string, string> = {};
  for (const path of paths) inputs[path] = sha256(readFileSync(join(REPO_ROOT, path)));
  writeWhole(bundle, output.contents);
  writeWhole(manifestFile, JSON.stringify({ esbuild: esbuildVersion, inputs } satisfies Manifest));
  return bundle;
}

/**
 * As startTsThread (ts-thread.ts), from the entry's bundle (bundledEntry), for a thread whose start is waited
 * for: it loads in a tenth of the time. Where the bundle cannot be made (a cache that cannot be
 * written), tsx starts it, and `log` (the app's log by default) says why.
 */
export function startBundledThread(entry: string, parentURL: string, data: object, log: (line: string) => void = (line) => logger.warn(line)): Worker {
  let bundle: string;
  try {
    bundle = bundledEntry(entry, parentURL);
  } catch (err) {
    log(`${entry} starts through tsx: its bundle could not be made (${describeError(err)})`);
    return startTsThread(entry, parentURL, data);
  }
  return new Worker(pathToFileURL(bundle), { workerData: data, execArgv: threadExecArgv() });
}
