import { spawn } from 'node:child_process';
import { mkdirSync, mkdtempSync, readdirSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';

const dir = mkdtempSync(join(tmpdir(), 'kamai-secret-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

/** One OS process that loads the data directory's signing key and prints it as hex. */
function keyFromAnotherProcess(dataDir: string): Promise<string> {
  const script = `import { loadSecret } from ${JSON.stringify(join(import.meta.dirname, 'server.ts'))};
process.stdout.write(Buffer.from(loadSecret({ appSecret: undefined, dataDir: ${JSON.stringify(dataDir)} })).toString('hex'));`;
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, ['--import', 'tsx', '--input-type=module', '-e', script], { stdio: ['ignore', 'pipe', 'pipe'] });
    let out = '';
    let err = '';
    child.stdout.on('data', (chunk: Buffer) => (out += chunk.toString()));
    child.stderr.on('data', (chunk: Buffer) => (err += chunk.toString()));
    child.once('exit', (code) => (code === 0 ? resolve(out) : reject(new Error(err))));
  });
}

describe('the upload signing key of a data directory', () => {
  it('is created once when several processes start on a fresh directory at the same moment, and all read the whole key', async () => {
    const dataDir = join(dir, 'fresh');
    mkdirSync(dataDir);
    const keys = await Promise.all(Array.from({ length: 6 }, () => keyFromAnotherProcess(dataDir)));
    expect(keys[0]).toMatch(/^[0-9a-f]{64}$/);
    expect(new Set(keys).size).toBe(1);
    // Only the key is left: no draft files.
    expect(readdirSync(dataDir)).toEqual(['secret.key']);
  });
});
