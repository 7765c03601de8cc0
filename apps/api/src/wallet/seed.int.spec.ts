import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DEMO_ACCOUNTS } from '../seed.ts';
import { TestClient, type TestServer, startTestServer } from '../testing/index.ts';

describe('demo wallet', () => {
  let server: TestServer;
  beforeAll(async () => {
    server = await startTestServer({ SEED_DEMO: 'true' });
  });
  afterAll(() => server.close());

  async function signIn(label: string) {
    const client = new TestClient(server.url);
    const demo = DEMO_ACCOUNTS.find((a) => a.label === label)!;
    expect((await client.post('/api/auth/login', { mobile: demo.mobile, password: demo.password })).status).toBe(200);
    return client;
  }

  it('gives the demo user a balance and a pending withdrawal that the demo finance account sees', async () => {
    const user = await signIn('user');
    expect((await user.get('/api/auth/user')).body.totalRupees).toBe('150.00');
    const history = (await user.get('/api/withdrawals')).body;
    expect(history).toMatchObject([{ amount: '100.00', status: 'pending', destination: 'UPI pr***@okhdfc' }]);
    // The bonus's reason is the app's: its code travels beside the English, so the web shows it in Hindi too.
    const bonus = { reason: 'Welcome bonus (demo data)', reasonCode: 'demo_welcome' };
    expect((await user.get('/api/transactions')).body).toContainEqual(expect.objectContaining({ kind: 'adjustment', description: 'Adjustment: Welcome bonus (demo data)', params: bonus }));
    expect((await user.get('/api/notifications')).body).toContainEqual(expect.objectContaining({ key: 'wallet_credited', params: expect.objectContaining(bonus) }));
    const finance = await signIn('finance');
    const queue = (await finance.get('/api/admin/withdrawals?status=pending')).body;
    expect(queue).toMatchObject([{ id: history[0].id, user: { name: 'Priya Sharma' }, payTo: { kind: 'upi', upiId: 'priya.sharma@okhdfc' } }]);
    // The demo finance account did not credit her, so it may pay her withdrawal.
    expect((await finance.post(`/api/admin/withdrawals/${history[0].id}/paid`, { reference: 'UTR-DEMO-0001' })).status).toBe(200);
  });
});
