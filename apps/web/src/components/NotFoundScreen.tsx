import { Link } from '@tanstack/react-router';
import { useTranslation } from 'react-i18next';
import { usePageTitle } from '../lib/usePageTitle.ts';

/** The screen of any path outside the route table. */
export function NotFoundScreen() {
  const { t } = useTranslation();
  usePageTitle(t('notFound.title'));
  return (
    <main className="mx-auto flex min-h-dvh w-full max-w-sm flex-col items-center justify-center gap-4 px-5 text-center">
      <div className="w-full rounded-2xl border border-slate-200 bg-white p-6 shadow-sm">
        <h1 className="text-2xl font-bold text-slate-900">{t('notFound.heading')}</h1>
        <p className="mt-3 text-sm text-slate-600">{t('notFound.body')}</p>
      </div>
      <Link to="/" className="inline-flex min-h-11 items-center text-sm font-medium text-emerald-700 hover:underline">
        {t('goHome')}
      </Link>
    </main>
  );
}
