import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTaskAs, uploadedImage } from '../tasks/testing.ts';
import { type TestServer, startTestServer } from '../testing/server.ts';

let server: TestServer;
let split: TestServer;

beforeAll(async () => {
  server = await startTestServer();
  split = await startTestServer({ ALLOWED_ORIGINS: 'https://app.kamai.in, https://admin.kamai.in' });
});
afterAll(async () => {
  await server?.close();
  await split?.close();
});

async function submission() {
  const admin = await server.signUp({ roles: ['admin'] });
  const task = await createTaskAs(admin);
  const user = await server.signUp();
  const res = await user.post(`/api/tasks/${task.id}/submit-proof`, { proofImageUrl: await uploadedImage(server, user), proofDescription: 'Done' });
  expect(res.status).toBe(201);
  return (res.body.submissionId ?? res.body.id) as string;
}

describe('cross-site requests are refused and change nothing', () => {
  it('a proof approval posted from another site, or a same-site one, with a reviewer cookie is 403', async () => {
    const reviewer = await server.signUp({ roles: ['reviewer'] });
    const id = await submission();
    const head = await server.store.headPosition();
    const path = `/api/admin/submissions/${id}/approve`;
    const attempts: Record<string, string>[] = [
      { origin: 'https://evil.example' },
      // A same-site origin (another port or subdomain of the same host): SameSite=Lax sends the cookie.
      { origin: server.url.replace('127.0.0.1', 'localhost') },
      { origin: `${server.url.replace(/:\d+$/, '')}:1` },
      { origin: 'null' },
      // A form or text/plain post without an Origin header but from a sibling site.
      { origin: '', 'sec-fetch-site': 'same-site', 'content-type': 'text/plain' },
      { origin: '', 'sec-fetch-site': 'cross-site' },
      // No sign of where it came from at all.
      { origin: '' },
    ];
    for (const headers of attempts) {
      const res = await reviewer.request('POST', path, 'x', headers);
      expect(res.status, JSON.stringify(headers)).toBe(403);
      expect(res.body.error.code).toBe('cross_site_request');
    }
    expect(await server.store.headPosition()).toBe(head);
    expect((await reviewer.get('/api/admin/submissions?status=submitted')).body.map((s: { id: string }) => s.id)).toContain(id);

    // A withheld Origin (`null`) from another site is refused as well.
    expect((await reviewer.request('POST', path, 'x', { origin: 'null', 'sec-fetch-site': 'cross-site' })).status).toBe(403);
    // From the app itself it goes through: its Origin, or Sec-Fetch-Site: same-origin (with Origin
    // `null` too: the app's own form post under its no-referrer policy).
    expect((await reviewer.request('POST', path, undefined, { origin: 'null', 'sec-fetch-site': 'same-origin' })).status).toBe(200);
    const other = await submission();
    expect((await reviewer.request('POST', `/api/admin/submissions/${other}/approve`, undefined, { origin: '', 'sec-fetch-site': 'same-origin' })).status).toBe(200);
  });

  it('cannot sign a user out from another site', async () => {
    const user = await server.signUp();
    const forced = await user.request('POST', '/api/auth/logout', undefined, { origin: 'https://evil.example' });
    expect(forced.status).toBe(403);
    expect((await user.get('/api/auth/user')).status).toBe(200);
  });

  it('reads stay open to any origin (they change nothing)', async () => {
    const user = await server.signUp();
    expect((await user.request('GET', '/api/auth/user', undefined, { origin: 'https://evil.example' })).status).toBe(200);
  });

  it('behind a trusted proxy that rewrites Host, the forwarded host and scheme are the app\'s origin', async () => {
    const proxied = await startTestServer({ TRUSTED_PROXIES: '1' });
    try {
      const headers = { 'x-forwarded-host': 'kamai.in', 'x-forwarded-proto': 'https' };
      const body = { mobile: '9812345671', password: 'wrongpass1' };
      expect((await proxied.client().request('POST', '/api/auth/login', body, { ...headers, origin: 'https://kamai.in' })).status).toBe(401);
      expect((await proxied.client().request('POST', '/api/auth/login', body, { ...headers, origin: 'http://kamai.in' })).status).toBe(403);
      // Without trusted proxies the header is the client's own and counts for nothing.
      expect((await server.client().request('POST', '/api/auth/login', body, { ...headers, origin: 'https://kamai.in' })).status).toBe(403);
    } finally {
      await proxied.close();
    }
  });

  it('accepts the origins a split deployment configures, and only those', async () => {
    const anon = split.client();
    const body = { mobile: '9812345670', password: 'wrongpass1' };
    expect((await anon.request('POST', '/api/auth/login', body, { origin: 'https://app.kamai.in' })).status).toBe(401);
    expect((await anon.request('POST', '/api/auth/login', body, { origin: 'https://ADMIN.kamai.in' })).status).toBe(401);
    const evil = await anon.request('POST', '/api/auth/login', body, { origin: 'https://kamai.in.evil.example' });
    expect(evil.status).toBe(403);
    expect(evil.body.error.code).toBe('cross_site_request');
  });
});
