import type { QueryFunction } from '@tanstack/react-query';
import { loadServerTexts } from '../i18n/serverTexts.ts';
import { positionHeaders } from './logPosition.ts';

/**
 * The reads the first screen needs (the signed-in user, the default query function) and how a
 * failed request is shaped, without the schemas and texts of api.ts: this module is in the first
 * download, api.ts (commands, the server's error messages) comes with the screens that use it.
 * A failed request becomes an Error whose message is `{status}: {body text}` (or the status text
 * when the body is empty).
 */

export async function throwIfNotOk(response: Response): Promise<void> {
  if (response.ok) return;
  const bodyText = await response.text();
  // Whatever shows this failure shows the server's text in the reader's language from its first frame.
  await loadServerTexts().catch(() => undefined);
  throw new Error(`${response.status}: ${bodyText || response.statusText}`);
}

export { isNetworkFailure } from './failure.ts';

/** Reads a JSON answer; a 204 or an empty body reads as null. */
export async function readJson<T>(response: Response): Promise<T | null> {
  const text = await response.text();
  if (!text) return null;
  const data: unknown = JSON.parse(text);
  return data as T;
}

/** What a GET read does with a 401: fail like any error, or read "not signed in" as null. */
export type On401 = 'returnNull' | 'throw';

/**
 * The default GET read: the URL is the query key's segments joined with '/', e.g.
 * `['/api/tasks', id]` -> `/api/tasks/{id}`.
 */
export function getQueryFn<T>({ on401 }: { on401: On401 }): QueryFunction<T | null> {
  return async ({ queryKey, signal }) => {
    const response = await fetch(queryKey.map(String).join('/'), { credentials: 'include', signal, headers: positionHeaders() });
    if (on401 === 'returnNull' && response.status === 401) return null;
    await throwIfNotOk(response);
    return readJson<T>(response);
  };
}

/** A GET read that never answers null (401 is an error), for queries whose data must exist. */
export function getJson<T>(): QueryFunction<T> {
  const read = getQueryFn<T>({ on401: 'throw' });
  return async (context) => {
    const data = await read(context);
    if (data === null) throw new Error(`Empty answer from ${context.queryKey.map(String).join('/')}`);
    return data;
  };
}

/** Every page of a paged list, following its `X-Next-Cursor` header, so nothing is cut off. */
export async function getAllPages<T>(url: string, signal?: AbortSignal): Promise<T[]> {
  const rows: T[] = [];
  const join = url.includes('?') ? '&' : '?';
  for (let cursor: string | null = null; ; ) {
    const response: Response = await fetch(cursor ? `${url}${join}cursor=${encodeURIComponent(cursor)}` : url, { credentials: 'include', signal, headers: positionHeaders() });
    await throwIfNotOk(response);
    rows.push(...((await response.json()) as T[]));
    cursor = response.headers.get('x-next-cursor');
    if (!cursor) return rows;
  }
}
