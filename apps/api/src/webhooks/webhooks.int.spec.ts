import { type AuditEntryBody, WEBHOOK_EVENT_KINDS, type WebhookDeliveryBody, type WebhookEndpointBody, type WebhookEndpointCreatedBody } from '@kamai/contracts';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { BANK, UPI, adjust } from '../finance/testing.ts';
import { type TestServer, startTestServer } from '../testing/server.ts';
import { startReceiver } from './testing.ts';

// Webhooks on one in-process server: registration, what a body holds, retries, the log, replay, delete.
let server: TestServer;
let admin: Awaited<ReturnType<TestServer['signUp']>>;
let receiver: Awaited<ReturnType<typeof startReceiver>>;

beforeAll(async () => {
  server = await startTestServer({ WEBHOOK_RETRY_FIRST_MS: '50', WEBHOOK_HTTP_LOOPBACK: 'true' });
  admin = await server.signUp({ roles: ['admin'] });
  receiver = await startReceiver({ failFirst: 1 });
});
afterAll(async () => {
  await server?.close();
  await receiver?.close();
});

describe('webhooks', () => {
  it('registers an endpoint only for admins, over https or loopback http, and shows its secret once', async () => {
    const finance = await server.signUp({ roles: ['finance'] });
    expect((await finance.post('/api/admin/webhooks', { url: receiver.url, events: ['funding.booked'] })).status).toBe(403);
    const plainHttp = await admin.post('/api/admin/webhooks', { url: 'http://example.com/hooks', events: ['funding.booked'] });
    expect(plainHttp.status).toBe(400);
    expect(plainHttp.body.error.key).toBe('webhook.httpsRequired');
    const noKinds = await admin.post('/api/admin/webhooks', { url: 'https://example.com/hooks', events: [] });
    expect(noKinds.status).toBe(400);
    expect((await admin.post('/api/admin/webhooks', { url: 'https://example.com/hooks', events: ['wallet.emptied'] })).status).toBe(400);

    const created = await admin.post<WebhookEndpointCreatedBody>('/api/admin/webhooks', { url: 'https://example.com/hooks', events: ['funding.booked', 'funding.booked'] });
    expect(created.status).toBe(201);
    expect(created.body.secret).toMatch(/^whsec_[A-Za-z0-9_-]{43}$/);
    expect(created.body.events).toEqual(['funding.booked']);
    const list = await admin.get<WebhookEndpointBody[]>('/api/admin/webhooks');
    expect(list.body.map((e) => e.id)).toContain(created.body.id);
    expect(JSON.stringify(list.body)).not.toContain(created.body.secret);
    // Nor is the secret anywhere in the log in plain text.
    const events = await server.store.readStream(`webhook-${created.body.id}`);
    expect(JSON.stringify(events)).not.toContain(created.body.secret.slice(6));
    expect((await admin.delete(`/api/admin/webhooks/${created.body.id}`)).status).toBe(204);
    expect((await admin.delete(`/api/admin/webhooks/${created.body.id}`)).status).toBe(404);
  });

  it('delivers each event of the kinds asked for, signed, with ids and amounts only, retried under one delivery id; replays; stops once deleted', async () => {
    const created = await admin.post<WebhookEndpointCreatedBody>('/api/admin/webhooks', { url: receiver.url, events: [...WEBHOOK_EVENT_KINDS] });
    expect(created.status).toBe(201);
    const { id, secret } = created.body;
    const [finance, payer] = [await server.signUp({ roles: ['finance'] }), await server.signUp({ roles: ['finance'] })];
    const worker = await server.signUp({ firstName: 'Ravi', lastName: 'Kumar' });

    expect((await finance.post('/api/admin/ledger/funding', { amount: '700.00', reference: 'NEFT-WEBHOOK-1', date: '2026-01-05' })).status).toBe(201);
    await adjust(finance, worker.mobile, 300);
    const upi = await worker.post<{ id: string }>('/api/withdrawals', { amount: 100, upiId: UPI });
    const bank = await worker.post<{ id: string }>('/api/withdrawals', { amount: 150, bankAccount: BANK });
    expect([upi.status, bank.status], JSON.stringify(bank.body)).toEqual([201, 201]);
    expect((await payer.post(`/api/admin/withdrawals/${upi.body.id}/paid`, { reference: 'UTR55550001' })).status).toBe(200);

    const kinds = ['funding.booked', 'adjustment.booked', 'withdrawal.requested', 'withdrawal.requested', 'withdrawal.paid'];
    await receiver.until(() => receiver.accepted().length >= kinds.length);
    const accepted = receiver.accepted();
    expect(accepted.map((d) => d.payload.type).sort()).toEqual([...kinds].sort());
    // The first request was refused; the same delivery came again with the same id and was taken.
    expect(receiver.got[0]!.status).toBe(500);
    expect(accepted.map((d) => d.id)).toContain(receiver.got[0]!.id);
    expect(new Set(accepted.map((d) => d.id)).size).toBe(accepted.length);
    for (const delivery of receiver.got) {
      expect(receiver.signedBy(delivery, secret)).toBe(true);
      expect(receiver.signedBy(delivery, `${secret}x`)).toBe(false);
      expect(delivery.payload.id).toBe(delivery.id);
      expect(delivery.headers['kamai-event']).toBe(delivery.payload.type);
      // No personal data: no mobile number, name, UPI id, account number, IFSC or bank reference.
      for (const personal of [worker.mobile, 'Ravi', 'Kumar', UPI, '0012', 'hdfc', 'UTR55550001', 'NEFT-WEBHOOK-1']) expect(delivery.body).not.toContain(personal);
    }
    const paid = accepted.find((d) => d.payload.type === 'withdrawal.paid')!.payload;
    expect(paid.data).toEqual({ userId: worker.userId, withdrawalId: upi.body.id, amount: '100.00' });
    expect(accepted.find((d) => d.payload.type === 'funding.booked')!.payload.data).toMatchObject({ amount: '700.00' });
    expect(accepted.find((d) => d.payload.type === 'adjustment.booked')!.payload.data).toMatchObject({ userId: worker.userId, direction: 'credit', amount: '300.00' });

    const log = await admin.get<WebhookDeliveryBody[]>(`/api/admin/webhooks/${id}/deliveries`);
    expect(log.status).toBe(200);
    expect(log.body).toHaveLength(kinds.length);
    expect(log.body.every((d) => d.status === 'delivered' && d.deliveredAt !== null)).toBe(true);
    expect(log.body.find((d) => d.id === receiver.got[0]!.id)).toMatchObject({ attempts: 2, lastStatusCode: 200 });

    // A replay from the first withdrawal's position sends it and what came after again, under the same ids.
    const requested = accepted.filter((d) => d.payload.type === 'withdrawal.requested').sort((a, b) => a.payload.position - b.payload.position);
    const before = receiver.got.length;
    const replay = await admin.post<{ queued: number }>(`/api/admin/webhooks/${id}/replay`, { fromPosition: requested[0]!.payload.position });
    expect(replay.status).toBe(202);
    expect(replay.body.queued).toBe(3);
    await receiver.until(() => receiver.got.length >= before + 3);
    const again = receiver.got.slice(before);
    expect(again.map((d) => d.id).sort()).toEqual(accepted.filter((d) => d.payload.position >= requested[0]!.payload.position).map((d) => d.id).sort());
    expect(again.every((d) => accepted.some((a) => a.id === d.id && a.body === d.body))).toBe(true);
    expect((await admin.post(`/api/admin/webhooks/${id}/replay`, { fromPosition: -1 })).status).toBe(400);

    // Deleted: nothing more is sent, nor can it be replayed.
    expect((await admin.delete(`/api/admin/webhooks/${id}`)).status).toBe(204);
    expect((await admin.get<WebhookEndpointBody[]>('/api/admin/webhooks')).body.map((e) => e.id)).not.toContain(id);
    expect((await admin.post(`/api/admin/webhooks/${id}/replay`, { fromPosition: 0 })).status).toBe(404);
    const afterDelete = receiver.got.length;
    expect((await finance.post('/api/admin/ledger/funding', { amount: '10.00', reference: 'NEFT-WEBHOOK-2', date: '2026-01-05' })).status).toBe(201);
    await server.runner.waitFor(await server.store.headPosition());
    await server.sweepWebhooks();
    expect(receiver.got.length).toBe(afterDelete);
  });

  it('shows who registered, replayed and deleted an endpoint in the audit list', async () => {
    const other = await server.signUp({ roles: ['admin'] });
    const created = await admin.post<WebhookEndpointCreatedBody>('/api/admin/webhooks', { url: 'https://example.com/audited', events: ['funding.booked'] });
    const id = created.body.id;
    expect((await other.post(`/api/admin/webhooks/${id}/replay`, { fromPosition: 0 })).status).toBe(202);
    expect((await other.delete(`/api/admin/webhooks/${id}`)).status).toBe(204);
    const audit = await admin.get<AuditEntryBody[]>('/api/admin/audit');
    expect(audit.status).toBe(200);
    const rows = audit.body.filter((row) => row.reference === id).map((row) => [row.action, row.actor.id, row.subject, row.amount]);
    expect(rows).toEqual([
      ['webhook_endpoint_deleted', other.userId, null, null],
      ['webhook_replay_requested', other.userId, null, null],
      ['webhook_endpoint_registered', admin.userId, null, null],
    ]);
    const filtered = await admin.get<AuditEntryBody[]>(`/api/admin/audit?action=webhook_endpoint_deleted&actor=${other.userId}`);
    expect(filtered.body.map((row) => row.reference)).toEqual([id]);
  });
});
