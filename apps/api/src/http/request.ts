import type { IncomingMessage } from 'node:http';
import type { Context } from 'hono';
import { parse as parseCookies } from 'hono/utils/cookie';

/**
 * Request headers read on every request, from Node's own parsed headers when @hono/node-server
 * serves the app. `c.req.header()` builds a WHATWG Headers object of every request header on first
 * use, which cost more than the rest of a hot read's middleware; Node's `incoming.headers` is a
 * plain object. Outside node-server (tests calling `app.request`) it falls back to `c.req.header()`.
 *
 * `name` must be lower case, as Node keys its headers.
 */
export function requestHeader(c: Context, name: string): string | undefined {
  const incoming = (c.env as { incoming?: IncomingMessage } | undefined)?.incoming;
  if (!incoming) return c.req.header(name);
  const value = incoming.headers[name];
  return Array.isArray(value) ? value.join(', ') : value;
}

/** One cookie of the request (hono/cookie's parser), read the way requestHeader reads headers. */
export function requestCookie(c: Context, name: string): string | undefined {
  const cookie = requestHeader(c, 'cookie');
  return cookie ? parseCookies(cookie, name)[name] : undefined;
}
