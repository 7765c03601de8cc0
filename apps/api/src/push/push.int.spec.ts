import { createECDH, createPublicKey, randomBytes, verify } from 'node:crypto';
import { execFileSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { type Server, createServer } from 'node:https';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { PUSH_ALERT_KINDS, type UserTaskBody, istDayOf } from '@kamai/contracts';
// @ts-expect-error http_ece ships no types: decrypt(buffer, { version, privateKey, authSecret }) -> Buffer
import ece from 'http_ece';
import { Agent, type Dispatcher, getGlobalDispatcher, setGlobalDispatcher } from 'undici';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { adjust, BANK } from '../finance/testing.ts';
import { createTaskAs, submitProof, uploadedImage } from '../tasks/testing.ts';
import { type TestClient, type TestServer, startTestServer } from '../testing/index.ts';
import type { PushPayload } from './sender.ts';

/** What reached the test's push service: the path, the headers and the encrypted body. */
interface Received {
  path: string;
  headers: Record<string, string | string[] | undefined>;
  body: Buffer;
}

/**
 * A push service on loopback, over TLS as every real one is (the sender refuses http endpoints):
 * a throw-away certificate for 127.0.0.1, trusted by this process's fetch only.
 */
function startPushService(dir: string, answer: (path: string) => number) {
  execFileSync('openssl', [
    'req', '-x509', '-newkey', 'ec', '-pkeyopt', 'ec_paramgen_curve:prime256v1', '-nodes', '-days', '1', '-subj', '/CN=127.0.0.1',
    '-addext', 'subjectAltName=IP:127.0.0.1', '-keyout', join(dir, 'key.pem'), '-out', join(dir, 'cert.pem'),
  ], { stdio: 'ignore' });
  const cert = readFileSync(join(dir, 'cert.pem'));
  const received: Received[] = [];
  const server: Server = createServer({ key: readFileSync(join(dir, 'key.pem')), cert }, (req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (chunk: Buffer) => chunks.push(chunk));
    req.on('end', () => {
      received.push({ path: req.url ?? '', headers: req.headers, body: Buffer.concat(chunks) });
      res.statusCode = answer(req.url ?? '');
      res.end();
    });
  });
  return { server, cert, received };
}

/** A browser's side of a subscription: its P-256 key pair and auth secret. */
function browserKeys() {
  const ecdh = createECDH('prime256v1');
  ecdh.generateKeys();
  const auth = randomBytes(16).toString('base64url');
  return { ecdh, keys: { p256dh: ecdh.getPublicKey().toString('base64url'), auth } };
}

/** Checks the VAPID JWT's ES256 signature against the server's public key; answers its claims. */
function vapidClaims(authorization: string, serverKey: string): Record<string, unknown> {
  const match = /^vapid t=([^,]+), k=(.+)$/.exec(authorization);
  expect(match, authorization).not.toBeNull();
  const [, jwt, k] = match!;
  expect(k).toBe(serverKey);
  const [header, claims, signature] = jwt!.split('.');
  const point = Buffer.from(serverKey, 'base64url');
  const key = createPublicKey({ key: { kty: 'EC', crv: 'P-256', x: point.subarray(1, 33).toString('base64url'), y: point.subarray(33).toString('base64url') }, format: 'jwk' });
  const ok = verify('sha256', Buffer.from(`${header}.${claims}`), { key, dsaEncoding: 'ieee-p1363' }, Buffer.from(signature!, 'base64url'));
  expect(ok).toBe(true);
  return JSON.parse(Buffer.from(claims!, 'base64url').toString('utf8')) as Record<string, unknown>;
}

function open(received: Received, browser: ReturnType<typeof browserKeys>): PushPayload {
  expect(received.headers['content-encoding']).toBe('aes128gcm');
  const plain = ece.decrypt(received.body, { version: 'aes128gcm', privateKey: browser.ecdh, authSecret: browser.keys.auth }) as Buffer;
  return JSON.parse(plain.toString('utf8')) as PushPayload;
}

