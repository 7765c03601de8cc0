import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type ApiProcess, startApiProcess, startWorkerProcess } from '../testing/process.ts';
import { TestClient, freshMobile } from '../testing/server.ts';

describe('a projection worker and two API processes with PROJECTIONS=off on one DATA_DIR', () => {
  let dataDir: string;
  let worker: Awaited<ReturnType<typeof startWorkerProcess>>;
  let a: ApiProcess;
  let b: ApiProcess;

  beforeAll(async () => {
    dataDir = mkdtempSync(join(tmpdir(), 'kamai-worker-'));
    worker = await startWorkerProcess(dataDir);
    [a, b] = await Promise.all([startApiProcess(dataDir, { PROJECTIONS: 'off' }), startApiProcess(dataDir, { PROJECTIONS: 'off' })]);
  });
  afterAll(async () => {
    await Promise.all([a?.stop(), b?.stop(), worker?.child.exitCode === null ? worker.stop() : undefined]);
    rmSync(dataDir, { recursive: true, force: true });
  });

  it('each API reads its own writes, which only the worker projects', async () => {
    const viaA = new TestClient(a.url);
    const mobile = freshMobile();
    // Register answers with the user read back from the read model: the worker must have projected it.
    const registered = await viaA.post('/api/auth/register', { mobile, password: 'secret123', firstName: 'Meera', lastName: 'Iyer', consent: true });
    expect(registered.status).toBe(201);
    expect((await viaA.get('/api/auth/user')).body).toMatchObject({ mobile, firstName: 'Meera' });

    // The same session through B: B's write shows in B's next read, and in A's.
    const viaB = viaA.clone(b.url);
    for (let i = 0; i < 5; i++) {
      const put = await viaB.put('/api/profile', { firstName: `Meera${i}` });
      expect(put.status).toBe(200);
      expect((await viaB.get('/api/auth/user')).body.firstName).toBe(`Meera${i}`);
      const put2 = await viaA.put('/api/profile', { lastName: `Iyer${i}` });
      expect(put2.status).toBe(200);
      expect((await viaA.get('/api/auth/user')).body.lastName).toBe(`Iyer${i}`);
    }
  });

  it('health says the read models are run elsewhere and where each stands', async () => {
    for (const api of [a, b]) {
      const health = (await (await fetch(`${api.url}/api/health`)).json()) as {
        status: string;
        projections: string;
        head: number;
        readModels: Array<{ name: string; state: string; position: number }>;
      };
      expect(health).toMatchObject({ status: 'ok', projections: 'off' });
      expect(health.readModels.map((m) => m.name)).toContain('tasks');
      expect(health.readModels.every((m) => m.state === 'live')).toBe(true);
      expect(Math.max(...health.readModels.map((m) => m.position))).toBeGreaterThan(0);
    }
    // No API process wrote a checkpoint or a row: only the worker says it applied anything.
    expect(a.output()).not.toMatch(/\[projections\]/);
  });

  it('SIGTERM stops the worker at a checkpoint; commands then answer 503 busy instead of a stale read', async () => {
    const code = await worker.stop();
    expect(code).toBe(0);
    expect(worker.output()).toMatch(/stopped at position \d+/);
    const client = new TestClient(a.url);
    const res = await client.post('/api/auth/register', { mobile: freshMobile(), password: 'secret123', firstName: 'Late', lastName: 'Comer', consent: true });
    expect(res.status).toBe(503);
    expect(res.body.error.code).toBe('busy');
  });
});
