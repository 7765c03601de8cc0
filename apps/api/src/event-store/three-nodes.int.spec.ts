/**
 * Three API nodes, one log: three API processes, each with a DATA_DIR of its own (its read models),
 * on one PostgreSQL database (the log, the key store, the throttles). Uploaded objects are not
 * involved: no step here uploads, so no S3 server is started (each node would need one shared
 * bucket, OBJECT_STORAGE=s3, for uploads).
 *
 * Checked across the nodes: a command answered by one node is read at another (the answer's log
 * position, sent back, makes the other node wait for it); 100 withdrawals of ₹101 racing for ₹5,050
 * over the three nodes, one of them killed with SIGKILL midway, its requests retried at the others
 * with their Idempotency-Keys: exactly 50 accepted and every acknowledged one in the log; a node
 * started afterwards catches up and serves the same balances; `reconcile` and `verify-ledger` pass
 * on the shared store.
 */
import { execFile } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { LOG_POSITION_HEADER, streams } from '@kamai/contracts';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadConfig } from '../config.ts';
import { UPI, balanceOf } from '../finance/testing.ts';
import type { SealedEventStore } from '../privacy/sealed-store.ts';
import { openEventStore } from '../server.ts';
import { postgresNodesEnv } from '../testing/node-env.ts';
import { type ApiProcess, signUpAt, startApiProcess } from '../testing/process.ts';
import { type TestClient, applySettings } from '../testing/server.ts';
import { createTestDatabase } from './postgres-testing.ts';

const run = promisify(execFile);
const repoRoot = join(dirname(fileURLToPath(import.meta.url)), '../../../..');

const REQUESTS = 100;
const AMOUNT_RUPEES = 101;
const BALANCE_RUPEES = 5050;
const CREDITS = 5;

let database: Awaited<ReturnType<typeof createTestDatabase>>;
const dirs: string[] = [];
const nodes: ApiProcess[] = [];
let env: Record<string, string>;
let store: SealedEventStore;

const dataDir = () => {
  const dir = mkdtempSync(join(tmpdir(), 'kamai-node-'));
  dirs.push(dir);
  return dir;
};
const startNode = async () => {
  const node = await startApiProcess(dataDir(), env);
  nodes.push(node);
  return node;
};

beforeAll(async () => {
  database = await createTestDatabase();
  // What every node must share besides the database: the KEK, the server secret and the ledger's signing key.
  env = postgresNodesEnv(database.url);

  // Together: the first to take the schema lock creates the tables, the others find them.
  await Promise.all([startNode(), startNode(), startNode()]);
  // The test's own connection to the shared stores, for role grants and reading the log back.
  store = await openEventStore(loadConfig({ ...env, DATA_DIR: dataDir() }));
}, 240_000);

afterAll(async () => {
  await store?.close();
  await Promise.all(nodes.map((n) => n.stop()));
  for (const dir of dirs) rmSync(dir, { recursive: true, force: true });
  await database?.drop();
});

