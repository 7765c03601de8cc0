import { IDEMPOTENT_COMMANDS } from '@kamai/contracts';
import { throwIfNotOk } from './http.ts';
import { positionHeaders, rememberPosition } from './logPosition.ts';

export { errorStatus, parseApiError } from './apiError.ts';

export { type On401, getAllPages, getJson, getQueryFn, isNetworkFailure, readJson } from './http.ts';
export { failureMessage, serverErrorMessage, serverFieldErrors } from './serverError.ts';

/**
 * The HTTP client of the app. Every request sends the session cookie; a failed one
 * becomes an Error whose message is `{status}: {body text}` (or the status text when the body is
 * empty), so screens can show the server's words and forms can map its `fields`.
 */

export type HttpMethod = 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE';

/** Network failures a command is sent again after, with the same Idempotency-Key. */
const COMMAND_RETRIES = 2;

/** A CSV file's text sent as the request body itself (`Content-Type: text/csv`), not as JSON. */
export class CsvBody {
  constructor(readonly text: string) {}
}

/**
 * For mutations: sends `body` as JSON only when there is one; throws on any non-2xx answer.
 * Money and review commands carry an Idempotency-Key and are sent again with the same key when the
 * network fails, so a retry is answered, never done twice. The key is the user action's when the
 * caller passes one in `extraHeaders` (sendOnce.ts: made when the dialog opens), else one per call.
 */
export async function apiRequest(method: HttpMethod, url: string, body?: unknown, extraHeaders: Record<string, string> = {}): Promise<Response> {
  const raw = body instanceof CsvBody;
  const headers: Record<string, string> =
    body === undefined ? { ...positionHeaders(), ...extraHeaders } : { 'Content-Type': raw ? 'text/csv' : 'application/json', ...positionHeaders(), ...extraHeaders };
  const idempotent = method === 'POST' && IDEMPOTENT_COMMANDS.some((route) => route.test(url.split('?')[0] ?? ''));
  if (idempotent && !headers['Idempotency-Key']) headers['Idempotency-Key'] = crypto.randomUUID();
  for (let attempt = 0; ; attempt++) {
    let response: Response;
    try {
      response = await fetch(url, {
        method,
        headers,
        body: body === undefined ? undefined : body instanceof CsvBody ? body.text : JSON.stringify(body),
        credentials: 'include',
      });
    } catch (err) {
      if (!idempotent || attempt >= COMMAND_RETRIES) throw err;
      await new Promise((resolve) => setTimeout(resolve, 300 * (attempt + 1)));
      continue;
    }
    rememberPosition(response);
    await throwIfNotOk(response);
    return response;
  }
}