describe('alerts outside the app: Web Push to a push service on loopback', () => {
  let dir: string;
  let push: ReturnType<typeof startPushService>;
  let pushBase: string;
  let previous: Dispatcher;
  let server: TestServer;
  let admin: TestClient;
  let reviewer: TestClient;
  let finance: TestClient;
  /** Pays withdrawals: not the member who credited the wallet (conflict of duties). */
  let payer: TestClient;
  /** Paths the push service answers 410 Gone for (a browser that dropped its subscription). */
  const gone = new Set<string>();

  beforeAll(async () => {
    dir = mkdtempSync(join(tmpdir(), 'kamai-push-'));
    push = startPushService(dir, (path) => (gone.has(path) ? 410 : 201));
    await new Promise<void>((resolve) => push.server.listen(0, '127.0.0.1', resolve));
    pushBase = `https://127.0.0.1:${(push.server.address() as AddressInfo).port}`;
    previous = getGlobalDispatcher();
    setGlobalDispatcher(new Agent({ connect: { ca: push.cert } }));
    // The SMS gateway is the same loopback service, at /sms: the payout SMS reach it too.
    server = await startTestServer({
      SMS_PROVIDER: 'gateway',
      SMS_GATEWAY_URL: `${pushBase}/sms`,
      SMS_GATEWAY_API_KEY: 'test-key',
      SMS_SENDER_ID: 'KAMAIT',
      SMS_DLT_ENTITY_ID: 'entity',
      SMS_DLT_TEMPLATE_ID_EN: 'reset-en',
      SMS_DLT_TEMPLATE_ID_HI: 'reset-hi',
      SMS_DLT_TEMPLATE_ID_PAYOUT_PAID_EN: 'paid-en',
      SMS_DLT_TEMPLATE_ID_PAYOUT_PAID_HI: 'paid-hi',
      SMS_DLT_TEMPLATE_ID_PAYOUT_FAILED_EN: 'failed-en',
      SMS_DLT_TEMPLATE_ID_PAYOUT_FAILED_HI: 'failed-hi',
    }, { now: middayInIndia() });
    admin = await server.signUp({ roles: ['admin'] });
    reviewer = await server.signUp({ roles: ['reviewer'] });
    finance = await server.signUp({ roles: ['finance'] });
    payer = await server.signUp({ roles: ['finance'] });
  });
  afterAll(async () => {
    await server?.close();
    setGlobalDispatcher(previous);
    await new Promise((resolve) => push.server.close(resolve));
    rmSync(dir, { recursive: true, force: true });
  });

  /**
   * The server's clock moved to 12:00 IST today, still running: alerts other than money wait out the
   * quiet hours (22:00–08:00 IST), and these checks are about sending, not about the hour they run at.
   */
  function middayInIndia(): () => Date {
    const noon = Date.parse(`${istDayOf(new Date())}T12:00:00+05:30`);
    const shift = noon - Date.now();
    return () => new Date(Date.now() + shift);
  }

  async function subscribed(language: 'en' | 'hi', path: string) {
    const user = await server.signUp();
    expect((await user.put('/api/profile', { language })).status).toBe(200);
    const browser = browserKeys();
    const res = await user.post('/api/push/subscriptions', { endpoint: `${pushBase}${path}`, keys: browser.keys });
    expect(res.status, JSON.stringify(res.body)).toBe(204);
    return { user, browser };
  }

  async function approvedProof(user: TestClient, title: string) {
    const task = await createTaskAs(admin, { title, rupeeReward: '12.50' });
    const sent = await submitProof(user, task.id, await uploadedImage(server, user));
    expect(sent.status).toBe(201);
    const approved = await reviewer.post(`/api/admin/submissions/${(sent.body as UserTaskBody).submissionId}/approve`);
    expect(approved.status).toBe(200);
  }

  const arrivals = (path: string) => push.received.filter((r) => r.path === path);

  it('sends an approval in the person\'s language, encrypted for their browser and signed with the server\'s VAPID key', async () => {
    const { user, browser } = await subscribed('hi', '/push/hindi');
    const { publicKey } = (await server.client().get<{ publicKey: string }>('/api/push/public-key')).body;
    await approvedProof(user, 'Rate FreshCart');

    await vi.waitFor(() => expect(arrivals('/push/hindi')).toHaveLength(1), { timeout: 15_000, interval: 50 });
    const [arrived] = arrivals('/push/hindi');
    const claims = vapidClaims(String(arrived!.headers.authorization), publicKey);
    expect(claims.aud).toBe(pushBase);
    expect(claims.sub).toMatch(/^mailto:/);
    expect(Number(arrived!.headers.ttl)).toBeGreaterThan(0);
    const payload = open(arrived!, browser);
    expect(payload).toMatchObject({ alert: 'proof_approved', title: 'काम मंज़ूर हुआ', url: '/' });
    expect(payload.body).toContain('Rate FreshCart');
    expect(payload.body).toContain('₹12.50');
  });

  it('sends only the alerts the person chose; a money alert goes, and a gone browser is forgotten', async () => {
    const { user, browser } = await subscribed('en', '/push/chooser');
    expect((await user.get('/api/push/alerts')).body).toEqual({ alerts: [...PUSH_ALERT_KINDS] });
    const chosen = await user.put('/api/push/alerts', { alerts: ['payout_paid'] });
    expect(chosen.status).toBe(200);
    expect(chosen.body).toEqual({ alerts: ['payout_paid'] });
    expect((await user.put('/api/push/alerts', { alerts: ['nonsense'] })).status).toBe(400);

    await approvedProof(user, 'Visit the bank site');
    await adjust(finance, (user as TestClient & { mobile: string }).mobile, 200);
    const withdrawal = await user.post<{ id: string }>('/api/withdrawals', { amount: 150, bankAccount: BANK });
    expect(withdrawal.status, JSON.stringify(withdrawal.body)).toBe(201);
    const paid = await payer.post(`/api/admin/withdrawals/${withdrawal.body.id}/paid`, { reference: 'UTR77001122' });
    expect(paid.status, JSON.stringify(paid.body)).toBe(200);

    // The approval came first in the log: had it been sent, it would have arrived before the payout.
    await vi.waitFor(() => expect(arrivals('/push/chooser')).toHaveLength(1), { timeout: 15_000, interval: 50 });
    const payload = open(arrivals('/push/chooser')[0]!, browser);
    expect(payload).toMatchObject({ alert: 'payout_paid', title: 'Withdrawal paid', url: '/wallet' });
    expect(payload.body).toBe('₹150.00 sent to your bank. Reference (UTR): UTR77001122');
    expect(arrivals('/push/chooser')[0]!.headers.urgency).toBe('high');
    // The payout also went by SMS, with the person's (English) DLT template, the amount and the UTR.
    await vi.waitFor(() => expect(arrivals('/sms')).toHaveLength(1), { timeout: 15_000, interval: 50 });
    const sms = JSON.parse(arrivals('/sms')[0]!.body.toString('utf8')) as { template_id: string; recipients: Record<string, string>[] };
    expect(sms.template_id).toBe('paid-en');
    expect(sms.recipients).toEqual([{ mobiles: `91${(user as TestClient & { mobile: string }).mobile}`, amount: '₹150.00', reference: 'UTR77001122' }]);

    // The browser drops the subscription: the push service answers 410, and the next alert is not tried there.
    gone.add('/push/chooser');
    expect((await user.put('/api/push/alerts', { alerts: ['proof_approved'] })).status).toBe(200);
    await approvedProof(user, 'Play the quiz');
    await vi.waitFor(() => expect(arrivals('/push/chooser')).toHaveLength(2), { timeout: 15_000, interval: 50 });
    const second = await user.post('/api/push/subscriptions', { endpoint: `${pushBase}/push/second`, keys: browserKeys().keys });
    expect(second.status).toBe(204);
    await approvedProof(user, 'Rate the quiz');
    await vi.waitFor(() => expect(arrivals('/push/second')).toHaveLength(1), { timeout: 15_000, interval: 50 });
    expect(arrivals('/push/chooser')).toHaveLength(2);
  });

  it('sends nothing to a browser unsubscribed, and refuses an endpoint that is not https', async () => {
    const { user } = await subscribed('en', '/push/leaver');
    const left = await user.request('DELETE', '/api/push/subscriptions', { endpoint: `${pushBase}/push/leaver` });
    expect(left.status).toBe(204);
    const plain = await user.post<{ error: { code: string; fields?: Record<string, string> } }>('/api/push/subscriptions', { endpoint: 'http://127.0.0.1:9/push', keys: browserKeys().keys });
    expect(plain.status).toBe(400);
    expect(plain.body.error.fields?.endpoint).toBe('The push subscription endpoint must be an https address');

    // A later subscriber's alert arriving shows the sender has passed the leaver's approval.
    await approvedProof(user, 'Leaver task');
    const { user: other } = await subscribed('en', '/push/stayer');
    await approvedProof(other, 'Stayer task');
    await vi.waitFor(() => expect(arrivals('/push/stayer')).toHaveLength(1), { timeout: 15_000, interval: 50 });
    expect(arrivals('/push/leaver')).toHaveLength(0);
  });
});
