import { type WebhookDeliveryBody, type WebhookEndpointCreatedBody, streams } from '@kamai/contracts';
import { webhookEndpointDecider } from '@kamai/domain';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { handleCommand } from '../commands/handle.ts';
import { type TestServer, startTestServer } from '../testing/server.ts';
import { PRIVATE_ADDRESS } from './sender.ts';
import { newWebhookSecret, sealWebhookSecret } from './signing.ts';
import { startReceiver } from './testing.ts';

// As in production: no loopback (WEBHOOK_HTTP_LOOPBACK=false), so no private address at all.
let server: TestServer;
let receiver: Awaited<ReturnType<typeof startReceiver>>;
beforeAll(async () => {
  server = await startTestServer({ WEBHOOK_RETRY_FIRST_MS: '50', WEBHOOK_HTTP_LOOPBACK: 'false' });
  receiver = await startReceiver();
});
afterAll(async () => {
  await server?.close();
  await receiver?.close();
});

describe('webhook endpoints on private addresses', () => {
  it('are refused at registration on the url, loopback, private, link-local and unique-local, IPv4 and IPv6 alike', async () => {
    const admin = await server.signUp({ roles: ['admin'] });
    for (const url of [
      'https://127.0.0.1/hooks',
      'https://localhost:8443/hooks',
      'https://10.1.2.3/hooks',
      'https://172.16.0.9/hooks',
      'https://192.168.1.1/hooks',
      'https://169.254.169.254/latest/meta-data',
      'https://100.64.0.1/hooks',
      'https://0.0.0.0/hooks',
      'https://2130706433/hooks',
      'https://[::1]/hooks',
      'https://[fe80::1]/hooks',
      'https://[fd12:3456::1]/hooks',
      'https://[::ffff:10.0.0.1]/hooks',
      'https://[::ffff:169.254.169.254]/hooks',
    ]) {
      const refused = await admin.post<{ error: { code: string; key: string; fields: Record<string, string>; fieldKeys: Record<string, { key: string }> } }>('/api/admin/webhooks', { url, events: ['funding.booked'] });
      expect([url, refused.status, refused.body.error.code, refused.body.error.fieldKeys?.url?.key]).toEqual([url, 400, 'validation_failed', 'webhook.privateAddress']);
      expect(refused.body.error.fields.url).toBe('The endpoint must be on the public internet, not a private or local address');
    }
    // http to loopback is not allowed here either (it is where WEBHOOK_HTTP_LOOPBACK says so).
    expect((await admin.post('/api/admin/webhooks', { url: receiver.url, events: ['funding.booked'] })).status).toBe(400);
    // A public address is taken.
    const created = await admin.post<WebhookEndpointCreatedBody>('/api/admin/webhooks', { url: 'https://8.8.8.8/hooks', events: ['funding.booked'] });
    expect(created.status).toBe(201);
    expect((await admin.delete(`/api/admin/webhooks/${created.body.id}`)).status).toBe(204);
  });

  it('are checked again before each delivery: an endpoint that points to one now is not sent to, and its delivery fails with a reason', async () => {
    const admin = await server.signUp({ roles: ['admin'] });
    const finance = await server.signUp({ roles: ['finance'] });
    // Registered when its address was public (say); its name points to loopback now.
    const id = crypto.randomUUID();
    const { position } = await handleCommand(server.store, streams.webhook(id), webhookEndpointDecider, {
      type: 'RegisterWebhookEndpoint',
      data: { endpointId: id, url: receiver.url, events: ['funding.booked'], sealedSecret: sealWebhookSecret(server.personalData.keys, id, newWebhookSecret()), by: admin.userId },
      now: new Date().toISOString(),
    });
    await server.runner.waitFor(position);
    expect((await finance.post('/api/admin/ledger/funding', { amount: '25.00', reference: 'NEFT-PRIVATE-1', date: '2026-01-05' })).status).toBe(201);
    await server.runner.waitFor(await server.store.headPosition());
    await server.sweepWebhooks();
    await server.sweepWebhooks();
    expect(receiver.got).toEqual([]);
    const log = await admin.get<WebhookDeliveryBody[]>(`/api/admin/webhooks/${id}/deliveries`);
    expect(log.body.map((d) => [d.event, d.status, d.attempts, d.lastStatusCode, d.lastError, d.nextAttemptAt])).toEqual([['funding.booked', 'failed', 1, null, PRIVATE_ADDRESS, null]]);
  });
});
