import { execFileSync } from 'node:child_process';
import { closeSync, mkdtempSync, openSync, readdirSync, rmSync, statfsSync, writeSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { sqliteConnectionOf } from '@kamai/projections';
import { type TestClient, type TestServer, freshMobile, startTestServer } from '../testing/index.ts';

/**
 * The machine failing under the API: a full disk, free space below the reserve, a read-only data
 * directory, the data directory deleted. The disk is a real one: a small tmpfs mounted for the test
 * (filled with a file, remounted read-only), because the process runs as root and root writes through
 * file permissions; a read-only remount stops root too. Where the test may not mount (not root, no
 * CAP_SYS_ADMIN), the mounted cases are skipped and say so.
 */

const MIB = 1024 * 1024;

function tryMount(sizeMb: number): string | null {
  const dir = mkdtempSync(join(tmpdir(), 'kamai-disk-'));
  try {
    execFileSync('mount', ['-t', 'tmpfs', '-o', `size=${sizeMb}m`, 'tmpfs', dir], { stdio: 'ignore' });
    return dir;
  } catch {
    rmSync(dir, { recursive: true, force: true });
    return null;
  }
}

function unmount(dir: string): void {
  execFileSync('umount', [dir], { stdio: 'ignore' });
  rmSync(dir, { recursive: true, force: true });
}

const canMount = (() => {
  const dir = tryMount(1);
  if (!dir) return false;
  unmount(dir);
  return true;
})();
if (!canMount) console.warn('storage-faults: cannot mount a tmpfs here (needs root); the full and read-only disk cases are skipped');

const freeBytes = (dir: string) => {
  const fs = statfsSync(dir);
  return fs.bavail * fs.bsize;
};

/** Writes `bytes` of filler into `file` (to the last byte the disk takes when `bytes` is Infinity). */
function fill(file: string, bytes: number): void {
  const fd = openSync(file, 'a');
  try {
    let left = bytes;
    for (const chunk of [MIB, 4096, 512]) {
      const buffer = Buffer.alloc(chunk, 1);
      while (left >= chunk) {
        try {
          writeSync(fd, buffer);
        } catch (err) {
          if ((err as NodeJS.ErrnoException).code === 'ENOSPC') break;
          throw err;
        }
        left -= chunk;
      }
    }
  } finally {
    closeSync(fd);
  }
}

async function health(server: TestServer) {
  const res = await server.client().get<{ status: string; reason?: string; storage: { state: string; files: { name: string; freeBytes: number }[] } }>('/api/health');
  return res;
}

async function metric(server: TestServer, line: RegExp): Promise<number | null> {
  const text = (await server.client().get<string>('/metrics')).body;
  const match = line.exec(text);
  return match ? Number(match[1]) : null;
}

/** Registers a new earner: a command that appends (a registration), as anyone may send it. */
async function register(server: TestServer): Promise<{ status: number; mobile: string; code?: string; retryAfter: string | null }> {
  const mobile = freshMobile();
  const res = await server.client().post<{ error?: { code: string } }>('/api/auth/register', { mobile, password: 'secret123', firstName: 'Disk', lastName: 'Test', consent: true });
  return { status: res.status, mobile, code: res.body.error?.code, retryAfter: res.headers.get('retry-after') };
}

async function credit(finance: TestClient, mobile: string) {
  const res = await finance.post<{ error?: { code: string } }>('/api/admin/adjustments', { mobile, amount: '1', direction: 'credit', reason: 'Disk test' });
  return { status: res.status, code: res.body.error?.code, retryAfter: res.headers.get('retry-after') };
}

/** Waits (up to 15 s) until the health check says `status`; the guard holds a failed write's state a few seconds. */
async function healthBecomes(server: TestServer, status: string) {
  const until = Date.now() + 15_000;
  for (;;) {
    const res = await health(server);
    if (res.body.status === status || Date.now() > until) return res;
    await new Promise((resolve) => setTimeout(resolve, 250));
  }
}

/** Every registration the API acknowledged can sign in afterwards: it is in the log. */
async function expectRegistered(server: TestServer, mobiles: string[]) {
  for (const mobile of mobiles) {
    const res = await server.client().post('/api/auth/login', { mobile, password: 'secret123' });
    expect(res.status, mobile).toBe(200);
  }
}

/** The user's wallet credits in the log: each acknowledged adjustment is there once. */
async function creditsInLog(server: TestServer, userId: string): Promise<number> {
  let count = 0;
  for (const event of await server.store.readStream(`user-${userId}`)) if (event.type === 'WalletCredited') count++;
  return count;
}

describe.skipIf(!canMount)('free space below the reserve (DISK_RESERVE_MB)', () => {
  let disk: string;
  let server: TestServer;
  beforeAll(async () => {
    disk = tryMount(64)!;
    server = await startTestServer({ DATA_DIR: disk, DISK_RESERVE_MB: '16' });
  });
  afterAll(async () => {
    await server?.close();
    if (disk) unmount(disk);
  });

  it('refuses earners\' commands with 503 storage_full, serves reads, sign-ins and staff, says degraded, and recovers', async () => {
    const earner = await server.signUp();
    const finance = await server.signUp({ roles: ['finance'] });
    expect((await health(server)).body).toMatchObject({ status: 'ok', storage: { state: 'ok' } });
    expect(await metric(server, /^kamai_storage_free_bytes\{file="events.sqlite"\} (\d+)/m)).toBeGreaterThan(32 * MIB);
    expect(await metric(server, /^kamai_storage_reserve_bytes (\d+)/m)).toBe(16 * MIB);
    expect((await credit(finance, earner.mobile)).status).toBe(201);

    // Down to 8 MiB free: under the 16 MiB reserve.
    fill(join(disk, 'filler'), freeBytes(disk) - 8 * MIB);
    const degraded = await health(server);
    expect(degraded.status).toBe(200);
    expect(degraded.body.status).toBe('degraded');
    expect(degraded.body.reason).toMatch(/below the reserve of 16 MiB/);
    expect(await metric(server, /^kamai_storage_free_bytes\{file="events.sqlite"\} (\d+)/m)).toBeLessThan(16 * MIB);
    expect(await metric(server, /^kamai_storage_state\{state="low"\} (\d+)/m)).toBe(1);

    const refused = await register(server);
    expect(refused).toMatchObject({ status: 503, code: 'storage_full', retryAfter: '60' });
    const body = (await server.client().post<{ error: { message: string; key: string } }>('/api/auth/register', { mobile: freshMobile(), password: 'secret123', firstName: 'A', lastName: 'B', consent: true })).body;
    expect(body.error).toMatchObject({ message: 'Kamai is busy, try again in a minute', key: 'api.storageFull' });
    // Reads, an existing account's sign-in, and staff commands go on.
    expect((await earner.get('/api/auth/user')).status).toBe(200);
    expect((await server.client().post('/api/auth/login', { mobile: earner.mobile, password: earner.password })).status).toBe(200);
    expect((await credit(finance, earner.mobile)).status).toBe(201);
    expect((await finance.get(`/api/admin/ledger/users/${earner.userId}/balance`)).status).toBe(200);

    rmSync(join(disk, 'filler'));
    expect((await healthBecomes(server, 'ok')).body.storage.state).toBe('ok');
    const accepted = await register(server);
    expect(accepted.status).toBe(201);
    await expectRegistered(server, [accepted.mobile]);
    expect(await creditsInLog(server, earner.userId)).toBe(2);
  });
});

describe.skipIf(!canMount)('a full disk (no reserve)', () => {
  let disk: string;
  let server: TestServer;
  beforeAll(async () => {
    disk = tryMount(48)!;
    server = await startTestServer({ DATA_DIR: disk, DISK_RESERVE_MB: '0' });
  });
  afterAll(async () => {
    await server?.close();
    if (disk) unmount(disk);
  });

  it('answers 503 storage_full (never 500) once writes fail, keeps every acknowledged command, and recovers when space is freed', async () => {
    const earner = await server.signUp();
    const finance = await server.signUp({ roles: ['finance'] });
    fill(join(disk, 'filler'), Infinity);

    const answers: Array<{ status: number; code?: string; retryAfter: string | null }> = [];
    const registered: string[] = [];
    let credited = 0;
    // SQLite reuses the space its files already hold: write until it needs more than there is.
    for (let i = 0; i < 200 && !answers.some((a) => a.code === 'storage_full'); i++) {
      const reg = await register(server);
      answers.push(reg);
      if (reg.status === 201) registered.push(reg.mobile);
      const adj = await credit(finance, earner.mobile);
      answers.push(adj);
      if (adj.status === 201) credited++;
    }
    expect(answers.filter((a) => a.status !== 201 && a.status !== 503)).toEqual([]);
    const full = answers.find((a) => a.status === 503);
    expect(full).toMatchObject({ code: 'storage_full', retryAfter: '60' });
    // The guard heard of it: commands are refused at once for a while, and the health says why.
    expect(await register(server)).toMatchObject({ status: 503, code: 'storage_full' });
    const degraded = await health(server);
    expect(degraded.body.status).toBe('degraded');
    expect(degraded.body.reason).toMatch(/full/);
    expect(await metric(server, /^kamai_http_requests_total\{method="POST",route="\/api\/auth\/register",status="500"\} (\d+)/m)).toBeNull();

    rmSync(join(disk, 'filler'));
    expect((await healthBecomes(server, 'ok')).body.status).toBe('ok');
    const after = await credit(finance, earner.mobile);
    expect(after.status).toBe(201);
    credited++;
    await expectRegistered(server, registered);
    expect(await creditsInLog(server, earner.userId)).toBe(credited);
    // Nothing half-written: the chain and the log still verify, and no read model parked.
    const verify = await finance.get<{ ok: boolean }>('/api/admin/ledger/verify');
    expect(verify.body.ok).toBe(true);
    expect((await health(server)).body).not.toHaveProperty('parked');
  });
});

/**
 * Read-only as root: a mounted file system cannot be remounted read-only while SQLite holds its
 * files open for writing (the kernel answers EBUSY; only its own error handling forces it), and root
 * writes through permissions. The immutable flag (chattr +i) stops root too, on descriptors already
 * open: every write then fails (EPERM), as it would on a disk the kernel remounted read-only (EROFS).
 * The WAL index (-shm) is left alone: it is mapped in memory, and readers need it.
 */
function setImmutable(dir: string, on: boolean): void {
  const paths = [dir, ...readdirSync(dir, { recursive: true, encoding: 'utf8' }).filter((p) => !p.endsWith('-shm')).map((p) => join(dir, p))];
  execFileSync('chattr', [on ? '+i' : '-i', ...paths], { stdio: 'ignore' });
}

const canChattr = (() => {
  const dir = mkdtempSync(join(tmpdir(), 'kamai-immutable-'));
  try {
    setImmutable(dir, true);
    setImmutable(dir, false);
    return true;
  } catch {
    return false;
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
})();
if (!canChattr) console.warn('storage-faults: chattr +i is refused here (needs root and a file system that keeps the flag); the read-only case is skipped');

describe.skipIf(!canChattr)('a read-only data directory', () => {
  let dataDir: string;
  let server: TestServer;
  beforeAll(async () => {
    dataDir = mkdtempSync(join(tmpdir(), 'kamai-readonly-'));
    server = await startTestServer({ DATA_DIR: dataDir });
  });
  afterAll(async () => {
    setImmutable(dataDir, false);
    await server?.close();
    rmSync(dataDir, { recursive: true, force: true });
  });

  it('answers 503 storage_read_only with Retry-After (never 500), health failing, and recovers when writable again', async () => {
    const earner = await server.signUp();
    const finance = await server.signUp({ roles: ['finance'] });
    expect((await credit(finance, earner.mobile)).status).toBe(201);

    setImmutable(dataDir, true);
    const failing = await health(server);
    expect(failing.status).toBe(503);
    expect(failing.body).toMatchObject({ status: 'failing', storage: { state: 'read_only' } });
    expect(failing.body.reason).toMatch(/cannot be written/);
    expect(await register(server)).toMatchObject({ status: 503, code: 'storage_read_only', retryAfter: '120' });
    expect(await credit(finance, earner.mobile)).toMatchObject({ status: 503, code: 'storage_read_only' });
    expect(await metric(server, /^kamai_storage_state\{state="read_only"\} (\d+)/m)).toBe(1);
    expect((await earner.get('/api/auth/user')).status).toBe(200);

    setImmutable(dataDir, false);
    expect((await healthBecomes(server, 'ok')).body.storage.state).toBe('ok');
    expect((await credit(finance, earner.mobile)).status).toBe(201);
    expect(await creditsInLog(server, earner.userId)).toBe(2);
  });

  it('answers a write that fails read-only with 503 storage_read_only, not 500, before the guard has looked', async () => {
    const finance = await server.signUp({ roles: ['finance'] });
    const earner = await server.signUp();
    setImmutable(dataDir, true);
    try {
      // Straight to the store, as a command would, before any health check or timer saw the disk.
      const answer = await credit(finance, earner.mobile);
      expect(answer.status).toBe(503);
      expect(answer.code).toMatch(/^storage_(read_only|full)$/);
      expect(await metric(server, /^kamai_http_requests_total\{method="POST",route="\/api\/admin\/adjustments",status="500"\} (\d+)/m)).toBeNull();
    } finally {
      setImmutable(dataDir, false);
    }
    expect((await healthBecomes(server, 'ok')).body.status).toBe('ok');
    expect((await credit(finance, earner.mobile)).status).toBe(201);
    expect(await creditsInLog(server, earner.userId)).toBe(1);
  });
});

describe('a data directory deleted under the process', () => {
  let server: TestServer;
  let dataDir: string;
  beforeAll(async () => {
    dataDir = mkdtempSync(join(tmpdir(), 'kamai-gone-'));
    server = await startTestServer({ DATA_DIR: dataDir });
  });
  afterAll(async () => {
    await server?.close().catch(() => {});
    rmSync(dataDir, { recursive: true, force: true });
  });

  it('says failing, refuses commands with 503 storage_read_only, and tells the process to stop', async () => {
    const earner = await server.signUp();
    rmSync(dataDir, { recursive: true, force: true });
    const failing = await health(server);
    expect(failing.status).toBe(503);
    expect(failing.body).toMatchObject({ status: 'failing', storage: { state: 'gone' } });
    expect(failing.body.reason).toMatch(/events.sqlite is gone/);
    await expect(server.storageGone).resolves.toMatch(/gone from/);
    expect(await metric(server, /^kamai_storage_state\{state="gone"\} (\d+)/m)).toBe(1);
    expect(await register(server)).toMatchObject({ status: 503, code: 'storage_read_only' });
    expect((await earner.get('/api/auth/user')).status).toBe(200);
  });
});

/**
 * A full read database, by SQLite's own limit (PRAGMA max_page_count) on the connection the
 * projections write with (PROJECTIONS=inline: the app's own): portable, no mount needed.
 */
describe('a full read database (PRAGMA max_page_count)', () => {
  let server: TestServer;
  beforeAll(async () => {
    server = await startTestServer({ PROJECTIONS: 'inline' });
  });
  afterAll(async () => {
    await server?.close();
  });

  it('parks no read model: they wait for space and catch up, and every acknowledged command is in the log', async () => {
    const finance = await server.signUp({ roles: ['finance'] });
    const earner = await server.signUp();
    const read = sqliteConnectionOf(server.db);
    read.pragma(`max_page_count = ${Number(read.pragma('page_count', { simple: true })) + 16}`);
    read.exec('CREATE TABLE disk_filler (x BLOB)');
    try {
      for (;;) read.prepare('INSERT INTO disk_filler VALUES (randomblob(2000))').run();
    } catch (err) {
      expect((err as { code?: string }).code).toBe('SQLITE_FULL');
    }

    // The commands are kept (the log has room); the read models fall behind rather than park.
    let acknowledged = 0;
    let lagging = false;
    for (let i = 0; i < 40 && !lagging; i++) {
      const answer = await credit(finance, earner.mobile);
      expect([201, 503]).toContain(answer.status);
      if (answer.status === 201) acknowledged++;
      const h = await server.client().get<{ readModels: { lag: number }[] }>('/api/health');
      lagging = h.body.readModels.some((m) => m.lag > 0);
    }
    expect(lagging).toBe(true);
    expect((await health(server)).body).not.toHaveProperty('parked');
    expect(await metric(server, /^kamai_projection_lag_events\{projection="journal"\} (\d+)/m)).toBeGreaterThan(0);
    expect(await metric(server, /^kamai_read_model_parked\{projection="journal"\} (\d+)/m)).toBe(0);

    read.pragma('max_page_count = 1073741823');
    read.exec('DROP TABLE disk_filler');
    const until = Date.now() + 15_000;
    let caughtUp = false;
    while (!caughtUp && Date.now() < until) {
      const h = await server.client().get<{ readModels: { lag: number; state: string }[] }>('/api/health');
      caughtUp = h.body.readModels.every((m) => m.lag === 0 && m.state === 'live');
      if (!caughtUp) await new Promise((resolve) => setTimeout(resolve, 200));
    }
    expect(caughtUp).toBe(true);
    expect((await health(server)).body).not.toHaveProperty('parked');
    expect(await creditsInLog(server, earner.userId)).toBe(acknowledged);
    const balance = await finance.get<{ available: string }>(`/api/admin/ledger/users/${earner.userId}/balance`);
    expect(Number(balance.body.available)).toBe(acknowledged);
  });
});
