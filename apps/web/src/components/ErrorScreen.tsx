import type { ErrorComponentProps } from '@tanstack/react-router';
import { useRouter, useRouterState } from '@tanstack/react-router';
import { useQueryErrorResetBoundary } from '@tanstack/react-query';
import { useEffect, useState } from 'react';
import { Button } from './Button.tsx';
import { useTranslation } from 'react-i18next';
import { usePageTitle } from '../lib/usePageTitle.ts';
import { isNetworkFailure } from '../lib/http.ts';
import { useWhenBackOnline } from '../lib/backOnline.ts';
import { mayHaveSession } from '../lib/sessionHint.ts';
import { SignedInLayout, useInSignedInLayout } from './layouts.tsx';

/**
 * Shown when a route cannot load (e.g. the API is unreachable); offers to try again, and tries again
 * by itself when the device comes back online. Inside the signed-in frame it replaces only the
 * content; without one (the signed-in user could not be read) it brings the frame along when this
 * browser has a session, so the bottom bar stays.
 */
export function ErrorScreen({ error }: ErrorComponentProps) {
  const inLayout = useInSignedInLayout();
  const guest = useRouterState({ select: (state) => /^\/(login|register|forgot-password)\b/.test(state.location.pathname) });
  if (inLayout) return <ErrorCard error={error} />;
  if (!guest && mayHaveSession()) {
    return (
      <SignedInLayout>
        <ErrorCard error={error} />
      </SignedInLayout>
    );
  }
  return (
    <main className="mx-auto flex min-h-dvh w-full max-w-sm flex-col justify-center px-5">
      <ErrorCard error={error} />
    </main>
  );
}

function ErrorCard({ error }: { error: unknown }) {
  const { t } = useTranslation();
  const offline = isNetworkFailure(error);
  usePageTitle(offline ? t('offline.title') : t('error.title'));
  const router = useRouter();
  const queryErrorResetBoundary = useQueryErrorResetBoundary();

  useEffect(() => {
    // Let queries that failed inside this boundary fetch again on retry.
    queryErrorResetBoundary.reset();
  }, [queryErrorResetBoundary]);
  useWhenBackOnline(() => void router.invalidate(), offline);

  // The server's words for the failure. api.ts (error schemas, translated messages) is not part of
  // the first download, so it is fetched when an error shows; offline, the offline text needs none.
  const [message, setMessage] = useState<string | null>(null);
  const fallback = t('error.body');
  useEffect(() => {
    if (offline) return;
    let current = true;
    void import('../lib/api.ts')
      .then(({ failureMessage }) => current && setMessage(failureMessage(error, fallback)))
      .catch(() => undefined);
    return () => {
      current = false;
    };
  }, [error, offline, fallback]);

  return (
    <div className="grid gap-4 pt-4" data-testid="load-failed">
      <div role="alert" className="rounded-2xl border border-red-200 bg-white p-6 shadow-sm">
        <h1 className="text-xl font-bold text-slate-900">{offline ? t('offline.title') : t('error.title')}</h1>
        <p className="mt-2 text-sm break-words text-slate-600">{offline ? t('offline.check') : (message ?? fallback)}</p>
        {offline && <p className="mt-2 text-sm text-slate-600">{t('offline.retrying')}</p>}
      </div>
      <Button onClick={() => void router.invalidate()}>{t('tryAgain')}</Button>
    </div>
  );
}
