import { queryOptions } from '@tanstack/react-query';
import type { UserBody } from '@kamai/contracts';
import { getQueryFn } from './api.ts';

/**
 * Every server read of the app, one `queryOptions` factory each. A route's `beforeLoad`/`loader`
 * ensures the data with the same factory its component then reads, and a mutation invalidates exactly
 * the keys it changes (`queryClient.invalidateQueries({ queryKey: currentUserQuery().queryKey })`).
 * A key is the request path: the default query function joins its segments with '/'.
 */

/** The signed-in user; null when not signed in (the API answers 401). */
export const currentUserQuery = () =>
  queryOptions({
    queryKey: ['/api/auth/user'],
    queryFn: getQueryFn<UserBody>({ on401: 'returnNull' }),
  });
