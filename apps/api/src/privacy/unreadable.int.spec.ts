import { execFile } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { UNREADABLE, eventCodec, streams } from '@kamai/contracts';
import Database from 'better-sqlite3';
import { afterAll, describe, expect, it } from 'vitest';
import { startApiProcess } from '../testing/process.ts';
import { TestClient, freshMobile } from '../testing/server.ts';
import { changeLetter, editAndRechain, relinkLog } from '../testing/tamper.ts';
import { openSealedSqliteStore } from './open.ts';

const run = promisify(execFile);
const root = join(import.meta.dirname, '../../../..');
const cli = (dataDir: string, ...args: string[]) =>
  run(join(root, 'node_modules/.bin/tsx'), [join(root, 'scripts/src/cli.ts'), ...args], { cwd: root, env: { ...process.env, DATA_DIR: dataDir } }).then(
    (done) => ({ code: 0, stdout: done.stdout }),
    (failed: { code: number; stdout: string }) => ({ code: failed.code, stdout: failed.stdout }),
  );

const dirs: string[] = [];
afterAll(() => {
  for (const dir of dirs) rmSync(dir, { recursive: true, force: true });
});

/** The sealed blob's ciphertext of the stored event at `position` (metadata.personal.c). */
function ciphertextAt(file: string, position: number): string {
  const db = new Database(file, { readonly: true });
  try {
    const row = db.prepare<[number], { metadata: string }>('SELECT metadata FROM events WHERE position = ?').get(position);
    return (JSON.parse(row!.metadata) as { personal: { c: string } }).personal.c;
  } finally {
    db.close();
  }
}

function registrationPosition(file: string, userId: string): number {
  const db = new Database(file, { readonly: true });
  try {
    return db.prepare<[string], { position: number }>("SELECT position FROM events WHERE stream_id = ? AND type = 'UserRegistered'").get(streams.user(userId))!.position;
  } finally {
    db.close();
  }
}

/** A person registered through an API process on `dataDir`, which then stops: their id and credentials. */
async function registerAndStop(dataDir: string): Promise<{ userId: string; mobile: string; password: string }> {
  const mobile = freshMobile();
  const password = 'secret123';
  const api = await startApiProcess(dataDir);
  try {
    const registered = await new TestClient(api.url).post('/api/auth/register', { mobile, password, firstName: 'Tamsinqx', lastName: 'Orlovvek', consent: true });
    expect(registered.status).toBe(201);
    return { userId: (registered.body as { id: string }).id, mobile, password };
  } finally {
    await api.stop();
  }
}

/**
 * The person's sealed name and number, one byte of the blob changed; the chains recomputed as
 * chain.ts says (no signing key here). The registration's position.
 */
function tamperRegistration(file: string, userId: string): number {
  const position = registrationPosition(file, userId);
  const sealed = ciphertextAt(file, position);
  editAndRechain(file, position, `"c":"${sealed}"`, `"c":"${changeLetter(sealed, 10)}"`, 'metadata');
  relinkLog(file);
  return position;
}

describe('a sealed blob changed on disk (issue 34, item 5)', () => {
  it('reads as unreadable, not erased: counted in /metrics, logged as an alert and listed by verify-ledger', async () => {
    const dataDir = mkdtempSync(join(tmpdir(), 'kamai-unreadable-'));
    dirs.push(dataDir);
    const file = join(dataDir, 'events.sqlite');
    const { userId, mobile, password } = await registerAndStop(dataDir);
    const position = tamperRegistration(file, userId);

    // Readers keep working, and read the fields as unreadable: never as erased.
    const store = openSealedSqliteStore(file);
    try {
      const event = eventCodec.decode((await store.readStream(streams.user(userId)))[0]!);
      expect(event?.data).toMatchObject({ userId, mobile: UNREADABLE, firstName: UNREADABLE, lastName: UNREADABLE });
    } finally {
      await store.close();
    }

    const api = await startApiProcess(dataDir, { LOG_LEVEL: 'error' });
    try {
      const user = new TestClient(api.url);
      // Signing in reads the read model (written before the change); the deletion request decides on the user's stream.
      expect((await user.post('/api/auth/login', { mobile, password })).status).toBe(200);
      expect((await user.post('/api/profile/deletion-request', { password })).status).toBe(202);
      const metrics = await (await fetch(`${api.url}/metrics`)).text();
      expect(metrics).toMatch(/^kamai_sealed_unreadable_total 1$/m);
      await expect.poll(() => api.output().includes('"alert":"sealed_unreadable"')).toBe(true);
      const alert = api
        .output()
        .split('\n')
        .filter((line) => line.includes('"alert":"sealed_unreadable"'))
        .map((line) => JSON.parse(line) as Record<string, unknown>);
      expect(alert[0]).toMatchObject({ level: 50, streamId: streams.user(userId), position, type: 'UserRegistered' });
      expect(api.output()).not.toContain(mobile);
    } finally {
      await api.stop();
    }

    const verified = await cli(dataDir, 'verify-ledger');
    expect(verified.code).toBe(4);
    expect(verified.stdout).toContain(`unreadable: UserRegistered event in stream ${streams.user(userId)} at position ${position}`);
    expect(verified.stdout).toContain('TAMPERED: unreadable');
  });

  it('read by the projection thread (a build of the read models): counted in the serving thread’s /metrics and logged', async () => {
    const dataDir = mkdtempSync(join(tmpdir(), 'kamai-unreadable-'));
    dirs.push(dataDir);
    const file = join(dataDir, 'events.sqlite');
    const { userId } = await registerAndStop(dataDir);
    const position = tamperRegistration(file, userId);
    // No read models: the projection thread builds them all from the log, and so opens the registration.
    for (const suffix of ['', '-wal', '-shm']) rmSync(join(dataDir, `read.sqlite${suffix}`), { force: true });

    const api = await startApiProcess(dataDir, { LOG_LEVEL: 'error' });
    try {
      // No request reads the person: what is counted was read on the projection thread.
      await expect.poll(async () => (await (await fetch(`${api.url}/metrics`)).text()).match(/^kamai_sealed_unreadable_total (\d+)$/m)?.[1]).toBe('1');
      await expect.poll(() => api.output().includes('"alert":"sealed_unreadable"')).toBe(true);
      const alert = api
        .output()
        .split('\n')
        .find((line) => line.includes('"alert":"sealed_unreadable"'));
      expect(JSON.parse(alert!)).toMatchObject({ streamId: streams.user(userId), position, type: 'UserRegistered' });
    } finally {
      await api.stop();
    }
  });
});
