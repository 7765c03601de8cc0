import { createHash, randomUUID, timingSafeEqual } from 'node:crypto';
import type { EventStore } from '@kamai/domain';
import type { ReadModels } from '@kamai/projections';
import { type Context, Hono } from 'hono';
import { routePath } from 'hono/route';
import { logger, requestLogger } from './logger.ts';
import type { AppEnv } from '../deps.ts';
import { unauthenticated } from '../http/errors.ts';
import { nodeResponse, requestHeader } from '../http/request.ts';
import { appendBatchSize, appendFailures, metricsText, observeHttp, registerProjectionLag } from './metrics.ts';

export { logger } from './logger.ts';
export { registerProjectionLag, registerStorage, type ProjectionLag } from './metrics.ts';

/** A client's request id is kept when it is a plain token; anything else is replaced. */
const REQUEST_ID = /^[\w.:-]{1,128}$/;

/** What startObservation noted about a request, for finishObservation. */
export interface Observation {
  started: number;
  requestId: string;
  /** The id went out on Node's response (see nodeResponse). */
  onNode: boolean;
}

/**
 * Per request: a request id (the client's `X-Request-Id` or a new UUID, echoed in the answer), one
 * JSON log line (id, method, route, path without query, status, ms; never headers, cookies or
 * bodies), and the HTTP metrics. A mutating API request is a command: its latency is recorded by
 * the route it came in on (`POST /api/withdrawals`). Before the route: startObservation; after it:
 * finishObservation (the app's request pipeline runs both).
 */
export function startObservation(c: Context): Observation {
  const started = performance.now();
  const given = requestHeader(c, 'x-request-id');
  const requestId = given && REQUEST_ID.test(given) ? given : randomUUID();
  // Before the handler, so every answer carries it: on Node's response when served by Node (see
  // nodeResponse), else through c.header(), which lands in the headers the handler's response is
  // built with. (After it, c.header() would rebuild the response around its body as a stream.)
  const outgoing = nodeResponse(c);
  if (outgoing) outgoing.setHeader('X-Request-Id', requestId);
  else c.header('X-Request-Id', requestId);
  return { started, requestId, onNode: outgoing !== undefined };
}

/** `failed`: what the route threw past the app's error handler (then the answer is a 500), if anything. */
export function finishObservation(c: Context, { started, requestId, onNode }: Observation, failed?: unknown): void {
  const seconds = (performance.now() - started) / 1000;
  const status = failed ? 500 : c.res.status;
  const method = c.req.method;
  const path = c.req.path;
  // The matched route's template, so ids in paths do not explode the label set.
  const route = path.startsWith('/api/') || path === '/metrics' ? routePath(c) : 'web';
  // A handler that returned a Response of its own did not take the prepared headers.
  if (!failed && !onNode && c.res.headers.get('X-Request-Id') === null) c.res.headers.set('X-Request-Id', requestId);
  observeHttp(method, route, status, seconds);
  if (status >= 500) logger.error(requestLine(requestId, method, route, path, status, seconds), 'request failed');
  // Built only when written: the line is most of the cost of a request that is not logged.
  else if (requestLogger.isLevelEnabled('info')) requestLogger.info(requestLine(requestId, method, route, path, status, seconds), 'request');
}

function requestLine(reqId: string, method: string, route: string, path: string, status: number, seconds: number) {
  return { reqId, method, route, path: loggedPath(path), status, ms: Math.round(seconds * 10_000) / 10 };
}

/** The header names the token, compared in constant time. */
function bearerMatches(header: string | undefined, token: string): boolean {
  const given = createHash('sha256').update(/^Bearer (.+)$/.exec(header ?? '')?.[1] ?? '').digest();
  return timingSafeEqual(given, createHash('sha256').update(token).digest());
}

/** `GET /metrics`: Prometheus text format; behind a bearer token when METRICS_TOKEN is set. */
export const metricsRoutes = new Hono<AppEnv>().get('/metrics', async (c) => {
  const token = c.var.deps.config.metricsToken;
  if (token !== null && !bearerMatches(c.req.header('authorization'), token)) {
    c.header('WWW-Authenticate', 'Bearer');
    throw unauthenticated();
  }
  const { body, contentType } = await metricsText();
  return c.body(body, 200, { 'Content-Type': contentType });
});

/**
 * The event store as the routes see it, with every append counted: events per append and failures.
 * A proxy, so methods the port gains later pass through untouched.
 */
export function meteredStore(store: EventStore): EventStore {
  return new Proxy(store, {
    get(target, key) {
      const value: unknown = Reflect.get(target, key, target);
      // Methods run on the store itself: it keeps private fields a proxy receiver cannot reach.
      if (key !== 'append') return typeof value === 'function' ? value.bind(target) : value;
      const append: EventStore['append'] = async (streamId, events, expected) => {
        try {
          const result = await target.append(streamId, events, expected);
          appendBatchSize.observe(events.length);
          return result;
        } catch (err) {
          appendFailures.inc();
          throw err;
        }
      };
      return append;
    },
  });
}

/**
 * Projection lag per read model, from the runner's status (its checkpoint per projection) against
 * the store's head, and the age of the oldest event past each checkpoint. Works alike for the
 * in-process runner and the checkpoint watcher (PROJECTIONS=off).
 */
let runnerLag: (() => void) | null = null;
export function registerRunnerLag(runner: ReadModels, store: EventStore): () => void {
  // One app serves a process; the newest app's runner replaces an older one's (tests make many).
  runnerLag?.();
  runnerLag = registerProjectionLag(async () => {
    const [models, head] = await Promise.all([runner.status(), store.headPosition()]);
    // Read models usually share a position: one read of the store per distinct checkpoint.
    const ages = new Map<number, Promise<number>>();
    const ageAfter = (position: number) => {
      let age = ages.get(position);
      if (!age) {
        age = store.readAll({ after: position, limit: 1 }).then(([oldest]) => (oldest ? Math.max(0, Date.now() - Date.parse(oldest.recordedAt)) : 0));
        ages.set(position, age);
      }
      return age;
    };
    return Promise.all(
      models.map(async (m) => {
        const parked = m.state === 'parked';
        return head <= m.position
          ? { projection: m.name, events: 0, ms: 0, parked }
          : { projection: m.name, events: head - m.position, ms: await ageAfter(m.position), parked };
      }),
    );
  });
  return runnerLag;
}

/** Identity documents are personal data: a KYC image's address (owner and object id) is never logged. */
export function loggedPath(path: string): string {
  // A run of ten digits or more is a mobile number (or an account number) until shown otherwise.
  return path.replace(/^(\/objects\/kyc(?:-uploads)?\/).+$/, '$1[redacted]').replace(/\d{10,}/g, '[redacted]');
}
