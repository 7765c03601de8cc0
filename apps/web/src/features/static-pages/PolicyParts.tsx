import type { ReactNode } from 'react';
import { useTranslation } from 'react-i18next';

/** The shared look of the static pages: a long, readable column of numbered sections. */

export function PolicyHeader({ title, updated, children }: { title: string; updated?: string; children?: ReactNode }) {
  const { t } = useTranslation('static-pages');
  return (
    <header className="grid gap-2 border-b border-slate-200 pb-5">
      <h1 className="text-3xl font-bold tracking-tight text-slate-900">{title}</h1>
      {updated && <p className="text-sm text-slate-500">{t('lastUpdated', { date: updated })}</p>}
      {children}
    </header>
  );
}

export function PolicySection({ id, title, children }: { id: string; title: string; children: ReactNode }) {
  return (
    <section aria-labelledby={id} className="grid scroll-mt-6 gap-3">
      <h2 id={id} className="text-lg font-semibold text-slate-900">
        {title}
      </h2>
      <div className="grid gap-3 text-[15px] leading-relaxed text-slate-700">{children}</div>
    </section>
  );
}

export function BulletList({ children }: { children: ReactNode }) {
  return <ul className="grid list-disc gap-1.5 pl-5 marker:text-emerald-600">{children}</ul>;
}

export function MailLink({ email }: { email: string }) {
  return (
    <a href={`mailto:${email}`} className="font-medium break-all text-emerald-700 underline-offset-2 hover:underline">
      {email}
    </a>
  );
}
