import { randomBytes } from 'node:crypto';
import { createMiddleware } from 'hono/factory';
import type { Config } from '../config.ts';
import type { AppEnv } from '../deps.ts';
import { isHttps } from '../auth/sessions.ts';

/**
 * The Content-Security-Policy of the web app: scripts and styles only from the app's own files (the
 * built index.html has no inline script or style), images from the app, its object URLs and, when
 * uploads go to S3, the bucket's public endpoint, which uploads are also PUT to.
 */
export function contentSecurityPolicy(config: Pick<Config, 'objectStorage' | 's3'>, nonce?: string): string {
  const s3 = config.objectStorage === 's3' ? (config.s3.publicEndpoint ?? config.s3.endpoint) : undefined;
  const s3Origin = s3 ? new URL(s3).origin : null;
  const directives: Record<string, string[]> = {
    'default-src': ["'self'"],
    'script-src': ["'self'"],
    // A style element needs the page's nonce (see the web app's cspNonce.ts); never 'unsafe-inline'.
    'style-src': ["'self'", ...(nonce ? [`'nonce-${nonce}'`] : [])],
    'img-src': ["'self'", 'data:', 'blob:', ...(s3Origin ? [s3Origin] : [])],
    'connect-src': ["'self'", ...(s3Origin ? [s3Origin] : [])],
    'font-src': ["'self'"],
    'object-src': ["'none'"],
    'base-uri': ["'self'"],
    'form-action': ["'self'"],
    'frame-ancestors': ["'none'"],
  };
  return Object.entries(directives)
    .map(([name, values]) => `${name} ${values.join(' ')}`)
    .join('; ');
}

/** CSP on every answer, and HSTS only when the request came over TLS (directly or via a trusted proxy). */
export const browserPolicies = (config: Pick<Config, 'objectStorage' | 's3'>) => {
  const policy = contentSecurityPolicy(config);
  return createMiddleware<AppEnv>(async (c, next) => {
    await next();
    // Set on the response's own headers, never through c.header(): after the handler that rebuilds
    // the response around its body as a stream, and @hono/node-server then loses its fast path
    // for a ready body (a third of a hot read's CPU went to the stream).
    const headers = c.res.headers;
    // The web app's index.html sets its own, with the nonce of that response.
    if (!headers.has('Content-Security-Policy')) headers.set('Content-Security-Policy', policy);
    if (isHttps(c)) headers.set('Strict-Transport-Security', 'max-age=31536000; includeSubDomains');
  });
};

/** index.html with a fresh nonce in its `csp-nonce` meta tag, and the policy naming that nonce. */
export function pageWithNonce(html: string, config: Pick<Config, 'objectStorage' | 's3'>): { html: string; policy: string } {
  const nonce = randomBytes(16).toString('base64');
  return {
    html: html.replace('<head>', `<head>\n    <meta name="csp-nonce" content="${nonce}" />`),
    policy: contentSecurityPolicy(config, nonce),
  };
}
