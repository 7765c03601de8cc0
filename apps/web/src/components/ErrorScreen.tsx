import type { ErrorComponentProps } from '@tanstack/react-router';
import { useRouter } from '@tanstack/react-router';
import { useQueryErrorResetBoundary } from '@tanstack/react-query';
import { useEffect, useState } from 'react';
import { Button } from './Button.tsx';
import { useTranslation } from 'react-i18next';
import { usePageTitle } from '../lib/usePageTitle.ts';
import { isNetworkFailure } from '../lib/http.ts';

/** Shown when a route cannot load (e.g. the API is unreachable); offers to try again. */
export function ErrorScreen({ error }: ErrorComponentProps) {
  const { t } = useTranslation();
  const offline = isNetworkFailure(error);
  usePageTitle(offline ? t('offline.title') : t('error.title'));
  const router = useRouter();
  const queryErrorResetBoundary = useQueryErrorResetBoundary();

  useEffect(() => {
    // Let queries that failed inside this boundary fetch again on retry.
    queryErrorResetBoundary.reset();
  }, [queryErrorResetBoundary]);

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
    <main className="mx-auto flex min-h-dvh w-full max-w-sm flex-col justify-center gap-4 px-5">
      <div role="alert" className="rounded-2xl border border-red-200 bg-white p-6 shadow-sm">
        <h1 className="text-xl font-bold text-slate-900">{offline ? t('offline.title') : t('error.title')}</h1>
        <p className="mt-2 text-sm break-words text-slate-600">
          {offline ? t('offline.check') : (message ?? fallback)}
        </p>
      </div>
      <Button onClick={() => void router.invalidate()}>{t('tryAgain')}</Button>
    </main>
  );
}
