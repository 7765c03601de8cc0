// Helpers for the object storage tests only; nothing in the app imports this file.
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { mkdtemp } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { serve } from '@hono/node-server';
import type { Context, Hono } from 'hono';
import * as v from 'valibot';
import S3rver from 's3rver';
import { Role } from '@kamai/contracts';

/** A real 1x1 transparent PNG. */
export const TINY_PNG = Buffer.from(
  'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAQAAAC1HAwCAAAAC0lEQVR42mNkYAAAAAYAAjCB0C8AAAAASUVORK5CYII=',
  'base64',
);

/** Bytes that sniff as PNG, padded with zeros to `size`: for the size limit without a real 5 MB image. */
export function pngOfSize(size: number): Buffer {
  const bytes = Buffer.alloc(size);
  TINY_PNG.copy(bytes, 0, 0, Math.min(size, TINY_PNG.length));
  return bytes;
}

export const tempDir = (name: string) => mkdtemp(path.join(os.tmpdir(), `kamai-${name}-`));

/** `x-test-user: <id>:<role>,<role>` stands in for the app's session lookup. */
export async function testCurrentUser(c: Context): Promise<{ id: string; roles: Role[] } | null> {
  const header = c.req.header('x-test-user');
  if (!header) return null;
  const [id = '', roles = ''] = header.split(':');
  return { id, roles: roles.split(',').filter((role): role is Role => v.is(Role, role)) };
}

/** A clock tests can move; adapters take `now`. */
export function testClock() {
  const clock = { offsetMs: 0, now: () => new Date(Date.now() + clock.offsetMs) };
  return clock;
}
export type TestClock = ReturnType<typeof testClock>;

/** Serves a Hono app on a free loopback port over real HTTP. */
export function serveApp(app: Hono): Promise<{ baseURL: string; close: () => Promise<void> }> {
  return new Promise((resolve) => {
    const server = serve({ fetch: app.fetch, port: 0, hostname: '127.0.0.1' }, (info) => {
      resolve({
        baseURL: `http://127.0.0.1:${info.port}`,
        close: () =>
          new Promise<void>((done, fail) => {
            server.close((err) => (err ? fail(err) : done()));
            if ('closeAllConnections' in server) server.closeAllConnections();
          }),
      });
    });
  });
}

/**
 * A request whose path goes on the wire exactly as written: fetch would resolve `..` first, and the
 * point of the path tests is what the server does with the raw target. `chunked` sends no length.
 */
export function rawRequest(
  baseURL: string,
  method: string,
  target: string,
  options: { headers?: Record<string, string>; body?: Buffer; chunked?: boolean } = {},
): Promise<{ status: number; headers: http.IncomingHttpHeaders; body: Buffer }> {
  const { hostname, port } = new URL(baseURL);
  return new Promise((resolve, reject) => {
    const headers: Record<string, string> = { ...options.headers };
    if (options.body && !options.chunked) headers['content-length'] = String(options.body.length);
    const req = http.request({ hostname, port, method, path: target, headers }, (res) => {
      const chunks: Buffer[] = [];
      res.on('data', (chunk: Buffer) => chunks.push(chunk));
      res.on('end', () => resolve({ status: res.statusCode ?? 0, headers: res.headers, body: Buffer.concat(chunks) }));
      res.on('error', reject);
    });
    // The server may answer and stop reading before the whole body is sent; the answer still counts.
    req.on('error', (err) => reject(err));
    if (options.body && options.chunked) {
      const body = options.body;
      const step = 64 * 1024;
      let offset = 0;
      const writeMore = () => {
        while (offset < body.length) {
          const ok = req.write(body.subarray(offset, offset + step));
          offset += step;
          if (!ok) return void req.once('drain', writeMore);
        }
        req.end();
      };
      writeMore();
    } else {
      req.end(options.body);
    }
  });
}

export const S3RVER_CREDENTIALS = { accessKeyId: 'S3RVER', secretAccessKey: 'S3RVER' } as const;

/** A real s3rver on a free loopback port, storing in a fresh temporary folder, with one bucket. */
export async function startS3rver(bucket = 'kamai-test') {
  const directory = await tempDir('s3rver');
  const server = new S3rver({
    address: '127.0.0.1',
    port: 0,
    silent: true,
    directory,
    resetOnClose: true,
    configureBuckets: [{ name: bucket }],
  });
  const address: AddressInfo = await server.run();
  return { endpoint: `http://127.0.0.1:${address.port}`, bucket, close: () => server.close() };
}
