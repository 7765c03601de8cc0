/**
 * How a failed request is shaped, with no imports: http.ts makes these errors, and the modules that
 * read them (apiError.ts, serverError.ts) depend on this shape alone, not on each other.
 */

/** An Error thrown by `throwIfNotOk` (http.ts): group 1 the status, group 2 the body. */
export const STATUS_AND_BODY = /^(\d{3}): ([\s\S]*)$/;

/** The request never reached the server (fetch rejects with a TypeError), or the device is offline. */
export function isNetworkFailure(error: unknown): boolean {
  if (error instanceof Error && STATUS_AND_BODY.test(error.message)) return false;
  return error instanceof TypeError || globalThis.navigator?.onLine === false;
}
