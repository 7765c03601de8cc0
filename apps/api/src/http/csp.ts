import { randomBytes } from 'node:crypto';
import type { Context } from 'hono';
import { createMiddleware } from 'hono/factory';
import { secureHeaders } from 'hono/secure-headers';
import type { Config } from '../config.ts';
import type { AppEnv } from '../deps.ts';
import { isHttps } from '../auth/sessions.ts';
import { nodeResponse } from './request.ts';

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

const HSTS = 'max-age=31536000; includeSubDomains';

/**
 * The headers of a JSON answer under /api: what protects an API response (OWASP REST Security
 * cheat sheet: nothing may be framed, sniffed or read cross-origin, no referrer) and none of the
 * document-only ones. Fixed, so a hot read pays five header sets, not a dozen.
 */
const API_HEADERS: ReadonlyArray<readonly [string, string]> = [
  ['Content-Security-Policy', "default-src 'none'; frame-ancestors 'none'"],
  ['X-Content-Type-Options', 'nosniff'],
  ['Cross-Origin-Resource-Policy', 'same-origin'],
  ['X-Frame-Options', 'DENY'],
  ['Referrer-Policy', 'no-referrer'],
];

/**
 * The API set, before the route: on Node's response when served by Node, so it goes out with
 * whatever the app answers (errors included) and Hono's answer keeps its plain headers (see
 * nodeResponse). False when it could not: then applyApiHeaders sets it on the answer after the route.
 */
export function presetApiHeaders(c: Context<AppEnv>): boolean {
  const outgoing = nodeResponse(c);
  if (!outgoing) return false;
  for (const [name, value] of API_HEADERS) outgoing.setHeader(name, value);
  if (isHttps(c)) outgoing.setHeader('Strict-Transport-Security', HSTS);
  return true;
}

/**
 * The API set on the answer itself, after the route; on the response's own headers, never through
 * c.header(): after the handler that rebuilds the response around its body as a stream.
 */
export function applyApiHeaders(c: Context<AppEnv>): void {
  const headers = c.res.headers;
  for (const [name, value] of API_HEADERS) headers.set(name, value);
  if (isHttps(c)) headers.set('Strict-Transport-Security', HSTS);
}

/** The browser set for everything outside /api: Hono's secureHeaders and the app's CSP; HSTS over TLS. */
export const documentPolicies = (config: Pick<Config, 'objectStorage' | 's3'>) => {
  const policy = contentSecurityPolicy(config);
  // HSTS is set below, only over TLS.
  const documentHeaders = secureHeaders({ crossOriginResourcePolicy: 'same-origin', strictTransportSecurity: false });
  return createMiddleware<AppEnv>(async (c, next) =>
    documentHeaders(c, async () => {
      await next();
      const headers = c.res.headers;
      // The web app's index.html sets its own, with the nonce of that response.
      if (!headers.has('Content-Security-Policy')) headers.set('Content-Security-Policy', policy);
      if (isHttps(c)) headers.set('Strict-Transport-Security', HSTS);
    }),
  );
};

/** index.html with a fresh nonce in its `csp-nonce` meta tag, and the policy naming that nonce. */
export function pageWithNonce(html: string, config: Pick<Config, 'objectStorage' | 's3'>): { html: string; policy: string } {
  const nonce = randomBytes(16).toString('base64');
  return {
    html: html.replace('<head>', `<head>\n    <meta name="csp-nonce" content="${nonce}" />`),
    policy: contentSecurityPolicy(config, nonce),
  };
}
