import { brotliCompressSync, constants, gzipSync } from 'node:zlib';
import type { Context } from 'hono';
import { readyBody, requestHeader } from './request.ts';

/** Text worth compressing: JSON, HTML, CSS, JavaScript, SVG, plain text. */
const COMPRESSIBLE = /^(?:text\/|application\/(?:json|javascript|xml|manifest\+json)|image\/svg\+xml)/i;
/** Below this a compressed body saves less than the header costs. */
const THRESHOLD = 1024;
/** Hashed assets never change, so each is compressed once per encoding, at the strongest level. */
const immutableCache = new Map<string, Uint8Array>();
const IMMUTABLE_CACHE_LIMIT = 512;

type Encoding = 'br' | 'gzip';

const ACCEPTS = {
  br: /(?:^|,)\s*br\s*(?:;\s*q=([0-9.]+))?/i,
  gzip: /(?:^|,)\s*gzip\s*(?:;\s*q=([0-9.]+))?/i,
};

/** Brotli when the client takes it, else gzip; q=0 refuses an encoding. */
function pickEncoding(accept: string | undefined): Encoding | null {
  if (!accept) return null;
  const allowed = (name: Encoding) => {
    const m = ACCEPTS[name].exec(accept);
    return m !== null && (m[1] === undefined || Number(m[1]) > 0);
  };
  if (allowed('br')) return 'br';
  if (allowed('gzip')) return 'gzip';
  return null;
}

function encode(body: Uint8Array, encoding: Encoding, strongest: boolean): Uint8Array {
  if (encoding === 'br') {
    return brotliCompressSync(body, {
      params: {
        // Quality 4 is cheap enough per request and beats gzip; assets are done once, at 11.
        [constants.BROTLI_PARAM_QUALITY]: strongest ? 11 : 4,
        [constants.BROTLI_PARAM_SIZE_HINT]: body.length,
        [constants.BROTLI_PARAM_MODE]: constants.BROTLI_MODE_TEXT,
      },
    });
  }
  return gzipSync(body, { level: strongest ? 9 : 6 });
}

function byteLength(body: string | Uint8Array): number {
  if (typeof body !== 'string') return body.byteLength;
  // UTF-8 takes at most three bytes per UTF-16 unit: most JSON answers are decided without counting.
  return body.length * 3 < THRESHOLD ? body.length : Buffer.byteLength(body);
}

/** Hono's `res` setter copies the old response's headers over the new; the new ones must win. */
function replace(c: Context, res: Response): void {
  c.res = undefined;
  c.res = res;
}

/**
 * Compresses the route's answer when it is text (the JSON API, the web app's HTML, scripts and
 * styles) with node:zlib: brotli or gzip as the client accepts. Unlike hono/compress it keeps a
 * strong ETag (a task's ETag is its stream revision, compared by If-Match) and caches immutable
 * assets. The app's request pipeline calls it after the route; undefined, not a promise, when the
 * answer stays as it is without reading its body.
 */
export function compressAnswer(c: Context): Promise<void> | undefined {
  const res = c.res;
  if (c.req.method === 'HEAD' || res.status === 204 || res.status === 206 || res.status === 304) return undefined;
  // A small body the handler gave as a string or bytes (most JSON answers) is never compressed,
  // whatever the client accepts, so its representation does not vary by Accept-Encoding: it is
  // left as it is, headers untouched, without reading it as a full Response.
  const ready = readyBody(res);
  if (ready === null || (ready !== undefined && byteLength(ready) < THRESHOLD)) return;
  if (res.headers.has('Content-Encoding') || !COMPRESSIBLE.test(res.headers.get('Content-Type') ?? '')) return;
  const length = res.headers.get('Content-Length');
  if (length !== null && Number(length) < THRESHOLD) return;
  const cacheControl = res.headers.get('Cache-Control') ?? '';
  if (/no-transform/i.test(cacheControl)) return;
  const encoding = pickEncoding(requestHeader(c, 'accept-encoding'));
  const vary = res.headers.get('Vary');
  if (!vary || !/accept-encoding|\*/i.test(vary)) res.headers.set('Vary', vary ? `${vary}, Accept-Encoding` : 'Accept-Encoding');
  // Left as it is: wrapping the body in a new Response would turn node-server's fast path for a
  // ready body into a stream.
  if (!encoding) return;
  return encodeAnswer(c, res, encoding, cacheControl);
}

async function encodeAnswer(c: Context, res: Response, encoding: Encoding, cacheControl: string): Promise<void> {
  const headers = new Headers(res.headers);
  const immutable = /immutable/i.test(cacheControl);
  const key = `${encoding} ${c.req.path}`;
  let encoded = immutable ? immutableCache.get(key) : undefined;
  if (!encoded) {
    const body = new Uint8Array(await res.arrayBuffer());
    if (body.length < THRESHOLD) {
      replace(c, new Response(body, { status: res.status, headers }));
      return;
    }
    encoded = encode(body, encoding, immutable);
    if (immutable && immutableCache.size < IMMUTABLE_CACHE_LIMIT) immutableCache.set(key, encoded);
  } else {
    await res.body?.cancel();
  }
  headers.set('Content-Encoding', encoding);
  headers.set('Content-Length', String(encoded.length));
  replace(c, new Response(encoded, { status: res.status, headers }));
}
