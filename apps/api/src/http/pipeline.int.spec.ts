import { request } from 'node:http';
import { brotliDecompressSync } from 'node:zlib';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type TestServer, startTestServer } from '../testing/server.ts';

let server: TestServer;
beforeAll(async () => {
  server = await startTestServer();
});
afterAll(async () => server?.close());

/** A raw request, so the test sees the bytes and headers on the wire (fetch would decompress). */
function raw(method: string, path: string, headers: Record<string, string> = {}, body?: string) {
  return new Promise<{ status: number; headers: Record<string, string | string[] | undefined>; body: Buffer }>((resolve, reject) => {
    const req = request(`${server.url}${path}`, { method, headers }, (res) => {
      const chunks: Buffer[] = [];
      res.on('data', (chunk: Buffer) => chunks.push(chunk));
      res.on('end', () => resolve({ status: res.statusCode ?? 0, headers: res.headers, body: Buffer.concat(chunks) }));
    });
    req.on('error', reject);
    if (headers['transfer-encoding'] === 'chunked' && body !== undefined) {
      // Two chunks and no Content-Length: the server learns the size only by reading.
      req.write(body.slice(0, body.length >> 1));
      req.end(body.slice(body.length >> 1));
    } else {
      req.end(body);
    }
  });
}

const API_HEADERS = {
  'content-security-policy': "default-src 'none'; frame-ancestors 'none'",
  'x-content-type-options': 'nosniff',
  'cross-origin-resource-policy': 'same-origin',
  'x-frame-options': 'DENY',
  'referrer-policy': 'no-referrer',
};

describe('every API answer goes through the one request pipeline', () => {
  it('a large answer is compressed and varies by Accept-Encoding; a small one goes as it is; both carry the API headers', async () => {
    const user = await server.signUp();
    // Six more sign-ins: the list of signed-in devices grows past the compression threshold.
    for (let i = 0; i < 6; i++) expect((await server.client().post('/api/auth/login', { mobile: user.mobile, password: user.password })).status).toBe(200);
    const cookie = `kamai_session=${(user as unknown as { cookies: Map<string, string> }).cookies.get('kamai_session')}`;

    const large = await raw('GET', '/api/auth/sessions', { cookie, 'accept-encoding': 'br' });
    expect(large.status).toBe(200);
    expect(large.headers['content-encoding']).toBe('br');
    expect(String(large.headers.vary)).toMatch(/accept-encoding/i);
    expect(Number(large.headers['content-length'])).toBe(large.body.length);
    expect(JSON.parse(brotliDecompressSync(large.body).toString())).toHaveLength(7);
    expect(large.headers).toMatchObject(API_HEADERS);
    expect(large.headers['x-request-id']).toMatch(/^[0-9a-f-]{36}$/);

    const small = await raw('GET', '/api/auth/user', { cookie, 'accept-encoding': 'br' });
    expect(small.status).toBe(200);
    expect(small.headers['content-encoding']).toBeUndefined();
    // Never compressed at this size, whatever the client accepts: nothing varies.
    expect(small.headers.vary).toBeUndefined();
    expect(JSON.parse(small.body.toString()).mobile).toBe(user.mobile);
    // Exact values: a header set twice (by a step and again by the answer) would arrive joined.
    expect(small.headers).toMatchObject(API_HEADERS);
    expect(small.headers['x-request-id']).toMatch(/^[0-9a-f-]{36}$/);
  });

  it('a request refused before its route (cross-site, too large, malformed cookie) is answered with the API headers and changes nothing', async () => {
    const user = await server.signUp();
    const head = await server.store.headPosition();
    const cookie = `kamai_session=${(user as unknown as { cookies: Map<string, string> }).cookies.get('kamai_session')}`;
    const crossSite = await raw('POST', '/api/auth/logout', { cookie, origin: 'https://evil.example', 'x-request-id': 'refused-1' });
    expect(crossSite.status).toBe(403);
    expect(JSON.parse(crossSite.body.toString()).error.code).toBe('cross_site_request');
    expect(crossSite.headers).toMatchObject({ ...API_HEADERS, 'x-request-id': 'refused-1' });

    const tooLarge = await raw('PUT', '/api/profile', { cookie, origin: server.url, 'content-type': 'application/json' }, JSON.stringify({ firstName: 'x'.repeat(70_000) }));
    expect(tooLarge.status).toBe(413);
    expect(JSON.parse(tooLarge.body.toString()).error.code).toBe('payload_too_large');
    expect(tooLarge.headers).toMatchObject(API_HEADERS);
    const chunked = { cookie, origin: server.url, 'content-type': 'application/json', 'transfer-encoding': 'chunked' };
    const tooLargeChunked = await raw('PUT', '/api/profile', chunked, JSON.stringify({ firstName: 'x'.repeat(70_000) }));
    expect(tooLargeChunked.status).toBe(413);
    expect(JSON.parse(tooLargeChunked.body.toString()).error.code).toBe('payload_too_large');

    // A cookie that is no token at all is no session (and never an error).
    const garbled = await raw('GET', '/api/auth/user', { cookie: 'kamai_session=%%%; kamai_session=NOT-A-TOKEN' });
    expect(garbled.status).toBe(401);
    expect(garbled.headers).toMatchObject(API_HEADERS);

    expect(await server.store.headPosition()).toBe(head);
    // Still signed in: the refused sign-out did not happen.
    expect((await raw('GET', '/api/auth/user', { cookie })).status).toBe(200);
  });

  it('a body within the limit is read whether it declares its length or comes in chunks', async () => {
    const user = await server.signUp();
    const cookie = `kamai_session=${(user as unknown as { cookies: Map<string, string> }).cookies.get('kamai_session')}`;
    const headers = { cookie, origin: server.url, 'content-type': 'application/json' };
    expect((await raw('PUT', '/api/profile', headers, JSON.stringify({ firstName: 'Declared' }))).status).toBe(200);
    expect(JSON.parse((await raw('GET', '/api/auth/user', { cookie })).body.toString()).firstName).toBe('Declared');
    expect((await raw('PUT', '/api/profile', { ...headers, 'transfer-encoding': 'chunked' }, JSON.stringify({ firstName: 'Chunked' }))).status).toBe(200);
    expect(JSON.parse((await raw('GET', '/api/auth/user', { cookie })).body.toString()).firstName).toBe('Chunked');
  });

  it('the very same Cookie header stops signing in on the next request after a sign-out, and a new sign-in is seen at once', async () => {
    const user = await server.signUp();
    const cookie = `kamai_session=${(user as unknown as { cookies: Map<string, string> }).cookies.get('kamai_session')}`;
    // Answered from memory from the second request on.
    for (let i = 0; i < 3; i++) expect((await raw('GET', '/api/auth/user', { cookie })).status).toBe(200);
    expect((await raw('POST', '/api/auth/logout', { cookie, origin: server.url })).status).toBe(204);
    expect((await raw('GET', '/api/auth/user', { cookie })).status).toBe(401);
    const again = server.client();
    expect((await again.post('/api/auth/login', { mobile: user.mobile, password: user.password })).status).toBe(200);
    expect((await again.get('/api/auth/user')).body.mobile).toBe(user.mobile);
  });
});
