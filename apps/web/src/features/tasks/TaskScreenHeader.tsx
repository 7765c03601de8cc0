import { useTranslation } from 'react-i18next';
import { Link } from '@tanstack/react-router';
import { ArrowLeftIcon } from '../../components/icons.tsx';

/** The heading of the task screens: a link back to Home, the title and a line under it. */
export function TaskScreenHeader({ title, subtitle }: { title: string; subtitle: string }) {
  const { t } = useTranslation();
  return (
    <header className="grid gap-3">
      <Link to="/" aria-label={t('backToHome')} className="inline-flex min-h-11 w-fit items-center gap-2 text-sm font-medium text-emerald-700 hover:underline">
        <ArrowLeftIcon className="size-4" />
        {t('back')}
      </Link>
      <div>
        <h1 className="text-2xl font-bold tracking-tight">{title}</h1>
        <p className="mt-1 text-sm text-slate-600">{subtitle}</p>
      </div>
    </header>
  );
}
