import { describe, expect, it } from 'vitest';
import { loadConfig } from '../config.ts';
import { startTestServer } from '../testing/server.ts';
import { contentSecurityPolicy } from './csp.ts';

describe('browser policies', () => {
  it('allows images and upload PUTs from the S3 public endpoint only when uploads go to S3', () => {
    const disk = contentSecurityPolicy(loadConfig({}));
    expect(disk).toContain("img-src 'self' data: blob:;");
    const s3 = contentSecurityPolicy(
      loadConfig({ OBJECT_STORAGE: 's3', S3_ENDPOINT: 'http://minio:9000', S3_PUBLIC_ENDPOINT: 'https://files.kamai.in/bucket', S3_ACCESS_KEY_ID: 'k', S3_SECRET_ACCESS_KEY: 's' }),
    );
    expect(s3).toContain("img-src 'self' data: blob: https://files.kamai.in;");
    expect(s3).toContain("connect-src 'self' https://files.kamai.in;");
    expect(s3).toContain("frame-ancestors 'none'");
  });

  it('sends HSTS only behind TLS (via a trusted proxy), a locked-down CSP on API answers and the app CSP on the rest', async () => {
    const server = await startTestServer({ TRUSTED_PROXIES: '1' });
    try {
      const plain = await server.client().get('/api/health');
      expect(plain.headers.get('strict-transport-security')).toBeNull();
      expect(plain.headers.get('content-security-policy')).toBe("default-src 'none'; frame-ancestors 'none'");
      expect(plain.headers.get('x-content-type-options')).toBe('nosniff');
      expect(plain.headers.get('x-frame-options')).toBe('DENY');
      expect(plain.headers.get('cross-origin-resource-policy')).toBe('same-origin');
      expect(plain.headers.get('referrer-policy')).toBe('no-referrer');
      // Errors too: the headers are set after the error handler has made the answer.
      const missing = await server.client().get('/api/no-such-route');
      expect(missing.status).toBe(404);
      expect(missing.headers.get('content-security-policy')).toBe("default-src 'none'; frame-ancestors 'none'");
      const tls = await server.client().request('GET', '/api/health', undefined, { 'x-forwarded-proto': 'https' });
      expect(tls.headers.get('strict-transport-security')).toBe('max-age=31536000; includeSubDomains');
      // Outside /api (an object, a page): the browser set, with the app's CSP.
      const page = await server.client().get('/objects/none');
      expect(page.headers.get('content-security-policy')).toContain("script-src 'self'");
      expect(page.headers.get('cross-origin-opener-policy')).toBe('same-origin');
      expect(page.headers.get('x-content-type-options')).toBe('nosniff');
      const pageTls = await server.client().request('GET', '/objects/none', undefined, { 'x-forwarded-proto': 'https' });
      expect(pageTls.headers.get('strict-transport-security')).toBe('max-age=31536000; includeSubDomains');
    } finally {
      await server.close();
    }
  });
});
