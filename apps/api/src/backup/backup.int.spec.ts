import { randomBytes } from 'node:crypto';
import { existsSync, mkdtempSync, readFileSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadConfig } from '../config.ts';
import { adjust } from '../finance/testing.ts';
import { submitDocument } from '../kyc/testing.ts';
import { type RunningServer, startServer } from '../server.ts';
import { TestClient, type TestServer, startTestServer } from '../testing/index.ts';
import { BackupError, backupDataDir, restoreBackup } from './backup.ts';
import { readErasures } from './erasure-list.ts';

const FIRST = 'Vasundharaqz';
const LAST = 'Pemmarajuxk';

/** Every file under a directory, for byte searches. */
const filesUnder = (dir: string): string[] =>
  readdirSync(dir, { recursive: true, withFileTypes: true }).filter((e) => e.isFile()).map((e) => join(e.parentPath, e.name));
const bytesFound = (dir: string, needles: readonly string[]) =>
  needles.filter((needle) => filesUnder(dir).some((file) => readFileSync(file).includes(Buffer.from(needle))));

// Outside every data directory, as the witness is: the KEK comes from the environment, the list lives here.
const outside = mkdtempSync(join(tmpdir(), 'kamai-witness-'));
const env = { KEY_ENCRYPTION_KEY: randomBytes(32).toString('hex'), ERASURE_LIST: join(outside, 'erasures.jsonl') };
const configOf = (dataDir: string) =>
  loadConfig({ PORT: '0', HOST: '127.0.0.1', DATA_DIR: dataDir, SEED_DEMO: 'false', WEB_DIST: '', REGISTRATIONS_PER_HOUR: '1000000', ...env });

let server: TestServer;
let restored: RunningServer | undefined;
const backupDir = join(outside, 'backup');
const restoreDir = join(outside, 'restored');
afterAll(async () => {
  await restored?.close();
  await server?.close();
  rmSync(outside, { recursive: true, force: true });
});
beforeAll(async () => {
  server = await startTestServer(env);
});

describe('backup and restore', () => {
  it('a restored backup keeps a person erased since erased: key, images and read rows gone, books whole', async () => {
    const admin = await server.signUp({ roles: ['admin'] });
    const finance = await server.signUp({ roles: ['finance'] });
    const earner = await server.signUp();
    await adjust(finance, earner.mobile, 250);
    const person = await server.signUp({ firstName: FIRST, lastName: LAST });
    await submitDocument(server.url, person, 'pan', 41, 'ABCPV1234K');

    // Taken while the server runs.
    const manifest = await backupDataDir(configOf(server.dataDir), backupDir);
    const copied = manifest.files.map((f) => f.path);
    expect(copied).toEqual(expect.arrayContaining(['events.sqlite', 'read.sqlite', 'keys.sqlite', 'throttle.sqlite']));
    expect(copied.some((path) => path.startsWith(`objects/kyc/${person.userId}/`))).toBe(true);
    // Never the key-encryption key nor the app secret.
    expect(copied.filter((path) => /kek|secret/.test(path))).toEqual([]);
    expect(bytesFound(backupDir, [env.KEY_ENCRYPTION_KEY])).toEqual([]);

    await admin.put('/api/admin/settings', { deletionCoolingOffHours: 0 });
    const requested = await person.post('/api/profile/deletion-request', { password: person.password });
    expect(requested.status).toBe(202);
    const erased = await admin.post(`/api/admin/deletions/${requested.body.id}/erase`);
    expect(erased.status, JSON.stringify(erased.body)).toBe(200);
    // The erasure list holds ids, never the person's data.
    expect(await readErasures(env.ERASURE_LIST)).toEqual([
      { userId: person.userId, requestId: requested.body.id, erasedBy: admin.userId, erasedAt: expect.any(String) },
    ]);
    expect(readFileSync(env.ERASURE_LIST, 'utf8')).not.toMatch(new RegExp(`${person.mobile}|${FIRST}|${LAST}`));

    const report = await restoreBackup(backupDir, configOf(restoreDir));
    expect(report).toMatchObject({ reapplied: [person.userId], readModelsRebuilt: true });
    // Their images are gone, and nothing of them is left in any byte of the restored directory.
    expect(existsSync(join(restoreDir, 'objects/kyc', person.userId))).toBe(false);
    expect(bytesFound(restoreDir, [person.mobile, FIRST, LAST, 'ABCPV1234K'])).toEqual([]);

    restored = await startServer(configOf(restoreDir), () => {});
    expect(restored.personalData.keys.isErased(person.userId)).toBe(true);
    expect(restored.personalData.keys.existingKey(person.userId)).toBeNull();
    const url = `http://127.0.0.1:${restored.port}`;
    const signIn = async (who: { mobile: string; password: string }) => {
      const client = new TestClient(url);
      return { client, res: await client.post('/api/auth/login', { mobile: who.mobile, password: who.password }) };
    };
    expect((await signIn(person)).res.status).toBe(401);
    const staff = (await signIn(finance)).client;
    const statement = await staff.get(`/api/admin/ledger/users/${person.userId}/statement`);
    expect(statement.status).toBe(200);
    expect(statement.body.user).toMatchObject({ id: person.userId, name: 'Deleted user', mobile: '' });
    expect((await staff.get('/api/admin/ledger/verify')).body).toMatchObject({ ok: true });
    expect((await staff.get('/api/admin/ledger/reconciliation')).body.difference).toBe('0.00');
    expect((await staff.get('/api/admin/ledger/trial-balance')).body.difference).toBe('0.00');
    // The others came back as they were.
    const { client: earnerAgain } = await signIn(earner);
    expect((await earnerAgain.get('/api/auth/user')).body).toMatchObject({ id: earner.userId, totalRupees: '250.00' });
    // Its number is free again.
    const again = await new TestClient(url).post('/api/auth/register', { mobile: person.mobile, password: 'another123', firstName: 'New', lastName: 'Owner', consent: true });
    expect(again.status, JSON.stringify(again.body)).toBe(201);
  });

  it('refuses a damaged backup before touching the data directory', async () => {
    const target = join(outside, 'untouched');
    const damaged = join(outside, 'damaged');
    await backupDataDir(configOf(server.dataDir), damaged);
    writeFileSync(join(damaged, 'keys.sqlite'), 'not a database');
    await expect(restoreBackup(damaged, configOf(target))).rejects.toThrow(BackupError);
    expect(existsSync(target)).toBe(false);
    // Nor does a backup go over an earlier one.
    await expect(backupDataDir(configOf(server.dataDir), damaged)).rejects.toThrow(BackupError);
  });

  it('refuses, pointing to PostgreSQL\'s own backups, when the data is in PostgreSQL (EVENT_STORE=postgres)', async () => {
    const onPostgres = (dataDir: string) => loadConfig({ DATA_DIR: dataDir, EVENT_STORE: 'postgres', DATABASE_URL: 'postgres://kamai@127.0.0.1:1/kamai', ...env });
    const target = join(outside, 'not-a-backup');
    await expect(backupDataDir(onPostgres(server.dataDir), target)).rejects.toThrow(/PostgreSQL's own tools.*pg_basebackup/);
    expect(existsSync(target)).toBe(false);
    await backupDataDir(configOf(server.dataDir), join(outside, 'sqlite-backup'));
    const untouched = join(outside, 'pg-node');
    await expect(restoreBackup(join(outside, 'sqlite-backup'), onPostgres(untouched))).rejects.toThrow(BackupError);
    expect(existsSync(untouched)).toBe(false);
  });
});
