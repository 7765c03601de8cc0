import type { Context } from 'hono';
import { HTTPException } from 'hono/http-exception';
import type { ContentfulStatusCode } from 'hono/utils/http-status';
import { type ErrorBody, type ErrorCode, messageOf } from '@kamai/contracts';
import { DomainError, type DomainErrorKind, WrongExpectedRevisionError } from '@kamai/domain';

/** An error the API answers with its own status and the JSON error body; anything else is a 500. */
export class ApiError extends Error {
  constructor(
    readonly status: ContentfulStatusCode,
    readonly code: ErrorCode,
    message: string,
    readonly fields?: Record<string, string>,
  ) {
    super(message);
  }
}

export const badRequest = (message: string, fields?: Record<string, string>) =>
  new ApiError(400, 'validation_failed', message, fields);
export const unauthenticated = () => new ApiError(401, 'unauthenticated', 'You are not signed in');
export const forbidden = (message = 'You are not allowed to do this') => new ApiError(403, 'forbidden', message);
export const notFound = (message = 'Not found') => new ApiError(404, 'not_found', message);
export const conflict = (message: string) => new ApiError(409, 'conflict', message);

/**
 * The command is saved, but this process's read model did not show it within the wait (the runner
 * is far behind): a 503 to read again shortly, never a 500 for a write that succeeded.
 */
export const notYetVisible = () =>
  new ApiError(503, 'busy', 'Your change was saved but is taking a moment to show. Please refresh in a few seconds.');

/**
 * The error body: the English texts, and beside each its key and parameters in the catalogue
 * (`messageOf`), so a client can show it in the reader's language.
 */
export function errorBody(code: ErrorCode, message: string, fields?: Record<string, string>): ErrorBody {
  const error: ErrorBody['error'] = { code, message, ...messageOf(message) };
  if (fields) {
    error.fields = fields;
    const fieldKeys: NonNullable<ErrorBody['error']['fieldKeys']> = {};
    for (const [name, text] of Object.entries(fields)) {
      const ref = messageOf(text);
      if (ref) fieldKeys[name] = ref;
    }
    if (Object.keys(fieldKeys).length > 0) error.fieldKeys = fieldKeys;
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
  if (err instanceof ApiError) return c.json(errorBody(err.code, err.message, err.fields), err.status);
  if (err instanceof DomainError) {
    const [status, code] = domainStatus[err.kind];
    return c.json(errorBody(err.code ?? code, err.message, err.fields), status);
  }
  if (err instanceof WrongExpectedRevisionError) {
    // handleCommand retried and the stream still kept moving: a transient clash, worth one more try.
    return c.json(errorBody('busy', 'Too many changes at once. Please try again.'), 409);
  }
  if (err instanceof HTTPException) {
    const status = err.status as ContentfulStatusCode;
    const code: ErrorCode = status === 413 ? 'payload_too_large' : status === 401 ? 'unauthenticated' : 'validation_failed';
    return c.json(errorBody(code, err.message || 'Bad request'), status);
  }
  console.error('[api] unexpected error', err);
  return c.json(errorBody('internal', 'Something went wrong. Please try again.'), 500);
}
