/**
 * The API on EVENT_STORE=postgres: its event log, key store and throttles in PostgreSQL (the run's
 * throwaway cluster), its read models in DATA_DIR. The money-out race: 100 withdrawals of ₹101
 * against ₹5,050.
 */
import { LOG_POSITION_HEADER, type UserEvent, streams } from '@kamai/contracts';
import { fold, userEvolver } from '@kamai/domain';
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { UPI, adjust, balanceOf } from '../finance/testing.ts';
import { type TestClient, type TestServer, startTestServer } from '../testing/server.ts';
import { openPostgresEventStore } from './postgres.ts';
import { createTestDatabase } from './postgres-testing.ts';

const REQUESTS = 100;
const AMOUNT_RUPEES = 101;
const BALANCE_RUPEES = 5050;

let database: Awaited<ReturnType<typeof createTestDatabase>>;
let server: TestServer;
beforeAll(async () => {
  database = await createTestDatabase();
  server = await startTestServer({ EVENT_STORE: 'postgres', DATABASE_URL: database.url });
});
afterAll(async () => {
  await server?.close();
  await database?.drop();
});

describe(`${REQUESTS} concurrent withdrawals of ₹${AMOUNT_RUPEES} against ₹${BALANCE_RUPEES}, on the PostgreSQL event store`, () => {
  it('accepts exactly 50, refuses the rest with insufficient_balance, and the log in PostgreSQL folds to zero', async () => {
    // A ₹5,050 credit is over the default per-member daily adjustment limit (₹5,000) and the four-eyes threshold (₹1,000).
    await server.applySettings({ memberDailyAdjustmentLimit: '100000.00', adjustmentApprovalThreshold: '10000.00' });
    const finance = await server.signUp({ roles: ['finance'] });
    const user = await server.signUp();
    await adjust(finance, user.mobile, BALANCE_RUPEES);
    expect(await balanceOf(user)).toBe(`${BALANCE_RUPEES}.00`);

    // One stream, 100 writers: a request whose decisions kept losing the race answers 409 `busy`
    // ("worth one more try"), and the client tries again, as the app's does.
    let busy = 0;
    const withdraw = async (client: TestClient) => {
      for (;;) {
        const res = await client.post('/api/withdrawals', { amount: AMOUNT_RUPEES, upiId: UPI });
        if (res.status !== 409 || res.body.error.code !== 'busy') return res;
        busy++;
      }
    };
    const results = await Promise.all(Array.from({ length: REQUESTS }, () => withdraw(user.clone())));
    console.log(`[postgres race] ${REQUESTS} withdrawals: ${results.filter((r) => r.status === 201).length} accepted, ${busy} busy answers retried`);
    const accepted = results.filter((r) => r.status === 201);
    const refused = results.filter((r) => r.status !== 201);
    expect(accepted).toHaveLength(BALANCE_RUPEES / AMOUNT_RUPEES);
    for (const r of refused) {
      expect(r.status).toBe(409);
      expect(r.body.error.code).toBe('insufficient_balance');
    }
    expect(await balanceOf(user)).toBe('0.00');

    // Read back from PostgreSQL itself, through a store of its own: the stream folds to zero.
    const store = openPostgresEventStore(database.url);
    try {
      const recorded = await store.readStream(streams.user(user.userId));
      const state = fold(userEvolver, recorded.map((e) => ({ type: e.type, data: e.data }) as unknown as UserEvent));
      expect(state.wallet.balance).toBe(0);
      expect(recorded.filter((e) => e.type === 'WithdrawalRequested')).toHaveLength(50);
      expect(recorded.filter((e) => e.type === 'WalletDebited')).toHaveLength(50);
    } finally {
      await store.close();
    }
  });

  it("names the log's position in a command's answer; a position past the head or malformed costs no wait", async () => {
    const user = await server.signUp();
    const changed = await user.put('/api/profile', { firstName: 'Asha' });
    expect(changed.status).toBe(200);
    const position = Number(changed.headers.get(LOG_POSITION_HEADER));
    expect(position).toBeGreaterThan(0);
    expect(position).toBeLessThanOrEqual(await server.store.headPosition());
    // Reads name none.
    expect((await user.get('/api/auth/user')).headers.get(LOG_POSITION_HEADER)).toBeNull();
    for (const named of [String(position), '999999999999', 'abc', '-1']) {
      const started = Date.now();
      const me = await user.request('GET', '/api/auth/user', undefined, { [LOG_POSITION_HEADER]: named });
      expect(me.status).toBe(200);
      expect(Date.now() - started).toBeLessThan(2000);
    }
  });

  it('keeps the data keys and the sign-in counters in PostgreSQL, not in DATA_DIR', async () => {
    const user = await server.signUp();
    expect((await server.client().request('POST', '/api/auth/login', { mobile: user.mobile, password: 'wrong-guess' })).status).toBe(401);
    const client = new pg.Client({ connectionString: database.url });
    await client.connect();
    try {
      const count = async (table: string) => Number((await client.query<{ n: string }>(`SELECT count(*) AS n FROM kamai.${table}`)).rows[0]!.n);
      expect(await count('data_keys')).toBeGreaterThan(2);
      expect(await count('attempts')).toBeGreaterThan(0);
    } finally {
      await client.end();
    }
    expect(existsSync(join(server.dataDir, 'keys.sqlite'))).toBe(false);
    expect(existsSync(join(server.dataDir, 'throttle.sqlite'))).toBe(false);
  });
});
