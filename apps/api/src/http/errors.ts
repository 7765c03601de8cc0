import type { Context } from 'hono';
import { HTTPException } from 'hono/http-exception';
import type { ContentfulStatusCode } from 'hono/utils/http-status';
import { type ErrorBody, type ErrorCode, type MessageRef, msg, serverText } from '@kamai/contracts';
import { DomainError, type DomainErrorKind, WrongExpectedRevisionError } from '@kamai/domain';
import { storageFault } from '@kamai/projections';
import type { StorageGuard } from '../storage/guard.ts';

/** An error the API answers with its own status and the JSON error body; anything else is a 500. */
export class ApiError extends Error {
  constructor(
    readonly status: ContentfulStatusCode,
    readonly code: ErrorCode,
    /** The message by its catalogue key; `message` is its English text. */
    readonly ref: MessageRef,
    readonly fields?: Record<string, MessageRef>,
    /** Sent as Retry-After: when a client should try again (a 503 the machine causes). */
    readonly retryAfterSeconds?: number,
  ) {
    super(serverText(ref));
  }
}

export const badRequest = (ref: MessageRef, fields?: Record<string, MessageRef>) => new ApiError(400, 'validation_failed', ref, fields);
export const unauthenticated = () => new ApiError(401, 'unauthenticated', msg('api.notSignedIn'));
export const forbidden = (ref = msg('api.notAllowed')) => new ApiError(403, 'forbidden', ref);
export const notFound = (ref = msg('api.notFound')) => new ApiError(404, 'not_found', ref);
export const conflict = (ref: MessageRef) => new ApiError(409, 'conflict', ref);

/**
 * The command is saved, but this process's read model did not show it within the wait (the runner
 * is far behind): a 503 to read again shortly, never a 500 for a write that succeeded.
 */
export const notYetVisible = () => new ApiError(503, 'busy', msg('api.notYetVisible'));

/**
 * The disk is full (or below its reserve) or DATA_DIR cannot be written: nothing was saved; a 503
 * that says when to try again, so clients wait rather than retry at once.
 */
export const storageRefusal = (kind: 'full' | 'read_only') =>
  kind === 'full'
    ? new ApiError(503, 'storage_full', msg('api.storageFull'), undefined, 60)
    : new ApiError(503, 'storage_read_only', msg('api.storageReadOnly'), undefined, 120);

/**
 * The error body: the English texts for API clients, and beside each its key and parameters in the
 * catalogue, so a client can show it in the reader's language.
 */
export function errorBody(code: ErrorCode, ref: MessageRef, fields?: Record<string, MessageRef>): ErrorBody {
  const error: ErrorBody['error'] = { code, message: serverText(ref), ...ref };
  if (fields) {
    error.fields = Object.fromEntries(Object.entries(fields).map(([name, field]) => [name, serverText(field)]));
    error.fieldKeys = fields;
  }
  return { error };
}

const domainStatus: Record<DomainErrorKind, [ContentfulStatusCode, ErrorCode]> = {
  invalid: [400, 'validation_failed'],
  forbidden: [403, 'forbidden'],
  not_found: [404, 'not_found'],
  conflict: [409, 'conflict'],
};

/** The app's onError: every failure becomes the JSON error body; only the unexpected is a 500. */
export function respondWithError(c: Context, err: unknown) {
  if (err instanceof ApiError) {
    if (err.retryAfterSeconds !== undefined) c.header('Retry-After', String(err.retryAfterSeconds));
    return c.json(errorBody(err.code, err.ref, err.fields), err.status);
  }
  if (err instanceof DomainError) {
    const [status, code] = domainStatus[err.kind];
    return c.json(errorBody(err.code ?? code, err.ref, err.fields), status);
  }
  if (err instanceof WrongExpectedRevisionError) {
    // handleCommand retried and the stream still kept moving: a transient clash, worth one more try.
    return c.json(errorBody('busy', msg('api.tooManyChanges')), 409);
  }
  if (err instanceof HTTPException) {
    // Hono's own refusals (a body over the limit, malformed JSON) say it in English only.
    const status = err.status as ContentfulStatusCode;
    if (status === 413) return c.json(errorBody('payload_too_large', msg('api.bodyTooLarge')), status);
    if (status === 401) return c.json(errorBody('unauthenticated', msg('api.notSignedIn')), status);
    return c.json(errorBody('validation_failed', msg('api.badRequest')), status);
  }
  // A store, the key store, a read model, the throttles or the object storage could not write: the
  // machine's fault, not the request's. The guard hears of it, so the next commands are refused early.
  const fault = storageFault(err);
  if (fault) {
    (c.get('deps') as { storage?: StorageGuard } | undefined)?.storage?.noteFault(fault);
    return respondWithError(c, storageRefusal(fault));
  }
  console.error('[api] unexpected error', err);
  return c.json(errorBody('internal', msg('api.internal')), 500);
}
