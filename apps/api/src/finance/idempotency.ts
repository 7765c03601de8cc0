import { createHash } from 'node:crypto';
import { IDEMPOTENCY_KEY_PATTERN, IDEMPOTENT_COMMANDS, streams, msg } from '@kamai/contracts';
import { DomainError, type Json, idempotencyDecider, isReservationLive } from '@kamai/domain';
import type { Context, Next } from 'hono';
import { createMiddleware } from 'hono/factory';
import type { ContentfulStatusCode } from 'hono/utils/http-status';
import { handleCommand, loadStream } from '../commands/handle.ts';
import { runKeyed } from '../commands/keyed.ts';
import type { AppEnv } from '../deps.ts';
import { ApiError, respondWithError } from '../http/errors.ts';
import { canonical } from '../canonical-json.ts';

const sha256 = (text: string) => createHash('sha256').update(text).digest('hex');

/**
 * Makes the listed commands safe to retry, exactly once even across a crash. The key is remembered
 * per caller in an `idempotency-<hash>` stream (through its decider). The route runs as a keyed
 * command (commands/keyed.ts) whose token is derived from the caller, the key and the request; the
 * key's reservation (holding the request's hash and that token) is appended just before the command's
 * first append, and every event the command appends carries the token in the same append. A retry
 * with the same body, whether the first attempt answered, is still running, or died between its
 * append and its answer, runs the route again as the same keyed command: each append that already
 * happened is found and taken as done, the ids it made are the same, and the answer is built from
 * them; only what did not happen yet is done. A refusal (4xx) appends nothing, the reservation
 * included: its retry is decided afresh (and is refused again unless something changed). No response
 * body is kept. Another body under the key -> 422 `idempotency_key_reused`. After IDEMPOTENCY_RETENTION_HOURS the key is new.
 */
export const idempotency = createMiddleware<AppEnv>(async (c, next) => {
  if (c.req.method !== 'POST' || !IDEMPOTENT_COMMANDS.some((route) => route.test(c.req.path))) return next();
  const key = c.req.header('idempotency-key');
  if (key === undefined) return next();
  if (!IDEMPOTENCY_KEY_PATTERN.test(key)) throw new ApiError(400, 'validation_failed', msg('api.idempotencyKeyFormat'), { 'Idempotency-Key': msg('api.idempotencyKeyFormat') });
  const user = c.get('user');
  // Signed-out callers get the route's own 401.
  if (!user) return next();

  const deps = c.var.deps;
  const requestHash = sha256(`${c.req.method} ${c.req.path}\n${canonical(await c.req.text())}`);
  const streamId = streams.idempotency(sha256(`${user.id}\n${key}`));
  const metadata = { actor: user.id };
  const loaded = await loadStream(deps.store, streamId, idempotencyDecider);
  // One key's state: small, and copied so a concurrent retry cannot move it on under us.
  const state = structuredClone(loaded.state);
  const live = isReservationLive(state, deps.now().toISOString());
  if (live && state.requestHash !== requestHash) throw new ApiError(422, 'idempotency_key_reused', msg('api.idempotencyKeyReused'));
  if (live && state.legacyResponse) {
    c.header('idempotent-replayed', 'true');
    return c.json(state.legacyResponse.body, state.legacyResponse.status as ContentfulStatusCode);
  }
  // A refusal recorded by older code is answered as it was; refusals are no longer recorded.
  if (live && state.completed?.error) {
    c.header('idempotent-replayed', 'true');
    return c.json({ error: state.completed.error } as Json, state.completed.status as ContentfulStatusCode);
  }
  const retry = live && state.token !== '';
  // A fresh key's token is derived, not drawn: two copies of the request starting at once name the
  // same token, and so the same ids, before either has recorded anything.
  const token = retry ? state.token : sha256(`${user.id}\n${key}\n${requestHash}\n${loaded.revision}`);
  // Every event of the command comes after its reservation, or after the head as it began.
  const reservedAt = retry ? await reservationPosition(c, streamId) : await deps.store.headPosition();
  let reserved = retry;
  const reserve = async () => {
    try {
      await handleCommand(
        deps.store,
        streamId,
        idempotencyDecider,
        { type: 'ReserveIdempotencyKey', data: { caller: user.id, requestHash, method: c.req.method, path: c.req.path, token }, now: deps.now().toISOString() },
        metadata,
      );
      reserved = true;
    } catch (err) {
      if (err instanceof DomainError && err.code === 'idempotency_key_reused') throw new ApiError(422, 'idempotency_key_reused', err.ref);
      throw err;
    }
  };

  // The key is reserved only when the command first appends (commands/keyed.ts): a request refused
  // before that (4xx) leaves the log as it was, and its retry is decided afresh.
  await runKeyed(token, reservedAt, () => routeAnswering(c, next), retry ? null : reserve);
  if (retry) c.header('idempotent-replayed', 'true');
  // A 5xx records nothing: whatever the command did is found again by a retry under the same token.
  if (c.res.status >= 400 || !reserved) return;
  await handleCommand(
    deps.store,
    streamId,
    idempotencyDecider,
    { type: 'CompleteIdempotentCommand', data: { token, status: c.res.status, error: null }, now: deps.now().toISOString() },
    metadata,
  );
});

/** The route, with a refusal it throws turned into its answer here, so the answer can be recorded. */
async function routeAnswering(c: Context<AppEnv>, next: Next): Promise<void> {
  try {
    await next();
  } catch (err) {
    if (!(err instanceof Error)) throw err;
    c.error = err;
    c.res = respondWithError(c, err);
  }
}

/** Log position of the newest reservation of a key (its stream is a few events long). */
async function reservationPosition(c: Context<AppEnv>, streamId: string): Promise<number> {
  const events = await c.var.deps.store.readStream(streamId);
  const last = events.filter((e) => e.type === 'IdempotencyKeyReserved').at(-1);
  if (!last) throw new Error(`stream ${streamId} holds no reservation`);
  return last.position;
}
