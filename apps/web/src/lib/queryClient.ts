import { QueryClient } from '@tanstack/react-query';
import { getQueryFn } from './http.ts';

/**
 * Reads are GETs of the joined query key, 401 is an error unless a query opts into
 * reading it as null, and the client never retries, never refetches on focus or on an interval, and
 * treats data as never stale. Fresh data comes only from mutations invalidating the keys they change.
 */
export function createQueryClient(): QueryClient {
  return new QueryClient({
    defaultOptions: {
      queries: {
        queryFn: getQueryFn({ on401: 'throw' }),
        retry: false,
        refetchOnWindowFocus: false,
        refetchInterval: false,
        staleTime: Infinity,
      },
      mutations: {
        retry: false,
      },
    },
  });
}
