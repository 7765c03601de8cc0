import { createHash, randomUUID } from 'node:crypto';
import { IDEMPOTENCY_KEY_PATTERN, IDEMPOTENT_COMMANDS, streams } from '@kamai/contracts';
import { type Json, WrongExpectedRevisionError, idempotencyEvolver } from '@kamai/domain';
import { createMiddleware } from 'hono/factory';
import type { ContentfulStatusCode } from 'hono/utils/http-status';
import { loadStream } from '../commands/handle.ts';
import type { AppEnv } from '../deps.ts';
import { ApiError } from '../http/errors.ts';

const KEY_MESSAGE = 'Idempotency-Key must be 1 to 100 visible characters';

/**
 * After this long without a recorded response, a reservation is taken to belong to a process that
 * died mid-command, and a retry may run the command again.
 */
export const STALE_RESERVATION_MS = 60_000;

const sha256 = (text: string) => createHash('sha256').update(text).digest('hex');

/** JSON with its keys sorted, so the same body sent with keys in another order is the same request. */
function canonical(text: string): string {
  try {
    return JSON.stringify(JSON.parse(text), (_key, value: unknown) =>
      value && typeof value === 'object' && !Array.isArray(value)
        ? Object.fromEntries(Object.entries(value as Record<string, unknown>).sort(([a], [b]) => (a < b ? -1 : 1)))
        : value,
    );
  } catch {
    return text;
  }
}

/**
 * Makes the listed commands safe to retry. The key is remembered per caller in an
 * `idempotency-<hash>` stream of the event store, reserved with `no_stream` before the command runs
 * (so two processes receiving the same retry cannot both run it) and answered from the recorded
 * response afterwards: same key and body -> the first answer again, nothing appended; another body
 * -> 422 `idempotency_key_reused`. Kept as long as the store keeps events, well over 24 hours.
 */
export const idempotency = createMiddleware<AppEnv>(async (c, next) => {
  if (c.req.method !== 'POST' || !IDEMPOTENT_COMMANDS.some((route) => route.test(c.req.path))) return next();
  const key = c.req.header('idempotency-key');
  if (key === undefined) return next();
  if (!IDEMPOTENCY_KEY_PATTERN.test(key)) throw new ApiError(400, 'validation_failed', KEY_MESSAGE, { 'Idempotency-Key': KEY_MESSAGE });
  const user = c.get('user');
  // Signed-out callers get the route's own 401.
  if (!user) return next();

  const deps = c.var.deps;
  const requestHash = sha256(`${c.req.method} ${c.req.path}\n${canonical(await c.req.text())}`);
  const streamId = streams.idempotency(sha256(`${user.id}\n${key}`));
  const metadata = { actor: user.id, causationId: key };

  for (let attempt = 1; ; attempt++) {
    const { state, revision } = await loadStream(deps.store, streamId, idempotencyEvolver);
    if (state.requestHash !== null) {
      if (state.requestHash !== requestHash) {
        throw new ApiError(422, 'idempotency_key_reused', 'This Idempotency-Key was already used for a different request');
      }
      if (state.response) {
        c.header('idempotent-replayed', 'true');
        return c.json(state.response.body as Json, state.response.status as ContentfulStatusCode);
      }
      const age = deps.now().getTime() - Date.parse(state.reservedAt ?? '');
      if (age < STALE_RESERVATION_MS) throw new ApiError(409, 'busy', 'This request is still being processed. Please try again in a moment.');
    }
    try {
      await deps.store.append(
        streamId,
        [
          {
            id: randomUUID(),
            type: 'IdempotencyKeyReserved',
            data: { caller: user.id, requestHash, method: c.req.method, path: c.req.path, reservedAt: deps.now().toISOString() },
            metadata,
          },
        ],
        revision,
      );
      break;
    } catch (err) {
      // Another process reserved it first: read again and answer as a retry would.
      if (!(err instanceof WrongExpectedRevisionError) || attempt >= 5) throw err;
    }
  }

  await next();
  const now = deps.now().toISOString();
  if (c.res.status >= 500) {
    // Nothing is known to have happened: let a retry run the command.
    await deps.store.append(streamId, [{ id: randomUUID(), type: 'IdempotencyKeyReleased', data: { releasedAt: now }, metadata }], 'any');
    return;
  }
  const text = await c.res.clone().text();
  let body: Json = text;
  if ((c.res.headers.get('content-type') ?? '').includes('json') && text) body = JSON.parse(text) as Json;
  await deps.store.append(
    streamId,
    [{ id: randomUUID(), type: 'IdempotentResponseRecorded', data: { status: c.res.status, body, recordedAt: now }, metadata }],
    'any',
  );
});
