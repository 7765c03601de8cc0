import { useQuery } from '@tanstack/react-query';
import { Link } from '@tanstack/react-router';
import { Trans, useTranslation } from 'react-i18next';
import { AlertTriangleIcon, MailIcon } from '../../components/icons.tsx';
import { currentUserQuery } from '../../lib/queries.ts';
import { usePageTitle } from '../../lib/usePageTitle.ts';
import { DeletionRequestPanel } from './DeletionRequestPanel.tsx';
import { BulletList, MailLink, PolicyHeader, PolicySection } from './PolicyParts.tsx';
import { deletionMailto, useSupportEmail } from './supportEmail.ts';

/** A deletion request usually takes 3-7 business days (the text is in the static-pages namespace). */
const STEP_COUNT = 4;

/** Delete account: warning, what goes, the steps, legal retention, the request mail. */
export function DeleteAccountPage() {
  const { t } = useTranslation('static-pages');
  usePageTitle(t('deleteAccount.pageTitle'));
  const supportEmail = useSupportEmail();
  const { data: user } = useQuery(currentUserQuery());
  const components = { nowrap: <span className="whitespace-nowrap" />, mail: <MailLink email={supportEmail} /> };
  const what = t('deleteAccount.what', { returnObjects: true }) as string[];

  return (
    <article className="grid gap-8 pb-10">
      <PolicyHeader title={t('deleteAccount.pageTitle')}>
        <p className="text-[15px] leading-relaxed text-slate-700">{t('deleteAccount.intro')}</p>
      </PolicyHeader>

      <div role="note" className="flex gap-3 rounded-2xl border border-amber-300 bg-amber-50 p-4 text-amber-900">
        <AlertTriangleIcon className="mt-0.5 size-5 shrink-0 text-amber-600" />
        <div className="grid gap-1 text-[15px] leading-relaxed">
          <p className="font-semibold">{t('deleteAccount.permanent')}</p>
          <p>{t('deleteAccount.permanentBody')}</p>
        </div>
      </div>

      <PolicySection id="what-is-deleted" title={t('deleteAccount.whatTitle')}>
        <BulletList>
          {what.map((item) => (
            <li key={item}>{item}</li>
          ))}
        </BulletList>
      </PolicySection>

      <PolicySection id="how-it-works" title={t('deleteAccount.howTitle')}>
        <ol className="grid gap-4">
          {Array.from({ length: STEP_COUNT }, (_, index) => (
            <li key={index} className="flex gap-3">
              <span
                aria-hidden="true"
                className="grid size-8 shrink-0 place-items-center rounded-full bg-emerald-700 text-sm font-bold text-white"
              >
                {index + 1}
              </span>
              <div className="grid gap-0.5">
                <p className="font-semibold text-slate-900">{t(`deleteAccount.steps.${index}.title`)}</p>
                <p>
                  <Trans t={t} i18nKey={`deleteAccount.steps.${index}.text`} components={components} />
                </p>
              </div>
            </li>
          ))}
        </ol>
      </PolicySection>

      <PolicySection id="legal-retention" title={t('deleteAccount.keepTitle')}>
        <p>{t('deleteAccount.keep')}</p>
      </PolicySection>

      <section aria-labelledby="request-heading" className="grid gap-3 rounded-2xl border border-slate-200 bg-white p-5 shadow-sm">
        <h2 id="request-heading" className="text-lg font-semibold text-slate-900">
          {t('deleteAccount.readyTitle')}
        </h2>
        <p className="text-[15px] leading-relaxed text-slate-700">
          <Trans t={t} i18nKey={user ? 'deleteAccount.readySignedIn' : 'deleteAccount.readySignedOut'} components={components} />
        </p>
        <a
          href={deletionMailto(supportEmail, user)}
          className="inline-flex h-12 w-full items-center justify-center gap-2 rounded-xl bg-red-700 px-4 text-base font-semibold text-white shadow-sm transition hover:bg-red-800 focus:outline-none focus-visible:ring-2 focus-visible:ring-red-600 focus-visible:ring-offset-2"
        >
          <MailIcon className="size-5" />
          {t('deleteAccount.request')}
        </a>
      </section>

      {user ? <DeletionRequestPanel /> : null}

      <nav aria-label={t('deleteAccount.more')} className="flex flex-wrap gap-x-6 gap-y-2 text-sm font-medium">
        <Link to="/privacy-policy" className="inline-flex min-h-11 items-center text-emerald-700 hover:underline">
          {t('deleteAccount.readPolicy')}
        </Link>
        <Link to="/" className="inline-flex min-h-11 items-center text-emerald-700 hover:underline">
          {t('common:goHome')}
        </Link>
      </nav>
    </article>
  );
}