describe('three API nodes on one PostgreSQL log', () => {
  let user: TestClient & { mobile: string; userId: string };
  let finance: TestClient;

  it("reads at one node what another node's answer said was done (the log position sent back)", async () => {
    const [a, b, c] = nodes as [ApiProcess, ApiProcess, ApiProcess];
    // Settings asked at A, approved at B; the finance user made at C.
    const [requester, approver] = await Promise.all([signUpAt(store, a.url, 'Admin', ['admin']), signUpAt(store, b.url, 'Approver', ['admin'])]);
    await applySettings(requester, approver, { memberDailyAdjustmentLimit: '100000.00', adjustmentApprovalThreshold: '10000.00' });
    finance = await signUpAt(store, c.url, 'Finance', ['finance']);
    user = await signUpAt(store, a.url, 'Ravi');

    // Five credits at C, each read at once at A and at B by the user's own session (signed in at A).
    let expected = 0;
    for (let i = 1; i <= CREDITS; i++) {
      const amount = i === CREDITS ? BALANCE_RUPEES - expected : i;
      const credit = await finance.post('/api/admin/adjustments', { mobile: user.mobile, amount, direction: 'credit', reason: 'Test funding' });
      expect(credit.status, JSON.stringify(credit.body)).toBe(201);
      const position = Number(credit.headers.get(LOG_POSITION_HEADER));
      expect(position).toBeGreaterThan(0);
      expected += amount;
      for (const node of [a, b]) {
        const reader = user.clone(node.url);
        // The user's client has not seen the credit: it is given the position, as the app passes it on.
        const me = await reader.request<{ totalRupees: string }>('GET', '/api/auth/user', undefined, { [LOG_POSITION_HEADER]: String(position) });
        expect(me.status).toBe(200);
        expect(me.body.totalRupees).toBe(`${expected}.00`);
      }
    }
    expect(expected).toBe(BALANCE_RUPEES);
  }, 120_000);

  it(`${REQUESTS} withdrawals of ₹${AMOUNT_RUPEES} for ₹${BALANCE_RUPEES} over three nodes, one killed -9 midway: exactly 50, every acknowledged one in the log`, async () => {
    const [a, b, c] = nodes as [ApiProcess, ApiProcess, ApiProcess];
    const clients = [a, b, c].map((node) => user.clone(node.url));
    const acknowledged = new Set<string>();
    let answered = 0;
    let killed = false;
    // As the app does: a request whose connection failed is sent again with its Idempotency-Key
    // (here to a node still up), and a `busy` answer is worth one more try.
    const withdraw = async (i: number) => {
      const key = `three-nodes-${i}`;
      for (let attempt = 0; ; attempt++) {
        const client = clients[(i + attempt) % 3]!;
        if (killed && client.baseUrl === c.url) continue;
        let res;
        try {
          // Position 0: the race is decided on the log, not the read models; a node need not wait for
          // its read models to reach the other withdrawals before taking this one.
          res = await client.request<{ id: string; error: { code: string } }>('POST', '/api/withdrawals', { amount: AMOUNT_RUPEES, upiId: UPI }, {
            'idempotency-key': key,
            [LOG_POSITION_HEADER]: '0',
          });
        } catch {
          continue; // the node died under the request
        }
        if (res.status === 409 && res.body.error.code === 'busy') continue;
        if (++answered === 30 && !killed) {
          killed = true;
          c.child.kill('SIGKILL');
        }
        if (res.status === 201) acknowledged.add(res.body.id);
        else expect(res.body.error.code).toBe('insufficient_balance');
        return res.status;
      }
    };
    const statuses = await Promise.all(Array.from({ length: REQUESTS }, (_, i) => withdraw(i)));
    expect(killed).toBe(true);
    expect(statuses.filter((s) => s === 201)).toHaveLength(BALANCE_RUPEES / AMOUNT_RUPEES);
    // A retry of a request the killed node had done is answered with the same withdrawal: 50 distinct ids.
    expect(acknowledged.size).toBe(BALANCE_RUPEES / AMOUNT_RUPEES);

    const recorded = await store.readStream(streams.user(user.userId));
    const requested = recorded.filter((e) => e.type === 'WithdrawalRequested').map((e) => (e.data as { withdrawalId: string }).withdrawalId);
    expect(requested).toHaveLength(BALANCE_RUPEES / AMOUNT_RUPEES);
    expect(new Set(requested)).toEqual(acknowledged);
    for (const node of [a, b]) expect(await balanceOf(user.clone(node.url))).toBe('0.00');
  }, 180_000);

  it('a node started later catches up and serves the same balances; reconcile and verify-ledger pass on the shared store', async () => {
    const [a] = nodes as [ApiProcess];
    const late = await startNode();
    // No position given: the node has followed the whole log before it answers (startServer).
    for (const client of [user, finance]) {
      const [there, here] = await Promise.all([client.clone(a.url).get('/api/auth/user'), client.clone(late.url).get('/api/auth/user')]);
      expect(here.status).toBe(200);
      expect(here.body.totalRupees).toBe(there.body.totalRupees);
    }
    const withdrawals = (url: string) => finance.clone(url).get<unknown[]>('/api/admin/withdrawals?status=all');
    const [listed, listedLate] = await Promise.all([withdrawals(a.url), withdrawals(late.url)]);
    expect(listed.status).toBe(200);
    expect(listedLate.body).toEqual(listed.body);

    const cli = (...args: string[]) =>
      run(join(repoRoot, 'node_modules/.bin/tsx'), [join(repoRoot, 'scripts/src/cli.ts'), ...args], {
        cwd: repoRoot,
        env: { ...process.env, ...env, DATA_DIR: dataDir() },
      });
    const reconcile = (await cli('reconcile')).stdout;
    expect(reconcile).toMatch(/difference\s+0\.00/);
    expect(reconcile).toContain('verification OK');
    expect((await cli('verify-ledger')).stdout).toMatch(/^OK: \d+ events verified/);
  }, 180_000);
});
