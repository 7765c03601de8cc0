import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { openReadDb, rebuildReadModels, walletProjection } from '@kamai/projections';
import Database from 'better-sqlite3';
import { afterAll, describe, expect, it } from 'vitest';
import { openSealedSqliteStore } from '../privacy/open.ts';
import { type ApiProcess, startApiProcess, startWorkerProcess } from '../testing/process.ts';
import { TestClient, type TestServer, freshMobile, startTestServer } from '../testing/server.ts';

interface Health {
  status: string;
  parked?: string[];
  readModels: Array<{ name: string; state: string; parked?: { position: number; eventType: string; error: string } }>;
}

/** One topology under test: where the API answers, and how it ends. */
interface Running {
  url: string;
  dataDir: string;
  close(): Promise<void>;
}

const topologies: Array<{ name: string; start(): Promise<Running> }> = [
  {
    name: 'the projections on a thread of the API process',
    async start() {
      const server: TestServer = await startTestServer({ PROJECTIONS: 'thread' });
      return { url: server.url, dataDir: server.dataDir, close: () => server.close() };
    },
  },
  {
    name: 'a projection worker process, the API with PROJECTIONS=off',
    async start() {
      const dataDir = mkdtempSync(join(tmpdir(), 'kamai-isolation-'));
      const worker = await startWorkerProcess(dataDir);
      let api: ApiProcess | undefined;
      try {
        api = await startApiProcess(dataDir, { PROJECTIONS: 'off' });
      } catch (err) {
        await worker.stop();
        throw err;
      }
      const started = api;
      return {
        url: started.url,
        dataDir,
        async close() {
          await Promise.all([started.stop(), worker.stop()]);
          rmSync(dataDir, { recursive: true, force: true });
        },
      };
    },
  },
];

const running: Running[] = [];
afterAll(async () => {
  for (const r of running) await r.close();
});

describe.each(topologies)('a read model that fails, with $name', (topology) => {
  it('is parked and named by /api/health and /metrics while the app keeps answering; a rebuild after the fix brings it back', async () => {
    const app = await topology.start();
    running.push(app);
    const health = async () => (await (await fetch(`${app.url}/api/health`)).json()) as Health;
    const first = new TestClient(app.url);
    expect((await first.post('/api/auth/register', { mobile: freshMobile(), password: 'secret123', firstName: 'Asha', lastName: 'Verma', consent: true })).status).toBe(201);

    // A fault only the wallets read model meets: its table refuses new rows (as a full disk or a bug would).
    const file = join(app.dataDir, 'read.sqlite');
    const sqlite = new Database(file);
    sqlite.exec(`CREATE TRIGGER refuse_wallets BEFORE INSERT ON wallets BEGIN SELECT RAISE(ABORT, 'wallets refuse rows'); END`);

    // Registering reads the users read model, not the wallets one: it still answers, and so do later commands.
    const client = new TestClient(app.url);
    const registered = await client.post('/api/auth/register', { mobile: freshMobile(), password: 'secret123', firstName: 'Ravi', lastName: 'Kumar', consent: true });
    expect(registered.status).toBe(201);
    expect((await client.put('/api/profile', { firstName: 'Ravindra' })).status).toBe(200);
    expect((await client.get<{ firstName: string }>('/api/auth/user')).body.firstName).toBe('Ravindra');

    await expect.poll(async () => (await health()).parked, { timeout: 20_000 }).toEqual(['wallet']);
    const degraded = await fetch(`${app.url}/api/health`);
    expect(degraded.status).toBe(200);
    const body = (await degraded.json()) as Health;
    expect(body.status).toBe('degraded');
    expect(body.readModels.find((m) => m.name === 'wallet')).toMatchObject({
      state: 'parked',
      parked: { eventType: 'UserRegistered', error: expect.stringContaining('wallets refuse rows') },
    });
    expect(body.readModels.filter((m) => m.name !== 'wallet').every((m) => m.state === 'live')).toBe(true);
    const metrics = await (await fetch(`${app.url}/metrics`)).text();
    expect(metrics).toMatch(/kamai_read_model_parked\{projection="wallet"\} 1/);
    expect(metrics).toMatch(/kamai_read_model_parked\{projection="users"\} 0/);

    // The fix, then `rebuild-read-models wallets`: the model serves again, with every event applied.
    sqlite.exec('DROP TRIGGER refuse_wallets');
    sqlite.close();
    const store = openSealedSqliteStore(join(app.dataDir, 'events.sqlite'));
    const db = await openReadDb(file);
    try {
      await rebuildReadModels(db, store, [walletProjection]);
    } finally {
      await db.destroy();
      await store.close();
    }
    await expect.poll(async () => (await health()).status, { timeout: 20_000 }).toBe('ok');
    expect((await client.get<{ totalRupees: string }>('/api/auth/user')).body.totalRupees).toBe('0.00');
    // And it follows new events again.
    const third = new TestClient(app.url);
    expect((await third.post('/api/auth/register', { mobile: freshMobile(), password: 'secret123', firstName: 'Meera', lastName: 'Iyer', consent: true })).status).toBe(201);
    expect((await third.get<{ totalRupees: string }>('/api/auth/user')).body.totalRupees).toBe('0.00');
    expect((await health()).readModels.every((m) => m.state === 'live')).toBe(true);
  }, 180_000);
});
