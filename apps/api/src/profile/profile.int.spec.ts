import { DEFAULT_BANK_FILE_SETTINGS, DEFAULT_CANNED_REASONS, DEFAULT_LIMITS, DEFAULT_TAX_RULES, limitsBody, taxRuleBody } from '@kamai/contracts';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type TestServer, startTestServer } from '../testing/server.ts';

let server: TestServer;

beforeAll(async () => {
  server = await startTestServer();
});
afterAll(async () => server?.close());

describe('PUT /api/profile over real HTTP', () => {
  it('updates only the fields sent and answers the updated user body', async () => {
    const user = await server.signUp({ firstName: 'Asha', lastName: 'Rao' });
    const res = await user.put('/api/profile', { firstName: ' Ashwini ', email: 'asha@example.com', notificationsEnabled: false });
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({
      id: user.userId,
      username: 'Ashwini Rao',
      firstName: 'Ashwini',
      lastName: 'Rao',
      email: 'asha@example.com',
      notificationsEnabled: false,
      totalRupees: '0.00',
      pendingPayout: '0.00',
    });
    expect((await user.get('/api/auth/user')).body).toEqual(res.body);
    // Clearing the e-mail with an empty string (or null).
    expect((await user.put('/api/profile', { email: '' })).body.email).toBeNull();
    expect((await user.put('/api/profile', { email: 'a@b.in' })).body.email).toBe('a@b.in');
    expect((await user.put('/api/profile', { email: null })).body.email).toBeNull();
  });

  it('stores the language on the user, and the user body carries it', async () => {
    const user = await server.signUp();
    expect((await user.get('/api/auth/user')).body.language).toBeUndefined();
    const res = await user.put('/api/profile', { language: 'hi' });
    expect(res.status).toBe(200);
    expect(res.body.language).toBe('hi');
    expect((await user.get('/api/auth/user')).body.language).toBe('hi');
    expect((await user.put('/api/profile', { language: 'en' })).body.language).toBe('en');
    const bad = await user.put('/api/profile', { language: 'fr' });
    expect(bad.status).toBe(400);
    expect(bad.body.error.fields).toEqual({ language: 'language must be "en" or "hi"' });
    expect((await user.get('/api/auth/user')).body.language).toBe('en');
  });

  it('answers the unchanged user when nothing changed, and writes no event', async () => {
    const user = await server.signUp({ firstName: 'Ravi', lastName: 'Kumar' });
    const before = (await user.get('/api/auth/user')).body;
    const events = (await server.store.readStream(`user-${user.userId}`)).length;
    for (const body of [{}, { firstName: 'Ravi' }, { firstName: 'Ravi', lastName: 'Kumar', notificationsEnabled: true }]) {
      const res = await user.put('/api/profile', body);
      expect(res.status).toBe(200);
      expect(res.body).toEqual(before);
    }
    expect((await server.store.readStream(`user-${user.userId}`)).length).toBe(events);
  });

  it('refuses bad input with the spec messages on each field', async () => {
    const user = await server.signUp();
    const cases: [Record<string, unknown>, Record<string, string>][] = [
      [{ firstName: 'A' }, { firstName: 'First name must be at least 2 characters' }],
      [{ lastName: ' B ' }, { lastName: 'Last name must be at least 2 characters' }],
      [{ email: 'not-an-email' }, { email: 'Invalid email address' }],
      [{ email: 42 }, { email: 'Invalid email address' }],
      [{ notificationsEnabled: 'yes' }, { notificationsEnabled: 'notificationsEnabled must be true or false' }],
      [{ firstName: 'x'.repeat(61) }, { firstName: 'First name must be at most 60 characters' }],
    ];
    for (const [body, fields] of cases) {
      const res = await user.put('/api/profile', body);
      expect(res.status, JSON.stringify(body)).toBe(400);
      expect(res.body.error.code).toBe('validation_failed');
      expect(res.body.error.fields).toEqual(fields);
    }
    expect((await user.request('PUT', '/api/profile', 'nope', { 'content-type': 'application/json' })).status).toBe(400);
    expect((await server.client().put('/api/profile', { firstName: 'Ravi' })).status).toBe(401);
  });

  it('ignores fields that are not part of the update shape', async () => {
    const user = await server.signUp();
    const res = await user.put('/api/profile', { isAdmin: true, roles: ['admin'], totalRupees: '1000000.00', mobile: '9999999999' });
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({ isAdmin: false, roles: [], totalRupees: '0.00', mobile: user.mobile });
  });
});

describe('settings over real HTTP', () => {
  it('serves the defaults to anyone, signed in or not', async () => {
    const res = await server.client().get('/api/settings');
    expect(res.status).toBe(200);
    expect(res.body).toEqual({ supportEmail: 'support@kamai.in', homepageUrl: 'https://kamai.in', updatedAt: null, ...limitsBody(DEFAULT_LIMITS), cannedReasons: DEFAULT_CANNED_REASONS, taxRules: DEFAULT_TAX_RULES.map(taxRuleBody), taxDeductorTan: null, taxDeductorName: null, taxDeductorAddress: null, ...DEFAULT_BANK_FILE_SETTINGS });
  });

  it('lets an admin, and only an admin, change them', async () => {
    const admin = await server.signUp({ roles: ['admin'] });
    const finance = await server.signUp({ roles: ['finance'] });
    const user = await server.signUp();
    expect((await server.client().put('/api/admin/settings', { supportEmail: 'x@kamai.in' })).status).toBe(401);
    expect((await user.put('/api/admin/settings', { supportEmail: 'x@kamai.in' })).status).toBe(403);
    expect((await finance.put('/api/admin/settings', { supportEmail: 'x@kamai.in' })).status).toBe(403);

    const bad = await admin.put('/api/admin/settings', { supportEmail: 'nope', homepageUrl: 'javascript:alert(1)' });
    expect(bad.status).toBe(400);
    expect(bad.body.error.fields).toEqual({ supportEmail: 'Invalid email address', homepageUrl: 'Homepage must be an http or https URL' });

    const res = await admin.put('/api/admin/settings', { supportEmail: ' help@kamai.example ' });
    expect(res.status).toBe(200);
    expect(res.body).toEqual({ supportEmail: 'help@kamai.example', homepageUrl: 'https://kamai.in', updatedAt: expect.any(String), ...limitsBody(DEFAULT_LIMITS), cannedReasons: DEFAULT_CANNED_REASONS, taxRules: DEFAULT_TAX_RULES.map(taxRuleBody), taxDeductorTan: null, taxDeductorName: null, taxDeductorAddress: null, ...DEFAULT_BANK_FILE_SETTINGS });
    expect((await server.client().get('/api/settings')).body).toEqual(res.body);
    const both = await admin.put('/api/admin/settings', { homepageUrl: 'https://kamai.example/home' });
    expect(both.body).toMatchObject({ supportEmail: 'help@kamai.example', homepageUrl: 'https://kamai.example/home' });
  });
});
