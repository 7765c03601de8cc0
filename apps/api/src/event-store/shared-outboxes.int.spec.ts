/**
 * The outboxes on a shared log: two API nodes, each with a DATA_DIR of its own, on one PostgreSQL
 * database. Each node's read models queue the same webhook deliveries and each node's alert sender
 * reads the same notifications; the outboxes in the database (outbox/sql.ts) let one node claim
 * each, so a receiver gets each event once and a person one SMS per payout. With an outbox per
 * DATA_DIR (the SQLite files) every delivery and alert went out once per node.
 */
import { LOG_POSITION_HEADER, type WebhookEndpointCreatedBody } from '@kamai/contracts';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { UPI } from '../finance/testing.ts';
import { type Nodes, startNodes } from '../testing/nodes.ts';
import { type ApiProcess, signUpAt } from '../testing/process.ts';
import { startReceiver } from '../webhooks/testing.ts';

const CREDITS = 8;

let started: Nodes;
let nodes: ApiProcess[];
let receiver: Awaited<ReturnType<typeof startReceiver>>;

beforeAll(async () => {
  receiver = await startReceiver();
  started = await startNodes(2, { WEBHOOK_RETRY_FIRST_MS: '50', WEBHOOK_HTTP_LOOPBACK: 'true' });
  nodes = started.nodes;
}, 240_000);

afterAll(async () => {
  await started?.close();
  await receiver?.close();
});

const smsAlerts = () => nodes.map((n) => n.output().split('[sms] alert for').length - 1).reduce((a, b) => a + b, 0);

describe('webhook and alert outboxes shared by two nodes on one PostgreSQL log', () => {
  it('delivers each webhook once and sends one SMS per payout, whichever node took the commands', async () => {
    const [a, b] = nodes as [ApiProcess, ApiProcess];
    const { store } = started;
    const [admin, financeA, financeB, payer, worker] = await Promise.all([
      signUpAt(store, a.url, 'Admin', ['admin']),
      signUpAt(store, a.url, 'Finance', ['finance']),
      signUpAt(store, b.url, 'Finance', ['finance']),
      signUpAt(store, b.url, 'Payer', ['finance']),
      signUpAt(store, a.url, 'Ravi'),
    ]);
    const endpoint = await admin.post<WebhookEndpointCreatedBody>('/api/admin/webhooks', { url: receiver.url, events: ['adjustment.booked', 'withdrawal.paid'] });
    expect(endpoint.status, JSON.stringify(endpoint.body)).toBe(201);
    // The endpoint is in the log before the credits: each node's read model queues every credit for it.
    const registered = endpoint.headers.get(LOG_POSITION_HEADER)!;

    // Credits taken at both nodes in turn.
    const credits = [];
    for (let i = 0; i < CREDITS; i++) {
      const finance = i % 2 === 0 ? financeA : financeB;
      credits.push(
        await finance.request('POST', '/api/admin/adjustments', { mobile: worker.mobile, amount: 100, direction: 'credit', reason: 'Test funding' }, { [LOG_POSITION_HEADER]: registered }),
      );
    }
    expect(credits.map((c) => c.status)).toEqual(Array(CREDITS).fill(201));
    const withdrawal = await worker.post<{ id: string }>('/api/withdrawals', { amount: 100, upiId: UPI });
    expect(withdrawal.status, JSON.stringify(withdrawal.body)).toBe(201);
    const paid = await payer.request('POST', `/api/admin/withdrawals/${withdrawal.body.id}/paid`, { reference: 'UTR55550002' }, {
      [LOG_POSITION_HEADER]: withdrawal.headers.get(LOG_POSITION_HEADER)!,
    });
    expect(paid.status, JSON.stringify(paid.body)).toBe(200);

    const expected = CREDITS + 1;
    await receiver.until(() => receiver.accepted().length >= expected);
    const deadline = Date.now() + 30_000;
    while (smsAlerts() < 1 && Date.now() < deadline) await new Promise((r) => setTimeout(r, 50));

    // Both nodes' read models now hold everything (each is asked to reach the head), so both
    // senders have what to take in; the outbox in the database knows each is delivered.
    const head = paid.headers.get(LOG_POSITION_HEADER)!;
    for (const node of [a, b]) expect((await admin.clone(node.url).request('GET', '/api/auth/user', undefined, { [LOG_POSITION_HEADER]: head })).status).toBe(200);
    // A second copy, had a node its own outbox, would come within the senders' next rounds (every
    // 50 ms for webhooks, every second for alerts): none may come in two seconds.
    await receiver.until(() => receiver.got.length > expected, 2000).catch(() => {});
    expect(receiver.got.length).toBe(expected);
    expect(new Set(receiver.got.map((d) => d.id)).size).toBe(expected);
    expect(smsAlerts()).toBe(1);
    // The shared outbox says each was delivered at the first attempt, and has no alert left.
    const client = new pg.Client({ connectionString: started.url });
    await client.connect();
    try {
      const { rows } = await client.query<{ status: string; attempts: number }>('SELECT status, attempts FROM kamai.webhook_sends');
      expect(rows).toEqual(Array(expected).fill({ status: 'delivered', attempts: 1 }));
      const { rows: pending } = await client.query('SELECT id FROM kamai.push_outbox');
      expect(pending).toEqual([]);
    } finally {
      await client.end();
    }
  }, 120_000);
});
