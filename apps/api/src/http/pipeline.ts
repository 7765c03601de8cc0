import { msg } from '@kamai/contracts';
import { rolesOf } from '@kamai/projections';
import type { Context, MiddlewareHandler, Next } from 'hono';
import { bodyLimit } from 'hono/body-limit';
import { createMiddleware } from 'hono/factory';
import { resolveSession } from '../auth/sessions.ts';
import type { AppDeps, AppEnv } from '../deps.ts';
import { idempotency } from '../finance/idempotency.ts';
import { finishObservation, startObservation } from '../observability/index.ts';
import { compressAnswer } from './compress.ts';
import { applyApiHeaders, documentPolicies, presetApiHeaders } from './csp.ts';
import { ApiError, respondWithError, storageRefusal } from './errors.ts';
import { commandRefusal } from '../storage/guard.ts';
import { checkSameOrigin } from './origin.ts';
import { requestHeader } from './request.ts';
import { namePosition, waitForNamedPosition } from './log-position.ts';

/** JSON bodies are small; the upload PUT streams its own, bounded by the object storage. */
const MAX_JSON_BODY_BYTES = 64 * 1024;
const bodyTooLarge = () => new ApiError(413, 'payload_too_large', msg('api.bodyTooLarge'));
const limitStreamedBody = bodyLimit({
  maxSize: MAX_JSON_BODY_BYTES,
  onError: () => {
    throw bodyTooLarge();
  },
});

/**
 * The body limit. A body that declares its length (no Transfer-Encoding) is judged by that header,
 * read from Node's own headers: Node never hands the route more bytes than Content-Length says, so
 * this is the whole check. Only a chunked body is counted as it streams, by Hono's bodyLimit, which
 * turns the request into a full WHATWG Request with a ReadableStream body (about a tenth of a
 * command's CPU on the event loop, had every request taken that way).
 */
const limitJsonBody: MiddlewareHandler<AppEnv> = async (c, next) => {
  const csv = CSV_IMPORTS.some((route) => route.test(c.req.path));
  if (requestHeader(c, 'transfer-encoding') !== undefined) return (csv ? limitStreamedCsv : limitStreamedBody)(c, next);
  const declared = requestHeader(c, 'content-length');
  if (declared !== undefined && !(Number(declared) <= (csv ? MAX_CSV_BODY_BYTES : MAX_JSON_BODY_BYTES))) throw bodyTooLarge();
  await next();
};
/** Bank files read back (results, statements) are larger than JSON: a thousand rows fit easily. */
const MAX_CSV_BODY_BYTES = 2 * 1024 * 1024;
const CSV_IMPORTS = [/^\/api\/admin\/payout-batches\/[^/]+\/results$/, /^\/api\/admin\/ledger\/bank-statements$/];
const limitStreamedCsv = bodyLimit({
  maxSize: MAX_CSV_BODY_BYTES,
  onError: () => {
    throw bodyTooLarge();
  },
});
const SIGNED_UPLOAD_PREFIX = '/api/objects/put/';

/**
 * As Hono runs a middleware that throws: an Error becomes the app's error answer, which the steps
 * after the route (compression, headers, the request log) still see; anything else goes on up.
 */
function answerWithError(c: Context<AppEnv>, err: unknown): void {
  if (!(err instanceof Error)) throw err;
  c.error = err;
  c.res = respondWithError(c, err);
}

/**
 * A middleware run as a step, as Hono's compose runs it: a Response it returns (idempotency's
 * replay of a recorded answer) becomes the answer unless the route already made one.
 */
async function step(c: Context<AppEnv>, middleware: MiddlewareHandler<AppEnv>, next: Next): Promise<void> {
  const res = await middleware(c, next);
  if (res instanceof Response && !c.finalized) c.res = res;
}

/**
 * What runs around every route, in this order: the request id, log line and metrics
 * (observability), the security headers (csp.ts), compression (compress.ts), then under /api the
 * body limit and the cross-site check (origin.ts), the session (auth/sessions.ts) for every path,
 * and under /api the idempotency of retried commands (finance/idempotency.ts). Each rule stays in
 * its own module; they run here as steps of one middleware, because every Hono layer costs a
 * dispatch and two async frames per request, which eight layers made a fifth of a hot read's CPU.
 * A read under /api (GET, HEAD) takes the short way: it carries no body and needs no cross-site
 * check, and its session is usually answered from memory without a promise.
 */
export function requestPipeline(deps: AppDeps) {
  const documents = documentPolicies(deps.config);
  return createMiddleware<AppEnv>(async (c, next) => {
    c.set('deps', deps);
    const observation = startObservation(c);
    let failed: unknown;
    try {
      const path = c.req.path;
      if (path.startsWith('/api/')) await apiRequest(c, next, path);
      // `/api` itself is no API answer (no route), but the /api rules apply to it as they always did.
      else {
        await step(c, documents, async () => {
          await (path === '/api' ? apiRules(c, next, path) : sessionAndRoute(c, next, false));
          const compressing = compress(c);
          if (compressing) await compressing;
        });
      }
    } catch (err) {
      failed = err;
      throw err;
    } finally {
      finishObservation(c, observation, failed);
    }
  });
}

async function apiRequest(c: Context<AppEnv>, next: Next, path: string): Promise<void> {
  const preset = presetApiHeaders(c);
  const waiting = waitForNamedPosition(c);
  if (waiting) await waiting;
  await apiRules(c, next, path);
  const naming = namePosition(c);
  if (naming) await naming;
  const compressing = compress(c);
  if (compressing) await compressing;
  if (!preset) applyApiHeaders(c);
}

/** Under /api: the body limit (not for reads, nor the signed upload PUT), then the cross-site check, the session, idempotency and the route. */
async function apiRules(c: Context<AppEnv>, next: Next, path: string): Promise<void> {
  const method = c.req.method;
  // Reads carry no body, pass the cross-site check and are never idempotent commands.
  if (method === 'GET' || method === 'HEAD') return sessionAndRoute(c, next, false);
  if (path.startsWith(SIGNED_UPLOAD_PREFIX)) return sessionAndRoute(c, next, true);
  try {
    await step(c, limitJsonBody, () => sessionAndRoute(c, next, true));
  } catch (err) {
    answerWithError(c, err);
  }
}

async function sessionAndRoute(c: Context<AppEnv>, next: Next, api: boolean): Promise<void> {
  try {
    if (api) checkSameOrigin(c);
    const resolving = resolveSession(c);
    if (resolving) await resolving;
    if (api) refuseWhenStorageCannot(c);
    await (api ? step(c, idempotency, next) : next());
  } catch (err) {
    answerWithError(c, err);
  }
}

/**
 * A command the disk cannot take (below the reserve, full, read-only or gone) is refused before it
 * starts: 503 with Retry-After (see storage/guard.ts for what still runs while space is low).
 */
function refuseWhenStorageCannot(c: Context<AppEnv>): void {
  const storage = c.var.deps.storage;
  if (!storage || storage.state === 'ok') return;
  const user = c.get('user');
  const refusal = commandRefusal(storage, c.req.method, c.req.path, user ? rolesOf(user).length > 0 : false);
  if (refusal) throw storageRefusal(refusal);
}

/** Compression of the answer; no promise when it stays as it is (a small ready body). */
function compress(c: Context<AppEnv>): Promise<void> | undefined {
  try {
    const compressing = compressAnswer(c);
    return compressing?.catch((err: unknown) => answerWithError(c, err));
  } catch (err) {
    answerWithError(c, err);
    return undefined;
  }
}
