import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Role, WebhookDeliveryBody, WebhookEndpointCreatedBody } from '@kamai/contracts';
import { afterAll, describe, expect, it } from 'vitest';
import { grantRole } from '../auth/accounts.ts';
import { openSealedSqliteStore } from '../privacy/open.ts';
import { type ApiProcess, startApiProcess } from '../testing/process.ts';
import { TestClient, freshMobile } from '../testing/server.ts';
import { startReceiver } from './testing.ts';

// A delivery is a record, not a call: the receiver refuses the first two attempts, the API process
// is stopped before the third, and the restarted process delivers it, under the same delivery id.
const dataDir = mkdtempSync(join(tmpdir(), 'kamai-webhooks-'));
const env = { WEBHOOK_RETRY_FIRST_MS: '3000', WEBHOOK_HTTP_LOOPBACK: 'true' };
const processes: ApiProcess[] = [];
let receiver: Awaited<ReturnType<typeof startReceiver>> | undefined;

afterAll(async () => {
  await Promise.all(processes.map((p) => p.stop()));
  await receiver?.close();
  rmSync(dataDir, { recursive: true, force: true });
});

async function signUp(url: string, roles: Role[] = []) {
  const client = new TestClient(url);
  const mobile = freshMobile();
  const res = await client.post<{ id: string }>('/api/auth/register', { mobile, password: 'secret123', firstName: 'Asha', lastName: 'Test', consent: true });
  expect(res.status).toBe(201);
  if (roles.length > 0) {
    const store = openSealedSqliteStore(join(dataDir, 'events.sqlite'));
    try {
      for (const role of roles) await grantRole(store, res.body.id, role, 'test', new Date());
    } finally {
      await store.close();
    }
    const deadline = Date.now() + 10_000;
    for (;;) {
      const held = (await client.get<{ roles: Role[] }>('/api/auth/user')).body.roles;
      if (roles.every((role) => held.includes(role))) break;
      if (Date.now() > deadline) throw new Error('roles not visible');
      await new Promise((r) => setTimeout(r, 25));
    }
  }
  return Object.assign(client, { mobile, userId: res.body.id });
}

describe('webhooks across a restart of the API', () => {
  it('delivers each event once by delivery id, with valid signatures, after the receiver refused the first two attempts and the process restarted', async () => {
    receiver = await startReceiver({ failFirst: 2 });
    const a = await startApiProcess(dataDir, env);
    processes.push(a);
    const admin = await signUp(a.url, ['admin']);
    const finance = await signUp(a.url, ['finance']);
    const created = await admin.post<WebhookEndpointCreatedBody>('/api/admin/webhooks', { url: receiver.url, events: ['funding.booked', 'adjustment.booked'] });
    expect(created.status).toBe(201);
    const { id, secret } = created.body;

    expect((await finance.post('/api/admin/ledger/funding', { amount: '250.00', reference: 'NEFT-RESTART-1', date: '2026-01-05' })).status).toBe(201);
    // Refused twice (at once, then after the first wait); the third try is due after twice that wait.
    await receiver.until(() => receiver!.got.length >= 2);
    await a.stop();
    const stoppedAt = Date.now();
    expect(receiver.accepted()).toHaveLength(0);

    const b = await startApiProcess(dataDir, env);
    processes.push(b);
    const financeOnB = finance.clone(b.url);
    const worker = await signUp(b.url);
    const adjusted = await financeOnB.post('/api/admin/adjustments', { mobile: worker.mobile, amount: 120, direction: 'credit', reason: 'Test funding' });
    expect(adjusted.status).toBe(201);
    await receiver.until(() => receiver!.accepted().length >= 2, 60_000);

    const [first, second] = receiver.got;
    const accepted = receiver.accepted();
    // The funding: the same delivery id on all three tries, the last one sent by the restarted process.
    expect(second!.id).toBe(first!.id);
    const funding = accepted.find((d) => d.payload.type === 'funding.booked')!;
    expect(funding.id).toBe(first!.id);
    expect(funding.body).toBe(first!.body);
    expect(funding.at).toBeGreaterThanOrEqual(stoppedAt);
    expect(accepted.find((d) => d.payload.type === 'adjustment.booked')!.payload.data).toMatchObject({ userId: worker.userId, amount: '120.00' });
    expect(new Set(accepted.map((d) => d.id)).size).toBe(accepted.length);
    for (const delivery of receiver.got) expect(receiver.signedBy(delivery, secret)).toBe(true);

    // The log agrees, and nothing is left to send (so nothing arrives twice).
    const log = await admin.clone(b.url).get<WebhookDeliveryBody[]>(`/api/admin/webhooks/${id}/deliveries`);
    expect(log.body.map((d) => [d.event, d.status, d.attempts]).sort()).toEqual([
      ['adjustment.booked', 'delivered', 1],
      ['funding.booked', 'delivered', 3],
    ]);
    expect(receiver.got).toHaveLength(4);
  });
});
