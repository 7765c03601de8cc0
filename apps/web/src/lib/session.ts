import { type QueryClient, useQueryClient } from '@tanstack/react-query';
import type { UserBody } from '@kamai/contracts';
import { i18n, isLanguage, loadNamespaces, setLanguage } from '../i18n/index.ts';
import { useNavigate } from '@tanstack/react-router';
import { useCallback } from 'react';
import { currentUserQuery } from './queries.ts';
import { rememberSession } from './sessionHint.ts';
import { toast } from './toast.ts';

/** How long the "logged out" toast shows before the user is sent to /login. */
export const UNAUTHORIZED_REDIRECT_DELAY_MS = 500;

/** The toast of a withdrawal answered 401, and of a signed-out visit to /profile. */
export function toastSignedOut(): void {
  // A signed-in screen may not have fetched the sign-in texts yet.
  void loadNamespaces('auth').finally(() =>
    toast({ variant: 'destructive', title: i18n.t('auth:unauthorized.title'), description: i18n.t('auth:unauthorized.message') }),
  );
}

export { forgetSession, hadSession } from './sessionHint.ts';

/**
 * Watches the current user: remembers that this device had a session, and applies the language
 * stored on the account, which wins over the device's after sign-in.
 */
export function followSignedInUser(queryClient: QueryClient): void {
  queryClient.getQueryCache().subscribe((event) => {
    if (event.type !== 'updated' || event.query.queryKey[0] !== currentUserQuery().queryKey[0]) return;
    const user = event.query.state.data as UserBody | null | undefined;
    if (!user) return;
    rememberSession();
    if (isLanguage(user.language) && user.language !== i18n.language) void setLanguage(user.language);
  });
}

export const waitForSignedOutRedirect = () =>
  new Promise<void>((resolve) => setTimeout(resolve, UNAUTHORIZED_REDIRECT_DELAY_MS));

/**
 * For a request answered 401 while a screen thought the user was signed in (the session expired or
 * was ended elsewhere): the toast, then after 500 ms the user is forgotten and sent to /login. The
 * user must be forgotten first, or the sign-in screen's guard would send them home again.
 */
export function useSessionExpired(): () => void {
  const queryClient = useQueryClient();
  const navigate = useNavigate();
  return useCallback(() => {
    toastSignedOut();
    setTimeout(() => {
      queryClient.setQueryData(currentUserQuery().queryKey, null);
      // Signing in again returns to this page.
      const here = `${window.location.pathname}${window.location.search}${window.location.hash}`;
      void navigate({ to: '/login', search: { redirect: here } }).then(() => {
        // What the old session read must not show to whoever signs in next.
        queryClient.removeQueries({ predicate: (query) => query.queryKey[0] !== currentUserQuery().queryKey[0] });
      });
    }, UNAUTHORIZED_REDIRECT_DELAY_MS);
  }, [queryClient, navigate]);
}
