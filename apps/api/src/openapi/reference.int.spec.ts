import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type TestServer, startTestServer } from '../testing/server.ts';

let server: TestServer;
beforeAll(async () => {
  server = await startTestServer();
});
afterAll(async () => server?.close());

describe('GET /api/admin/reference', () => {
  it('shows staff the document in a viewer served from this origin, under a policy of its own with no inline script', async () => {
    const reviewer = await server.signUp({ roles: ['reviewer'] });
    const page = await reviewer.get<string>('/api/admin/reference');
    expect(page.status).toBe(200);
    expect(page.headers.get('content-type')).toContain('text/html');
    const policy = page.headers.get('content-security-policy') ?? '';
    expect(policy).toContain("script-src 'self'");
    expect(policy).toContain("connect-src 'self'");
    expect(policy).not.toMatch(/script-src[^;]*unsafe/);
    expect(policy).toContain("frame-ancestors 'none'");
    // Every script element either loads from this origin or is data the viewer reads (not run).
    const scripts = [...page.body.matchAll(/<script([^>]*)>([\s\S]*?)<\/script>/g)];
    expect(scripts.length).toBe(2);
    for (const [, attributes, content] of scripts) {
      expect(content!.trim()).toBe('');
      expect(attributes).toMatch(/src="\/api\/admin\/reference\/scalar\.js"|type="application\/json"/);
    }
    expect(page.body).toContain('data-url="/api/openapi.json"');
    const script = await reviewer.get<string>('/api/admin/reference/scalar.js');
    expect(script.status).toBe(200);
    expect(script.headers.get('content-type')).toContain('javascript');
    expect(script.body).toContain('api-reference');
  });

  it('is refused without sign-in and to users with no staff role', async () => {
    expect((await server.client().get('/api/admin/reference')).status).toBe(401);
    const user = await server.signUp();
    expect((await user.get('/api/admin/reference')).status).toBe(403);
    expect((await user.get('/api/admin/reference/scalar.js')).status).toBe(403);
  });
});
