import { msg } from '@kamai/contracts';
import type { Context } from 'hono';
import type { AppEnv } from '../deps.ts';
import { ApiError } from './errors.ts';

const SAFE_METHODS = new Set(['GET', 'HEAD', 'OPTIONS']);
/** The disk upload PUT is authorised by its signed URL, not by the cookie (see object-storage). */
const SIGNED_UPLOAD_PREFIX = '/api/objects/put/';

const crossSiteRequest = () => new ApiError(403, 'cross_site_request', msg('api.crossSite'));

/** The origin the browser sees this server at: the Host (or a trusted proxy's X-Forwarded-Host) and scheme. */
function ownOrigin(c: Context<AppEnv>): string | null {
  // A trusted proxy that rewrites Host says the browser's in X-Forwarded-Host.
  const forwardedHost = c.var.deps.config.trustProxy ? c.req.header('x-forwarded-host')?.split(',')[0]?.trim() : undefined;
  const host = forwardedHost || c.req.header('host');
  if (!host) return null;
  const forwardedProto = c.var.deps.config.trustProxy ? c.req.header('x-forwarded-proto')?.split(',')[0]?.trim() : undefined;
  const scheme = forwardedProto === 'https' || forwardedProto === 'http' ? forwardedProto : new URL(c.req.url).protocol.replace(':', '');
  return `${scheme}://${host}`.toLowerCase();
}

/**
 * Cross-site request protection for every state-changing /api request: the browser's Origin must be
 * the app's own (or one of ALLOWED_ORIGINS), or, without an Origin (or `null`), `Sec-Fetch-Site: same-origin`.
 * A request showing neither is refused too: SameSite=Lax cookies alone let a same-site page (another
 * subdomain) post with the user's cookie. The app's request pipeline runs it before the session is
 * read, so nothing is appended. Throws the 403 when refused.
 */
export function checkSameOrigin(c: Context<AppEnv>): void {
  if (SAFE_METHODS.has(c.req.method)) return;
  const origin = c.req.header('origin')?.toLowerCase();
  // `null` is an Origin withheld, not one named: a form post from the app's own page under its
  // `Referrer-Policy: no-referrer` sends it (the sign-in form /login draws, docs/first-screen.md), so
  // Sec-Fetch-Site decides, as without an Origin (a sandboxed frame elsewhere says cross-site).
  if (origin !== undefined && origin !== 'null') {
    if (origin === ownOrigin(c) || c.var.deps.config.allowedOrigins.includes(origin)) return;
    throw crossSiteRequest();
  }
  if (c.req.header('sec-fetch-site') === 'same-origin') return;
  if (c.req.path.startsWith(SIGNED_UPLOAD_PREFIX) && c.req.header('sec-fetch-site') === undefined) return;
  throw crossSiteRequest();
}
