import type { IncomingMessage, ServerResponse } from 'node:http';
import type { Context } from 'hono';

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

/**
 * Node's response for this request when @hono/node-server serves the app and nothing has been
 * written yet; otherwise undefined (tests calling `app.request`).
 *
 * Headers set on it with `setHeader` before the handler runs are merged into whatever response the
 * app answers with (Node gives the headers passed to `writeHead` precedence). Setting them there
 * instead of on the Response keeps Hono's answer a plain-object response, which @hono/node-server
 * writes without building and sorting a WHATWG Headers object: a third of a hot read's header cost.
 */
export function nodeResponse(c: Context): ServerResponse | undefined {
  const outgoing = (c.env as { outgoing?: ServerResponse } | undefined)?.outgoing;
  return outgoing && !outgoing.headersSent ? outgoing : undefined;
}

/**
 * @hono/node-server's Response keeps `[status, body, headers]` under a symbol of its own until
 * something reads it as a full Response. Found once, by its description; if a later version names
 * it otherwise, readyBody answers undefined and callers take their general path.
 */
let lightweightKey: symbol | undefined;

/**
 * The body of a response the handler made from a string or bytes, read without turning it into a
 * full Response (which would build its Headers and make node-server stream the body); undefined
 * when the response is not such a one.
 */
export function readyBody(res: Response): string | Uint8Array | null | undefined {
  lightweightKey ??= Object.getOwnPropertySymbols(res).find((s) => s.description === 'cache');
  if (!lightweightKey) return undefined;
  const cache = (res as unknown as Record<symbol, unknown>)[lightweightKey];
  if (!Array.isArray(cache)) return undefined;
  const body: unknown = cache[1];
  return typeof body === 'string' || body instanceof Uint8Array || body === null ? body : undefined;
}
