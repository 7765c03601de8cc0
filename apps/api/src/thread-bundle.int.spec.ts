import { mkdirSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { pathToFileURL } from 'node:url';
import type { Worker } from 'node:worker_threads';
import { afterAll, describe, expect, it } from 'vitest';
import { bundledEntry, startBundledThread } from './thread-bundle.ts';

// An entry of its own inside apps/api (bundles are named after their place in the repository; .tmp/ is ignored by git).
const dir = resolve(import.meta.dirname, `../.tmp/thread-bundle-${process.pid}`);
mkdirSync(dir, { recursive: true });
const parentURL = pathToFileURL(join(dir, 'parent.ts')).href;
writeFileSync(join(dir, 'answer.ts'), `export const answer = 'first';\n`);
writeFileSync(
  join(dir, 'entry.ts'),
  [
    `import { parentPort, workerData } from 'node:worker_threads';`,
    `import { formatPaise } from '@kamai/contracts';`,
    `import Database from 'better-sqlite3';`,
    `import { answer } from './answer.ts';`,
    // A workspace package bundled in, a native one loaded from outside, and the thread's data.
    `parentPort!.postMessage({ answer, rupees: formatPaise(workerData.paise), sqlite: new Database(':memory:').prepare('SELECT 41 + 1 AS n').get() });`,
  ].join('\n'),
);
afterAll(() => {
  rmSync(dir, { recursive: true, force: true });
  // This entry's bundle and manifest, left in the shared cache otherwise.
  for (const file of made) rmSync(file, { force: true });
});
const made = new Set<string>();

async function answerOf(worker: Worker): Promise<unknown> {
  try {
    return await new Promise((resolve, reject) => {
      worker.once('message', resolve);
      worker.once('error', reject);
    });
  } finally {
    await worker.terminate();
  }
}

describe('a thread started from its bundle', () => {
  it('runs the workspace TypeScript bundled, loads apps/api dependencies from outside, and is bundled again when a file it was made of changes', async () => {
    expect(await answerOf(startBundledThread('./entry.ts', parentURL, { paise: 12345 }))).toEqual({ answer: 'first', rupees: '123.45', sqlite: { n: 42 } });
    const bundle = bundledEntry('./entry.ts', parentURL);
    made.add(bundle).add(bundle.replace(/\.mjs$/, '.json'));
    const text = readFileSync(bundle, 'utf8');
    expect(text).toContain("from \"better-sqlite3\"");
    expect(text).not.toContain('@kamai/contracts');

    // Unchanged: the same file, not written again.
    const written = statSync(bundle).mtimeMs;
    expect(bundledEntry('./entry.ts', parentURL)).toBe(bundle);
    expect(statSync(bundle).mtimeMs).toBe(written);

    writeFileSync(join(dir, 'answer.ts'), `export const answer = 'second';\n`);
    expect(await answerOf(startBundledThread('./entry.ts', parentURL, { paise: 5 }))).toEqual({ answer: 'second', rupees: '0.05', sqlite: { n: 42 } });
  });

  it('starts through tsx, and says why, when the entry cannot be bundled', async () => {
    writeFileSync(join(dir, 'broken.ts'), `import { parentPort } from 'node:worker_threads';\nimport { missing } from './nowhere.ts';\nparentPort!.postMessage(missing);\n`);
    const lines: string[] = [];
    const worker = startBundledThread('./broken.ts', parentURL, {}, (line) => lines.push(line));
    expect(lines).toEqual([expect.stringMatching(/^\.\/broken\.ts starts through tsx: its bundle could not be made \(.*nowhere/s)]);
    // tsx meets the same missing file, and the boot script reports it as the entries report failures.
    expect(await answerOf(worker)).toMatchObject({ kind: 'failed', message: expect.stringContaining('nowhere') });
  });
});
