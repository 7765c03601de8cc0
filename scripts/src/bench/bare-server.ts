/**
 * The peer of `GET /api/auth/user` in `npm run bench`: bare Hono on @hono/node-server answering
 * each request with one better-sqlite3 lookup (a prepared statement) of the same user row in the
 * same read database, and the same request log line as `npm start` writes (pino at info on stdout,
 * a request id per answer), so logging is not a cost only one side pays. Nothing else: no
 * middleware, no session, no JSON shaping beyond the row.
 *
 *   tsx scripts/src/bench/bare-server.ts <read.sqlite> <user id>   (prints "listening <port>")
 */
import { randomUUID } from 'node:crypto';
import { createRequire } from 'node:module';
import { join } from 'node:path';
import Database from 'better-sqlite3';

// hono is a dependency of the API package, not of the scripts; load the very same copy from there.
const fromApi = createRequire(join(import.meta.dirname, '../../../apps/api/package.json'));
interface Ctx { json(body: unknown): Response; header(name: string, value: string): void }
interface HonoApp { get(path: string, handler: (c: Ctx) => Response): void; fetch: unknown }
const { Hono } = (await import(fromApi.resolve('hono'))) as { Hono: new () => HonoApp };
const { serve } = (await import(fromApi.resolve('@hono/node-server'))) as {
  serve(options: { fetch: unknown; port: number; hostname: string }, ready: (info: { port: number }) => void): unknown;
};

interface Logger { info(line: object, msg: string): void }
const pino = (await import(fromApi.resolve('pino'))) as { default: (options: object) => Logger };
const logger = pino.default({ level: 'info', base: { pid: process.pid, service: 'kamai-bare' } });

const [file, userId] = process.argv.slice(2);
if (!file || !userId) throw new Error('usage: bare-server.ts <read.sqlite> <user id>');
const db = new Database(file, { readonly: true });
const lookup = db.prepare('SELECT * FROM users WHERE id = ?');
const app = new Hono();
app.get('/user', (c) => {
  const started = performance.now();
  const reqId = randomUUID();
  c.header('X-Request-Id', reqId);
  const response = c.json(lookup.get(userId));
  const ms = Math.round((performance.now() - started) * 10) / 10;
  logger.info({ reqId, method: 'GET', route: '/user', path: '/user', status: 200, ms }, 'request');
  return response;
});
serve({ fetch: app.fetch, port: 0, hostname: '127.0.0.1' }, (info) => console.log(`listening ${info.port}`));
