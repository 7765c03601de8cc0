import { execFile } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import Database from 'better-sqlite3';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type ApiProcess, TestClient, freshMobile, startApiProcess } from '@kamai/api/testing';

const run = promisify(execFile);
const root = join(import.meta.dirname, '../..');
const cli = (dataDir: string, ...args: string[]) =>
  run(join(root, 'node_modules/.bin/tsx'), [join(root, 'scripts/src/cli.ts'), ...args], {
    cwd: root,
    env: { ...process.env, DATA_DIR: dataDir },
  });

/** Every row of every read-model table except the checkpoint's timestamp, for comparing models. */
function dumpReadModels(file: string) {
  const db = new Database(file, { readonly: true });
  try {
    const tables = db
      .prepare("SELECT name FROM sqlite_master WHERE type='table' AND name NOT LIKE 'kysely_%' AND name NOT LIKE 'sqlite_%' ORDER BY name")
      .all() as { name: string }[];
    return Object.fromEntries(
      tables.map(({ name }) => [
        name,
        name === 'checkpoints'
          ? db.prepare('SELECT name, version, position FROM checkpoints ORDER BY name').all()
          : db.prepare(`SELECT * FROM "${name}" ORDER BY rowid`).all().sort((a, b) => JSON.stringify(a).localeCompare(JSON.stringify(b))),
      ]),
    );
  } finally {
    db.close();
  }
}

let dataDir: string;
let api: ApiProcess;
beforeAll(async () => {
  dataDir = mkdtempSync(join(tmpdir(), 'kamai-cli-'));
  api = await startApiProcess(dataDir);
});
afterAll(async () => {
  await api?.stop();
  rmSync(dataDir, { recursive: true, force: true });
});

async function signUp() {
  const client = new TestClient(api.url);
  const mobile = freshMobile();
  const res = await client.post('/api/auth/register', { mobile, password: 'secret123', firstName: 'Sita', lastName: 'Verma' });
  expect(res.status).toBe(201);
  return { client, mobile };
}

describe('npm run cli', () => {
  it('grant-role takes effect in the running app within a second', async () => {
    const { client, mobile } = await signUp();
    const { stdout } = await cli(dataDir, 'grant-role', mobile, 'reviewer');
    expect(stdout).toContain(`reviewer granted to ${mobile}`);
    const granted = Date.now();
    let roles: string[] = [];
    while (Date.now() - granted < 1000) {
      roles = (await client.get('/api/auth/user')).body.roles;
      if (roles.includes('reviewer')) break;
      await new Promise((r) => setTimeout(r, 25));
    }
    expect(roles).toEqual(['reviewer']);
    await cli(dataDir, 'revoke-role', mobile, 'reviewer');
    await expect.poll(async () => (await client.get('/api/auth/user')).body.roles, { timeout: 1000, interval: 25 }).toEqual([]);
  });

  it('refuses unknown roles and unknown mobiles with a usage message', async () => {
    await expect(cli(dataDir, 'grant-role', freshMobile(), 'admin')).rejects.toMatchObject({ code: 2, stderr: expect.stringContaining('no user is registered') });
    await expect(cli(dataDir, 'grant-role', '9000000001', 'superuser')).rejects.toMatchObject({ code: 2, stderr: expect.stringContaining('role must be one of') });
    await expect(cli(dataDir, 'frobnicate')).rejects.toMatchObject({ code: 2, stderr: expect.stringContaining('usage:') });
  });

  it('rebuild-read-models gives the same rows as the live projections, while the app runs', async () => {
    for (let i = 0; i < 3; i++) {
      const { client, mobile } = await signUp();
      await client.put('/api/profile', { email: `sita${i}@example.in` });
      await cli(dataDir, 'grant-role', mobile, 'finance');
      await client.post('/api/auth/logout');
    }
    await expect.poll(async () => ((await (await fetch(`${api.url}/api/health`)).json()) as { position: number }).position).toBeGreaterThan(0);
    await new Promise((r) => setTimeout(r, 300));
    const live = dumpReadModels(join(dataDir, 'read.sqlite'));
    const { stdout } = await cli(dataDir, 'rebuild-read-models');
    expect(stdout).toMatch(/rebuilt the read models from \d+ events/);
    expect(dumpReadModels(join(dataDir, 'read.sqlite'))).toEqual(live);
    expect((live.users as unknown[]).length).toBeGreaterThanOrEqual(3);
    // The app keeps serving sessions and users from the rebuilt model.
    const { client } = await signUp();
    expect((await client.get('/api/auth/user')).status).toBe(200);
  });

  it('read-models lists each read model with its version and position; rebuild-read-models <name> rebuilds that one only', async () => {
    const { client } = await signUp();
    await client.put('/api/profile', { email: 'rebuild@example.in' });
    const listed = (await cli(dataDir, 'read-models')).stdout;
    for (const name of ['users', 'wallet', 'tasks', 'user-tasks']) expect(listed).toMatch(new RegExp(`^${name}\\s+1\\s+1\\s+\\d+`, 'm'));
    const before = dumpReadModels(join(dataDir, 'read.sqlite'));
    const checkpointOf = (dump: typeof before, name: string) => (dump.checkpoints as Array<{ name: string; position: number }>).find((c) => c.name === name);
    const { stdout } = await cli(dataDir, 'rebuild-read-models', 'tasks');
    expect(stdout).toMatch(/rebuilt tasks from \d+ events/);
    const after = dumpReadModels(join(dataDir, 'read.sqlite'));
    expect(after.tasks).toEqual(before.tasks);
    expect(after.users).toEqual(before.users);
    expect(checkpointOf(after, 'users')).toEqual(checkpointOf(before, 'users'));
    await expect(cli(dataDir, 'rebuild-read-models', 'nonsense')).rejects.toMatchObject({ code: 2, stderr: expect.stringContaining('no read model named nonsense') });
    // The app goes on serving and projecting.
    expect((await client.put('/api/profile', { email: 'after@example.in' })).status).toBe(200);
    expect((await client.get('/api/auth/user')).body.email).toBe('after@example.in');
  });

  it('replay-wallet prints the ledger and checks the read model against the events', async () => {
    const { mobile } = await signUp();
    const { stdout } = await cli(dataDir, 'replay-wallet', mobile);
    expect(stdout).toContain(`wallet of ${mobile}`);
    expect(stdout).toContain('OK: the read model agrees with the events');
  });
});
