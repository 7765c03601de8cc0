import { type IncomingHttpHeaders, createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { streams } from '@kamai/contracts';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { type TestServer, freshMobile, startTestServer } from '../testing/server.ts';
import { consoleSms, maskMobile } from './sms.ts';

/**
 * Forgot password: a code by SMS through the gateway adapter, contract-tested against a local HTTP
 * server that records what it receives (standing in for the Indian SMS gateway).
 */

interface Received {
  headers: IncomingHttpHeaders;
  body: { template_id: string; sender: string; pe_id: string; recipients: { mobiles: string; otp: string; minutes: string }[] };
}
const received: Received[] = [];
/** While set, the gateway holds its answers here (a slow gateway) until they are called. */
let heldAnswers: Array<() => void> | null = null;
const gateway = createServer((req, res) => {
  let text = '';
  req.on('data', (chunk: Buffer) => (text += chunk.toString()));
  req.on('end', () => {
    received.push({ headers: req.headers, body: JSON.parse(text) as Received['body'] });
    const answer = () => res.writeHead(200, { 'content-type': 'application/json' }).end('{"type":"success"}');
    if (heldAnswers) heldAnswers.push(answer);
    else answer();
  });
});

let server: TestServer;
beforeAll(async () => {
  await new Promise<void>((resolve) => gateway.listen(0, '127.0.0.1', resolve));
  server = await startTestServer({
    SMS_PROVIDER: 'gateway',
    SMS_GATEWAY_URL: `http://127.0.0.1:${(gateway.address() as AddressInfo).port}/api/v5/flow/`,
    SMS_GATEWAY_API_KEY: 'test-auth-key',
    SMS_SENDER_ID: 'KAMAIN',
    SMS_DLT_ENTITY_ID: '1101000000000000001',
    SMS_DLT_TEMPLATE_ID_EN: '1107000000000000010',
    SMS_DLT_TEMPLATE_ID_HI: '1107000000000000011',
  });
});
afterAll(async () => {
  await server?.close();
  await new Promise((resolve) => gateway.close(resolve));
});

const sentTo = (mobile: string) => received.filter((r) => r.body.recipients[0]?.mobiles === `91${mobile}`);

/** The code the gateway was last asked to send to `mobile`. */
function lastCodeFor(mobile: string): string {
  const sms = sentTo(mobile).at(-1);
  if (!sms) throw new Error(`no SMS to ${mobile}`);
  return sms.body.recipients[0]!.otp;
}

/** The last code sent to `mobile`, once `count` were sent (codes are issued and sent after the answer). */
async function codeFor(mobile: string, count = 1): Promise<string> {
  await vi.waitFor(() => expect(sentTo(mobile).length).toBeGreaterThanOrEqual(count), { timeout: 5000 });
  return lastCodeFor(mobile);
}

describe('POST /api/auth/password-reset', () => {
  it('answers 202 for any number, and sends a 6-digit code only to an account, through the DLT template', async () => {
    const anon = server.client();
    expect((await anon.post('/api/auth/password-reset', { mobile: freshMobile() })).status).toBe(202);
    expect(received).toHaveLength(0);

    const user = await server.signUp();
    expect((await anon.post('/api/auth/password-reset', { mobile: user.mobile })).status).toBe(202);
    await codeFor(user.mobile);
    expect(received).toHaveLength(1);
    const [sms] = received;
    expect(sms!.headers.authkey).toBe('test-auth-key');
    expect(sms!.headers['content-type']).toBe('application/json');
    expect(sms!.body).toEqual({
      template_id: '1107000000000000010',
      sender: 'KAMAIN',
      pe_id: '1101000000000000001',
      short_url: '0',
      recipients: [{ mobiles: `91${user.mobile}`, otp: expect.stringMatching(/^\d{6}$/), minutes: '10' }],
    });

    // The log holds the code's HMAC, never the code.
    const code = lastCodeFor(user.mobile);
    const events = await server.store.readStream(streams.passwordReset(user.userId));
    expect(events.map((e) => e.type)).toEqual(['PasswordResetCodeIssued']);
    expect(JSON.stringify(events)).not.toContain(code);
    expect((events[0]!.data as { codeHash: string }).codeHash).toMatch(/^[0-9a-f]{64}$/);
  });

  it('sets the password with the right code once, ends every session, and refuses wrong and used codes', async () => {
    const user = await server.signUp({ password: 'old-secret' });
    const laptop = user.clone();
    expect((await laptop.get('/api/auth/user')).status).toBe(200);
    const anon = server.client();
    await anon.post('/api/auth/password-reset', { mobile: user.mobile });
    const code = await codeFor(user.mobile);
    const wrong = code === '000000' ? '000001' : '000000';

    const refused = await anon.post('/api/auth/password-reset/confirm', { mobile: user.mobile, code: wrong, newPassword: 'new-secret' });
    expect(refused.status).toBe(400);
    expect(refused.body.error.code).toBe('invalid_code');
    expect((await anon.post('/api/auth/password-reset/confirm', { mobile: user.mobile, code, newPassword: '123' })).status).toBe(400);

    expect((await anon.post('/api/auth/password-reset/confirm', { mobile: user.mobile, code, newPassword: 'new-secret' })).status).toBe(204);
    expect((await user.get('/api/auth/user')).status).toBe(401);
    expect((await laptop.get('/api/auth/user')).status).toBe(401);
    expect((await server.client().post('/api/auth/login', { mobile: user.mobile, password: 'old-secret' })).status).toBe(401);
    expect((await server.client().post('/api/auth/login', { mobile: user.mobile, password: 'new-secret' })).status).toBe(200);

    const again = await anon.post('/api/auth/password-reset/confirm', { mobile: user.mobile, code, newPassword: 'third-secret' });
    expect(again.status).toBe(400);
    expect(again.body.error.code).toBe('invalid_code');
    // An unknown number gets the same answer as a wrong code.
    expect((await anon.post('/api/auth/password-reset/confirm', { mobile: freshMobile(), code, newPassword: 'new-secret' })).body.error.code).toBe('invalid_code');
  });

  it('answers a registered number as an unknown one: the answer never waits for the code to be issued or sent', async () => {
    const user = await server.signUp();
    const anon = server.client();
    const before = await server.store.headPosition();
    // A gateway that does not answer: a request that waited for the send would not answer either.
    heldAnswers = [];
    try {
      for (const mobile of [freshMobile(), user.mobile]) {
        const answer = await Promise.race([
          anon.post('/api/auth/password-reset', { mobile }).then((res) => res.status),
          new Promise((resolve) => setTimeout(() => resolve('still waiting'), 3000)),
        ]);
        expect(answer).toBe(202);
      }
      // The work is done all the same, after the answer: the code is issued and handed to the gateway.
      await codeFor(user.mobile);
      const issued = await server.store.readStream(streams.passwordReset(user.userId));
      expect(issued.map((e) => [e.type, e.position > before])).toEqual([['PasswordResetCodeIssued', true]]);
    } finally {
      for (const answer of heldAnswers ?? []) answer();
      heldAnswers = null;
    }
  });

  it('limits codes sent per number, and wrong codes tried per number', async () => {
    const user = await server.signUp();
    const anon = server.client();
    const statuses: number[] = [];
    for (let i = 0; i < 4; i++) statuses.push((await anon.post('/api/auth/password-reset', { mobile: user.mobile })).status);
    expect(statuses).toEqual([202, 202, 202, 429]);
    await codeFor(user.mobile, 3);

    const guesses: number[] = [];
    for (let i = 0; i < 6; i++) {
      const code = String(i).padStart(6, '9');
      if (code === lastCodeFor(user.mobile)) continue;
      guesses.push((await anon.post('/api/auth/password-reset/confirm', { mobile: user.mobile, code, newPassword: 'new-secret' })).status);
    }
    expect(guesses.at(-1)).toBe(429);
    expect(guesses.filter((s) => s === 400).length).toBeLessThanOrEqual(5);
    // Even the right code waits now.
    const right = await anon.post('/api/auth/password-reset/confirm', { mobile: user.mobile, code: lastCodeFor(user.mobile), newPassword: 'new-secret' });
    expect(right.status).toBe(429);
  });
});

describe('the console SMS adapter', () => {
  it('writes the code to the log with the number masked', async () => {
    const lines: string[] = [];
    await consoleSms((line) => lines.push(line)).sendPasswordResetCode({ mobile: '9876543210', code: '123456', language: 'hi' });
    expect(lines).toEqual(['[sms] password reset code for +91 XXXXXX3210: 123456 (valid 10 minutes)']);
    expect(lines.join('')).not.toContain('9876543210');
    expect(maskMobile('9876543210')).toBe('+91 XXXXXX3210');
  });
});
