import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { PRIVACY_POLICY_VERSION } from '@kamai/contracts';
import { type TestServer, freshMobile, startTestServer } from '../testing/server.ts';

let server: TestServer;
beforeAll(async () => {
  server = await startTestServer();
});
afterAll(async () => {
  await server.close();
});

const account = () => ({ mobile: freshMobile(), password: 'secret123', firstName: 'Asha', lastName: 'Rao', consent: true });

describe('POST /api/auth/register', () => {
  it('creates the account, signs in with an HttpOnly Lax cookie and answers the user body', async () => {
    const client = server.client();
    const input = account();
    const res = await client.post('/api/auth/register', input);
    expect(res.status).toBe(201);
    expect(res.body).toMatchObject({
      mobile: input.mobile,
      firstName: 'Asha',
      lastName: 'Rao',
      username: 'Asha Rao',
      email: null,
      totalRupees: '0.00',
      pendingPayout: '0.00',
      totalEarned: '0.00',
      notificationsEnabled: true,
      isAdmin: false,
      roles: [],
      kycStatus: 'pending',
    });
    expect(res.body).not.toHaveProperty('passwordHash');
    const cookies = res.headers.getSetCookie();
    const cookie = cookies.find((line) => line.startsWith('kamai_session=')) ?? '';
    expect(cookie).toMatch(/^kamai_session=[a-z2-7]{32};/);
    // The device cookie too, as a sign-in gives it: this browser is the holder's.
    const device = cookies.find((line) => line.startsWith('kamai_device=')) ?? '';
    expect(device).toMatch(/HttpOnly/);
    expect(device).toMatch(/Path=\/api\/auth/);
    expect(cookie).toMatch(/HttpOnly/);
    expect(cookie).toMatch(/SameSite=Lax/);
    expect(cookie).not.toMatch(/Secure/);
    const me = await client.get('/api/auth/user');
    expect(me.status).toBe(200);
    expect(me.body.id).toBe(res.body.id);
  });

  it('answers 400 with the spec messages per field and writes nothing', async () => {
    const head = await server.store.headPosition();
    const res = await server.client().post('/api/auth/register', { mobile: '98765', password: 'abc', firstName: 'A', lastName: 'B', consent: true });
    expect(res.status).toBe(400);
    expect(res.body.error.code).toBe('validation_failed');
    expect(res.body.error.fields).toEqual({
      mobile: 'Mobile number must be 10 digits',
      password: 'Password must be at least 6 characters',
      firstName: 'First name must be at least 2 characters',
      lastName: 'Last name must be at least 2 characters',
    });
    expect(await server.store.headPosition()).toBe(head);
  });

  it('requires consent (18 or older, the privacy policy), naming the field, and records its policy version', async () => {
    const head = await server.store.headPosition();
    for (const consent of [undefined, false, 'true']) {
      const res = await server.client().post('/api/auth/register', { ...account(), consent });
      expect(res.status).toBe(400);
      expect(res.body.error.fields).toEqual({ consent: 'Please confirm you are 18 or older and agree to the Privacy Policy' });
    }
    expect(await server.store.headPosition()).toBe(head);
    const client = server.client();
    expect((await client.post('/api/auth/register', account())).status).toBe(201);
    expect((await client.get('/api/profile/export')).body.consent).toMatchObject({ policyVersion: PRIVACY_POLICY_VERSION, confirmedAdult: true });
  });

  it('refuses wrong types, missing fields, malformed JSON and oversized bodies with a 4xx', async () => {
    const client = server.client();
    const wrongTypes = await client.post('/api/auth/register', { mobile: 9876543210, password: ['x'], firstName: 1, lastName: null, consent: true });
    expect(wrongTypes.status).toBe(400);
    expect(Object.keys(wrongTypes.body.error.fields).sort()).toEqual(['firstName', 'lastName', 'mobile', 'password']);
    expect((await client.post('/api/auth/register', {})).status).toBe(400);
    const malformed = await client.request('POST', '/api/auth/register', '{"mobile":', { 'content-type': 'application/json' });
    expect(malformed.status).toBe(400);
    expect(malformed.body.error.code).toBe('validation_failed');
    const huge = await client.post('/api/auth/register', { ...account(), firstName: 'x'.repeat(100_000) });
    expect(huge.status).toBe(413);
    expect(huge.body.error.code).toBe('payload_too_large');
  });

  it('answers 409 for a mobile number already registered', async () => {
    const input = account();
    expect((await server.client().post('/api/auth/register', input)).status).toBe(201);
    const again = await server.client().post('/api/auth/register', { ...input, firstName: 'Other' });
    expect(again.status).toBe(409);
    expect(again.body.error).toMatchObject({ code: 'mobile_taken', fields: { mobile: 'This mobile number is already registered' } });
  });

  it('registers a mobile once when many try at the same moment', async () => {
    const input = account();
    const results = await Promise.all(Array.from({ length: 8 }, () => server.client().post('/api/auth/register', input)));
    expect(results.filter((r) => r.status === 201)).toHaveLength(1);
    expect(results.filter((r) => r.status === 409)).toHaveLength(7);
  });
});

