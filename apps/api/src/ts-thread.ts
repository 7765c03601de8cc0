import { createRequire } from 'node:module';
import { pathToFileURL } from 'node:url';
import { Worker } from 'node:worker_threads';

// CommonJS, run by `eval`: loads the TypeScript entry through tsx's API, which works whether this
// process itself runs under tsx, vitest or anything else. A failure to load is reported as a
// message of kind 'failed', as the entries report their own failures.
const BOOT = `
const { workerData, parentPort } = require('node:worker_threads');
import(workerData.tsxApi)
  .then(({ tsImport }) => tsImport(workerData.entry, workerData.parentURL))
  .catch((err) => parentPort.postMessage({ kind: 'failed', message: String((err && err.stack) || err) }));
`;

/**
 * A worker thread running a TypeScript module of this package: `entry` relative to `parentURL`
 * (the caller's import.meta.url). The module reads `data` as workerData.
 */
export function startTsThread(entry: string, parentURL: string, data: object): Worker {
  const require = createRequire(import.meta.url);
  // The ESM build of tsx's API (resolve() picks the CommonJS one, which cannot load the ESM hooks).
  const tsxApi = pathToFileURL(require.resolve('tsx/esm/api').replace(/\.cjs$/, '.mjs')).href;
  return new Worker(BOOT, { eval: true, workerData: { ...data, tsxApi, entry, parentURL }, execArgv: threadExecArgv() });
}

/** This process's flags for a thread: no loader flags (a thread loads its own way); others (--cpu-prof...) pass on. */
export function threadExecArgv(): string[] {
  const execArgv: string[] = [];
  for (let i = 0; i < process.execArgv.length; i++) {
    const flag = process.execArgv[i]!;
    if (/^--(import|require|loader|experimental-loader)$/.test(flag) || flag === '-r') i++;
    else if (!/^--(import|require|loader|experimental-loader)=/.test(flag)) execArgv.push(flag);
  }
  return execArgv;
}

/** An error as a thread reports it to its parent in a `failed` message: its stack when it has one. */
export function describeError(err: unknown): string {
  return err instanceof Error ? (err.stack ?? err.message) : String(err);
}
