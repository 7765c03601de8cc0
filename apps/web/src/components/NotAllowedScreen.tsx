import { Link } from '@tanstack/react-router';
import { useTranslation } from 'react-i18next';
import { usePageTitle } from '../lib/usePageTitle.ts';
import { LockIcon } from './icons.tsx';

/**
 * Shown in place of a staff screen to a signed-in user without its role. The server refuses the
 * screen's calls anyway; this keeps the page from looking broken.
 */
export function NotAllowedScreen({ what }: { what?: string }) {
  const { t } = useTranslation();
  usePageTitle(t('notAllowed.title'));
  return (
    <section className="grid gap-4 pt-10 text-center">
      <div className="rounded-2xl border border-slate-200 bg-white p-6 shadow-sm">
        <span aria-hidden="true" className="mx-auto grid size-14 place-items-center rounded-full bg-amber-100 text-amber-700">
          <LockIcon className="size-7" />
        </span>
        <h1 className="mt-4 text-2xl font-bold tracking-tight text-slate-900">{t('notAllowed.title')}</h1>
        <p className="mt-2 text-sm text-slate-600">{t('notAllowed.body', { what: what ?? t('notAllowed.thisPage') })}</p>
      </div>
      <Link to="/" className="inline-flex min-h-11 items-center text-sm font-medium text-emerald-700 hover:underline">
        {t('goHome')}
      </Link>
    </section>
  );
}