describe('sign in and out', () => {
  it('signs in with the right password and out again; the old cookie stops working', async () => {
    const user = await server.signUp();
    const client = server.client();
    const login = await client.post('/api/auth/login', { mobile: user.mobile, password: user.password });
    expect(login.status).toBe(200);
    expect(login.body.mobile).toBe(user.mobile);
    // The number as autofill or a person types it signs in to the same account.
    const spaced = `+91 ${user.mobile.slice(0, 5)}-${user.mobile.slice(5)}`;
    const again = await server.client().post('/api/auth/login', { mobile: spaced, password: user.password });
    expect(again.status).toBe(200);
    expect(again.body.id).toBe(login.body.id);
    expect((await server.client().post('/api/auth/login', { mobile: `0${user.mobile}`, password: user.password })).status).toBe(200);
    const stolen = client.clone();
    expect((await client.post('/api/auth/logout')).status).toBe(204);
    expect((await client.get('/api/auth/user')).status).toBe(401);
    expect((await stolen.get('/api/auth/user')).status).toBe(401);
  });

  it('answers 401 with one message for a wrong password and for an unknown mobile', async () => {
    const user = await server.signUp();
    const wrong = await server.client().post('/api/auth/login', { mobile: user.mobile, password: 'not-the-password' });
    const unknown = await server.client().post('/api/auth/login', { mobile: freshMobile(), password: 'whatever1' });
    expect(wrong.status).toBe(401);
    expect(unknown.status).toBe(401);
    expect(wrong.body).toEqual({ error: { code: 'invalid_credentials', message: 'Invalid mobile number or password', key: 'api.badCredentials' } });
    expect(unknown.body).toEqual(wrong.body);
    expect(wrong.headers.getSetCookie()).toEqual([]);
  });

  it('refuses a mobile number with 429 after ten failed sign-ins, even with the right password', async () => {
    const user = await server.signUp();
    for (let i = 0; i < 10; i++) {
      expect((await server.client().post('/api/auth/login', { mobile: user.mobile, password: `guess-${i}` })).status).toBe(401);
    }
    const locked = await server.client().post('/api/auth/login', { mobile: user.mobile, password: user.password });
    expect(locked.status).toBe(429);
    expect(locked.body.error).toMatchObject({ code: 'too_many_attempts', message: 'Too many failed sign-ins. Please try again in 15 minutes.' });
    expect(Number(locked.headers.get('retry-after'))).toBeGreaterThan(800);
    // Another account from the same address is not locked out by it.
    const other = await server.signUp();
    expect((await server.client().post('/api/auth/login', { mobile: other.mobile, password: other.password })).status).toBe(200);
  });

  it('lets no more than ten guesses through when they arrive all at once', async () => {
    // A check made before the slow password hash and a count made after it let a burst through whole.
    const user = await server.signUp();
    const burst = await Promise.all(
      Array.from({ length: 40 }, (_, i) => server.client().post('/api/auth/login', { mobile: user.mobile, password: `burst-${i}` })),
    );
    const statuses = burst.map((res) => res.status);
    expect(statuses.filter((status) => status === 401).length).toBeLessThanOrEqual(10);
    expect(statuses.filter((status) => status !== 401 && status !== 429)).toEqual([]);
  });

  it('validates the login body with the spec messages', async () => {
    const res = await server.client().post('/api/auth/login', { mobile: '12345', password: '123' });
    expect(res.status).toBe(400);
    expect(res.body.error.fields).toEqual({
      mobile: 'Mobile number must be 10 digits',
      password: 'Password must be at least 6 characters',
    });
  });

  it('answers 401 to GET /api/auth/user when signed out or with a forged cookie', async () => {
    expect((await server.client().get('/api/auth/user')).status).toBe(401);
    const forged = await server.client().request('GET', '/api/auth/user', undefined, { cookie: 'kamai_session=abcdefghijklmnopqrstuvwxyz234567' });
    expect(forged.status).toBe(401);
    expect(forged.body.error.code).toBe('unauthenticated');
  });

  it('redirects the client 401 target /api/login to /login', async () => {
    const res = await server.client().get('/api/login');
    expect(res.status).toBe(302);
    expect(res.headers.get('location')).toBe('/login');
  });

  it('answers unknown API routes with a JSON 404', async () => {
    const res = await server.client().get('/api/no-such-thing');
    expect(res.status).toBe(404);
    expect(res.body.error.code).toBe('not_found');
  });
});

describe('when the read model falls behind', () => {
  it('answers a saved registration with 503 busy, not a 500, and the account exists', async () => {
    const lagging = await startTestServer();
    try {
      await lagging.runner.stop();
      const input = account();
      const res = await lagging.client().post('/api/auth/register', input);
      expect(res.status).toBe(503);
      expect(res.body.error.code).toBe('busy');
      // The write was durable: the mobile number is taken.
      expect((await lagging.client().post('/api/auth/register', input)).status).toBe(409);
    } finally {
      await lagging.close();
    }
  }, 30_000);
});

describe('sessions', () => {
  it('marks the cookie Secure behind a TLS proxy when the proxy is trusted', async () => {
    const trusting = await startTestServer({ TRUST_PROXY: 'true' });
    try {
      const res = await trusting.client().request('POST', '/api/auth/register', account(), {
        'x-forwarded-proto': 'https',
        // Behind the TLS proxy the browser's origin is the https one.
        origin: trusting.url.replace('http:', 'https:'),
      });
      expect(res.status).toBe(201);
      expect(res.headers.getSetCookie()[0]).toMatch(/Secure/);
    } finally {
      await trusting.close();
    }
  });
});
