import type { ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { usePageTitle } from '../lib/usePageTitle.ts';

/** A screen whose content a later piece of work fills: its title, heading and a short note. */
export function PlaceholderScreen({ title, note, children }: { title: string; note?: string; children?: ReactNode }) {
  const { t } = useTranslation();
  usePageTitle(title);
  return (
    <section className="grid gap-4">
      <h1 className="text-2xl font-bold tracking-tight">{title}</h1>
      <p className="rounded-2xl border border-dashed border-slate-300 bg-white p-5 text-sm text-slate-600">
        {note ?? t('comingSoon')}
      </p>
      {children}
    </section>
  );
}
