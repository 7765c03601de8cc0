import { randomUUID } from 'node:crypto';
import { PRIVACY_POLICY_VERSION, streams } from '@kamai/contracts';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { UPI, adjust } from '../finance/testing.ts';
import { writePreConsentPerson } from '../testing/pre-consent.ts';
import { type TestClient, type TestServer, freshMobile, startTestServer } from '../testing/server.ts';

let server: TestServer;
beforeAll(async () => {
  server = await startTestServer();
});
afterAll(async () => {
  await server?.close();
});

/** Someone registered by the code before consent was asked, signed in with their password. */
async function preConsentPerson(): Promise<TestClient & { mobile: string; userId: string }> {
  const mobile = freshMobile();
  const { userId, position } = await writePreConsentPerson(server.store, server.personalData, { mobile, password: 'secret123', firstName: 'Old', lastName: 'Member' });
  await server.runner.waitFor(position);
  const client = server.client();
  const login = await client.post('/api/auth/login', { mobile, password: 'secret123' });
  expect(login.status, JSON.stringify(login.body)).toBe(200);
  expect(login.body).toMatchObject({ consentRequired: true });
  return Object.assign(client, { mobile, userId });
}

describe('consent asked of people registered before it was', () => {
  it('refuses their withdrawal, KYC and tasks with 403 consent_required until they agree; then they withdraw', async () => {
    const finance = await server.signUp({ roles: ['finance'] });
    const person = await preConsentPerson();
    await adjust(finance, person.mobile, 500);

    expect((await person.get('/api/auth/user')).body).toMatchObject({ consentRequired: true });
    const refused = await person.post('/api/withdrawals', { amount: 200, upiId: UPI });
    expect(refused.status).toBe(403);
    expect(refused.body).toMatchObject({ error: { code: 'consent_required', key: 'privacy.consentNeeded' } });
    for (const path of ['/api/kyc/documents', '/api/kyc/complete', `/api/tasks/${randomUUID()}/start`, `/api/tasks/${randomUUID()}/submit-proof`]) {
      expect((await person.post(path, {})).body, path).toMatchObject({ error: { code: 'consent_required' } });
    }

    // Anything but `accepted: true` is refused, naming the field, and records nothing.
    const notAccepted = await person.post('/api/profile/consent', { accepted: false });
    expect(notAccepted.status).toBe(400);
    expect(notAccepted.body).toMatchObject({ error: { code: 'validation_failed', fields: { accepted: expect.any(String) } } });
    expect((await person.get('/api/auth/user')).body).toMatchObject({ consentRequired: true });

    const agreed = await person.post('/api/profile/consent', { accepted: true });
    expect(agreed.status).toBe(200);
    expect(agreed.body).toMatchObject({ id: person.userId, consentRequired: false });
    expect((await person.get('/api/auth/user')).body).toMatchObject({ consentRequired: false });
    const events = await server.store.readStream(streams.user(person.userId));
    expect(events.filter((event) => event.type === 'ConsentGiven').map((event) => event.data)).toEqual([
      { policyVersion: PRIVACY_POLICY_VERSION, givenAt: expect.any(String) },
    ]);
    // Agreeing again (a double tap) records nothing more.
    expect((await person.post('/api/profile/consent', { accepted: true })).status).toBe(200);
    expect((await server.store.readStream(streams.user(person.userId))).filter((event) => event.type === 'ConsentGiven')).toHaveLength(1);

    const withdrawal = await person.post('/api/withdrawals', { amount: 200, upiId: UPI });
    expect(withdrawal.status, JSON.stringify(withdrawal.body)).toBe(201);
  });

  it('never asks someone who agreed at registration', async () => {
    const user = await server.signUp();
    expect((await user.get('/api/auth/user')).body).toMatchObject({ consentRequired: false });
    // Past the consent check: the unknown task is what refuses it.
    expect((await user.post(`/api/tasks/${randomUUID()}/start`)).status).toBe(404);
  });
});
