import { afterEach, describe, expect, it, vi } from 'vitest';
import type { QueryFunctionContext } from '@tanstack/react-query';
import { apiRequest, getQueryFn, serverErrorMessage, serverFieldErrors, errorStatus } from './api.ts';
import { createQueryClient } from './queryClient.ts';
import { serverTexts } from '../i18n/serverTexts.ts';
import { i18n } from '../i18n/index.ts';

type FetchArgs = [input: string, init?: RequestInit];

function stubFetch(answer: () => Response) {
  const calls: FetchArgs[] = [];
  vi.stubGlobal('fetch', async (...args: FetchArgs) => {
    calls.push(args);
    return answer();
  });
  return calls;
}

const context = (queryKey: readonly unknown[]) =>
  ({ queryKey, signal: new AbortController().signal, meta: undefined }) as unknown as QueryFunctionContext;

const json = (status: number, body: unknown) =>
  new Response(JSON.stringify(body), { status, headers: { 'Content-Type': 'application/json' } });

afterEach(() => {
  vi.unstubAllGlobals();
});

describe('the default GET read', () => {
  it('joins the key segments with slashes, sends the cookie and parses JSON', async () => {
    const calls = stubFetch(() => json(200, { id: 't1' }));
    await expect(getQueryFn({ on401: 'throw' })(context(['/api/tasks', 't1']))).resolves.toEqual({ id: 't1' });
    expect(calls[0]?.[0]).toBe('/api/tasks/t1');
    expect(calls[0]?.[1]?.credentials).toBe('include');
  });

  it('reads a 401 as null when asked to, and as an error otherwise', async () => {
    stubFetch(() => json(401, { error: { code: 'unauthenticated', message: 'You are not signed in' } }));
    await expect(getQueryFn({ on401: 'returnNull' })(context(['/api/auth/user']))).resolves.toBeNull();
    await expect(getQueryFn({ on401: 'throw' })(context(['/api/auth/user']))).rejects.toThrow(
      '401: {"error":{"code":"unauthenticated","message":"You are not signed in"}}',
    );
  });

  it('uses the status text when the error body is empty', async () => {
    stubFetch(() => new Response('', { status: 503, statusText: 'Service Unavailable' }));
    await expect(getQueryFn({ on401: 'throw' })(context(['/api/settings']))).rejects.toThrow('503: Service Unavailable');
  });
});

describe('apiRequest', () => {
  it('sends JSON only when there is a body', async () => {
    const calls = stubFetch(() => new Response(null, { status: 204 }));
    await apiRequest('POST', '/api/auth/logout');
    await apiRequest('POST', '/api/auth/login', { mobile: '9876543210', password: 'secret1' });
    expect(calls[0]?.[1]).toMatchObject({ method: 'POST', body: undefined, headers: {}, credentials: 'include' });
    expect(calls[1]?.[1]).toMatchObject({
      body: '{"mobile":"9876543210","password":"secret1"}',
      headers: { 'Content-Type': 'application/json' },
    });
  });
});

describe('reading a server error', () => {
  const validation = {
    error: { code: 'validation_failed', message: 'Mobile number must be 10 digits', fields: { mobile: 'Mobile number must be 10 digits' } },
  };

  /** The error a real failed read throws (the server's texts load before it is thrown). */
  async function failedRead(answer: () => Response): Promise<unknown> {
    stubFetch(answer);
    try {
      await getQueryFn({ on401: 'throw' })(context(['/api/auth/user']));
    } catch (error) {
      return error;
    }
    return expect.fail('the read should fail');
  }

  it('gives the server message, its fields and its status, with the server texts already in', async () => {
    const error = await failedRead(() => json(400, validation));
    expect(serverTexts()).not.toBeNull();
    expect(serverErrorMessage(error, 'fallback')).toBe('Mobile number must be 10 digits');
    expect(serverFieldErrors(error)).toEqual({ mobile: 'Mobile number must be 10 digits' });
    expect(errorStatus(error)).toBe(400);
  });

  it('shows a full disk (503 storage_full) as busy, in the reader\'s language, and a bare 503 the same', async () => {
    const full = await failedRead(() =>
      json(503, { error: { code: 'storage_full', message: 'Kamai is busy, try again in a minute', key: 'api.storageFull' } }),
    );
    expect(serverErrorMessage(full, 'Failed to create account')).toBe('Kamai is busy, try again in a minute');
    const bare = await failedRead(() => new Response('<html>Service Unavailable</html>', { status: 503 }));
    expect(serverErrorMessage(bare, 'Failed to create account')).toBe('Kamai is busy, try again in a minute');
    await i18n.changeLanguage('hi');
    try {
      expect(serverErrorMessage(full, 'fallback')).toBe('Kamai अभी व्यस्त है, एक मिनट में फिर से कोशिश करें');
      expect(serverErrorMessage(bare, 'fallback')).toBe('Kamai अभी व्यस्त है, एक मिनट में फिर से कोशिश करें');
    } finally {
      await i18n.changeLanguage('en');
    }
  });

  it('falls back when the error carries no server message', async () => {
    const badGateway = await failedRead(() => new Response('<html>Bad Gateway</html>', { status: 502 }));
    expect(serverErrorMessage(badGateway, 'Failed to create account')).toBe('Failed to create account');
    expect(serverErrorMessage(new TypeError('Failed to fetch'), 'Failed to create account')).toBe('Check your internet connection');
    expect(serverFieldErrors(await failedRead(() => new Response('', { status: 401, statusText: 'Unauthorized' })))).toEqual({});
  });
});

describe('the query client', () => {
  it('never retries, never refetches on focus or interval, and treats data as never stale', () => {
    const queries = createQueryClient().getDefaultOptions().queries;
    expect(queries).toMatchObject({ retry: false, refetchOnWindowFocus: false, refetchInterval: false, staleTime: Infinity });
  });
});

describe('the log position (read-your-writes across API nodes)', () => {
  it('sends back the highest position a command answer named, on reads and commands after it', async () => {
    const calls = stubFetch(() => new Response('{}', { status: 201, headers: { 'Content-Type': 'application/json', 'kamai-position': '41' } }));
    await apiRequest('POST', '/api/withdrawals', { amount: 101 });
    stubFetch(() => new Response('{}', { status: 200, headers: { 'Content-Type': 'application/json', 'kamai-position': '7' } }));
    await apiRequest('POST', '/api/auth/logout');
    const reads = stubFetch(() => json(200, { id: 't1' }));
    await getQueryFn({ on401: 'throw' })(context(['/api/tasks', 't1']));
    expect(calls).toHaveLength(1);
    expect(new Headers(reads[0]?.[1]?.headers).get('kamai-position')).toBe('41');
  });
});
