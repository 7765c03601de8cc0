import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { request } from 'node:http';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { brotliDecompressSync, gunzipSync } from 'node:zlib';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type ApiProcess, type TestServer, startApiProcess, startTestServer } from '../testing/index.ts';

/** A raw GET, so the test sees the bytes on the wire (fetch would decompress them). */
function rawGet(url: string, headers: Record<string, string> = {}) {
  return new Promise<{ status: number; headers: Record<string, string | string[] | undefined>; body: Buffer }>((resolve, reject) => {
    request(url, { headers }, (res) => {
      const chunks: Buffer[] = [];
      res.on('data', (c: Buffer) => chunks.push(c));
      res.on('end', () => resolve({ status: res.statusCode ?? 0, headers: res.headers, body: Buffer.concat(chunks) }));
    })
      .on('error', reject)
      .end();
  });
}

describe('request ids, metrics and compression over HTTP', () => {
  let server: TestServer;
  let web: string;

  beforeAll(async () => {
    // A small built web app of our own, so the static part is tested without a web build.
    web = mkdtempSync(join(tmpdir(), 'kamai-web-'));
    mkdirSync(join(web, 'assets'));
    writeFileSync(join(web, 'index.html'), `<!doctype html><html><body>${'<p>Kamai</p>'.repeat(200)}</body></html>`);
    writeFileSync(join(web, 'assets', 'app-abc123.js'), `export const rows = ${JSON.stringify(Array.from({ length: 300 }, (_, i) => ({ i })))};`);
    server = await startTestServer({ WEB_DIST: web });
  });
  afterAll(async () => {
    await server.close();
    rmSync(web, { recursive: true, force: true });
  });

  it('echoes a given X-Request-Id and makes one when none or a bad one is given', async () => {
    const client = server.client();
    const given = await client.request('GET', '/api/health', undefined, { 'x-request-id': 'abc-123.x' });
    expect(given.headers.get('x-request-id')).toBe('abc-123.x');
    const made = await client.get('/api/health');
    expect(made.headers.get('x-request-id')).toMatch(/^[0-9a-f-]{36}$/);
    const bad = await client.request('GET', '/api/health', undefined, { 'x-request-id': 'no spaces\tor tabs' });
    expect(bad.headers.get('x-request-id')).toMatch(/^[0-9a-f-]{36}$/);
    const notFound = await client.get('/api/nothing-here');
    expect(notFound.status).toBe(404);
    expect(notFound.headers.get('x-request-id')).toBeTruthy();
  });

  it('serves Prometheus metrics: HTTP status by route, command latency, append sizes, projection lag', async () => {
    const user = await server.signUp();
    await user.put('/api/profile', { firstName: 'Metric' });
    await user.get('/api/auth/user');
    const res = await rawGet(`${server.url}/metrics`);
    expect(res.status).toBe(200);
    expect(String(res.headers['content-type'])).toMatch(/^text\/plain/);
    const text = res.body.toString();
    expect(text).toMatch(/kamai_http_requests_total\{method="GET",route="\/api\/auth\/user",status="200"\} [1-9]/);
    expect(text).toMatch(/kamai_http_requests_total\{method="POST",route="\/api\/auth\/register",status="20\d"\} [1-9]/);
    expect(text).toMatch(/kamai_command_duration_seconds_count\{command="PUT \/api\/profile"\} [1-9]/);
    expect(text).toMatch(/kamai_append_batch_events_count [1-9]/);
    expect(text).toMatch(/kamai_projection_lag_events\{projection="[\w-]+"\} 0/);
    expect(text).toMatch(/kamai_projection_lag_ms\{projection="[\w-]+"\} 0/);
    // Path ids are folded into the route template, never a label of their own.
    expect(text).not.toMatch(/route="[^"]*[0-9a-f]{8}-[0-9a-f]{4}/);
  });

  it('compresses JSON, HTML and scripts with brotli or gzip as the client accepts, and never small bodies', async () => {
    const index = await rawGet(`${server.url}/some/client/route`, { 'accept-encoding': 'gzip, deflate, br' });
    expect(index.status).toBe(200);
    expect(index.headers['content-encoding']).toBe('br');
    expect(String(index.headers.vary)).toMatch(/accept-encoding/i);
    expect(brotliDecompressSync(index.body).toString()).toContain('<p>Kamai</p>');

    const gz = await rawGet(`${server.url}/assets/app-abc123.js`, { 'accept-encoding': 'gzip' });
    expect(gz.headers['content-encoding']).toBe('gzip');
    expect(gz.headers['cache-control']).toBe('public, max-age=31536000, immutable');
    expect(gunzipSync(gz.body).toString()).toMatch(/^export const rows = \[/);
    expect(Number(gz.headers['content-length'])).toBe(gz.body.length);
    // Served again from the cache of compressed immutable assets: the same bytes.
    const again = await rawGet(`${server.url}/assets/app-abc123.js`, { 'accept-encoding': 'gzip' });
    expect(again.body.equals(gz.body)).toBe(true);

    const plain = await rawGet(`${server.url}/assets/app-abc123.js`);
    expect(plain.headers['content-encoding']).toBeUndefined();
    expect(plain.body.toString()).toMatch(/^export const rows = \[/);
    const refused = await rawGet(`${server.url}/assets/app-abc123.js`, { 'accept-encoding': 'br;q=0, gzip;q=0' });
    expect(refused.headers['content-encoding']).toBeUndefined();

    const metrics = await rawGet(`${server.url}/metrics`, { 'accept-encoding': 'gzip' });
    expect(metrics.headers['content-encoding']).toBe('gzip');
    expect(gunzipSync(metrics.body).toString()).toContain('kamai_http_requests_total');

    const small = await rawGet(`${server.url}/api/auth/user`, { 'accept-encoding': 'br' });
    expect(small.headers['content-encoding']).toBeUndefined();
    expect(JSON.parse(small.body.toString()).error.code).toBe('unauthenticated');
  });
});

describe('structured logs', () => {
  let dir: string;
  let api: ApiProcess;
  beforeAll(async () => {
    dir = mkdtempSync(join(tmpdir(), 'kamai-logs-'));
    api = await startApiProcess(dir, { LOG_LEVEL: 'info' });
  });
  afterAll(async () => {
    await api.stop();
    rmSync(dir, { recursive: true, force: true });
  });

  it('writes one JSON line per request with its id, and never the cookie or the password', async () => {
    const password = 'a-secret-password-1';
    const res = await fetch(`${api.url}/api/auth/register`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', 'x-request-id': 'log-test-1', origin: api.url },
      body: JSON.stringify({ mobile: '9123456780', password, firstName: 'Log', lastName: 'Test', consent: true }),
    });
    expect(res.status).toBe(201);
    // The session and the device cookie, as a browser would send them back.
    const cookie = res.headers.getSetCookie().map((c) => c.split(';')[0]!).join('; ');
    const me = await fetch(`${api.url}/api/auth/user?probe=1`, { headers: { cookie, 'x-request-id': 'log-test-2' } });
    expect(me.status).toBe(200);
    // A KYC image's address (owner and object id) is personal data: never in the log, even when refused.
    const kycPath = '/objects/kyc/4f6c1a52-0000-4000-8000-000000000000/9d1e7c3b-0000-4000-8000-000000000000';
    await fetch(`${api.url}${kycPath}`, { headers: { cookie, 'x-request-id': 'log-test-3' } });
    // A mobile number (any run of ten digits or more) in a path is masked, whatever the route.
    await fetch(`${api.url}/api/admin/ledger/users/9988776655/statement`, { headers: { cookie, 'x-request-id': 'log-test-4' } });
    await fetch(`${api.url}/api/no-such-route/+919988776655`, { headers: { cookie, 'x-request-id': 'log-test-5' } });
    // The process writes its log line once the answer is sent: wait until it is there.
    await expect.poll(() => api.output().includes('"reqId":"log-test-5"')).toBe(true);
    const lines = api
      .output()
      .split('\n')
      .filter((line) => line.startsWith('{'))
      .map((line) => JSON.parse(line) as Record<string, unknown>);
    const register = lines.find((l) => l.reqId === 'log-test-1');
    expect(register).toMatchObject({ method: 'POST', route: '/api/auth/register', path: '/api/auth/register', status: 201, msg: 'request' });
    expect(typeof register?.ms).toBe('number');
    expect(typeof register?.time).toBe('number');
    expect(lines.find((l) => l.reqId === 'log-test-2')).toMatchObject({ route: '/api/auth/user', path: '/api/auth/user', status: 200 });
    const all = api.output();
    expect(all).not.toContain(password);
    expect(all).not.toContain(cookie.split('=')[1]!);
    expect(all).not.toContain('probe=1');
    expect(lines.find((l) => l.reqId === 'log-test-3')).toMatchObject({ path: '/objects/kyc/[redacted]' });
    expect(all).not.toContain('9d1e7c3b-0000-4000-8000-000000000000');
    expect(lines.find((l) => l.reqId === 'log-test-4')).toMatchObject({ path: '/api/admin/ledger/users/[redacted]/statement', status: 403 });
    expect(lines.find((l) => l.reqId === 'log-test-5')).toMatchObject({ path: '/api/no-such-route/+[redacted]' });
    expect(all).not.toContain('9988776655');
  });
});

describe('/metrics behind METRICS_TOKEN', () => {
  it('answers 401 without the bearer token or with a wrong one, and the metrics with it', async () => {
    const token = 'metrics-token-0123456789abcdef';
    const server = await startTestServer({ METRICS_TOKEN: token });
    try {
      const without = await rawGet(`${server.url}/metrics`);
      expect(without.status).toBe(401);
      expect(JSON.parse(without.body.toString()).error.code).toBe('unauthenticated');
      expect((await rawGet(`${server.url}/metrics`, { authorization: 'Bearer wrong-token-0123456789abc' })).status).toBe(401);
      const allowed = await rawGet(`${server.url}/metrics`, { authorization: `Bearer ${token}` });
      expect(allowed.status).toBe(200);
      expect(allowed.body.toString()).toContain('kamai_http_requests_total');
    } finally {
      await server.close();
    }
  });
});
