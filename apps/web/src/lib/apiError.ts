import * as v from 'valibot';
import { ErrorBody } from '@kamai/contracts';
import { STATUS_AND_BODY } from './failure.ts';

// The status and JSON error body of a failed request, read apart from the client that made it
// (messages.ts reads them without importing api.ts, which would close a cycle through http.ts).

/** The parts of an error thrown by http.ts, or null for anything else (e.g. a network error). */
export function parseApiError(error: unknown): { status: number; body: ErrorBody | null } | null {
  if (!(error instanceof Error)) return null;
  const match = STATUS_AND_BODY.exec(error.message);
  if (!match) return null;
  let body: ErrorBody | null = null;
  try {
    const parsed = v.safeParse(ErrorBody, JSON.parse(match[2] ?? ''));
    if (parsed.success) body = parsed.output;
  } catch {
    // The body was not JSON (e.g. a proxy's HTML page): there is no server message to show.
  }
  return { status: Number(match[1]), body };
}

/** The HTTP status of a failed request, or null when the failure was not an HTTP answer. */
export function errorStatus(error: unknown): number | null {
  return parseApiError(error)?.status ?? null;
}
