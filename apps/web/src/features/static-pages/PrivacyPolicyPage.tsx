import { Link } from '@tanstack/react-router';
import { Trans, useTranslation } from 'react-i18next';
import { usePageTitle } from '../../lib/usePageTitle.ts';
import { BulletList, MailLink, PolicyHeader, PolicySection } from './PolicyParts.tsx';
import { useSupportEmail } from './supportEmail.ts';

/**
 * The sections in order; their words are in the static-pages namespace under `privacy.sections.<id>`:
 * a title, paragraphs (`body`), an optional list (`bullets`) and paragraphs after it (`after`).
 */
const SECTIONS = [
  'introduction',
  'information-we-collect',
  'how-we-use-it',
  'sharing',
  'security',
  'retention',
  'your-rights',
  'cookies',
  'third-party-links',
  'children',
  'international-transfers',
  'changes',
  'contact',
] as const;

interface SectionTexts {
  title: string;
  body?: string[];
  bullets?: string[];
  after?: string[];
}

/** Privacy policy: every section the spec lists, under Indian law. */
export function PrivacyPolicyPage() {
  const { t } = useTranslation('static-pages');
  usePageTitle(t('privacy.pageTitle'));
  const supportEmail = useSupportEmail();
  // Markup inside the texts: <b> bold lead-in, <mail/> the support address, <deletion> the deletion page (not <link>: a void element in HTML).
  const components = {
    b: <strong />,
    mail: <MailLink email={supportEmail} />,
    deletion: <Link to="/delete-account" className="font-medium text-emerald-700 hover:underline" />,
  };
  const text = (key: string) => <Trans t={t} i18nKey={key} components={components} />;

  return (
    <article className="grid gap-8 pb-10">
      <PolicyHeader title={t('privacy.pageTitle')} updated={t('privacy.updatedDate')}>
        <p className="text-[15px] leading-relaxed text-slate-700">{text('privacy.intro')}</p>
      </PolicyHeader>

      {SECTIONS.map((id) => {
        const section = t(`privacy.sections.${id}`, { returnObjects: true }) as SectionTexts;
        const key = `privacy.sections.${id}`;
        return (
          <PolicySection key={id} id={id} title={section.title}>
            {section.body?.map((_, index) => <p key={`b${index}`}>{text(`${key}.body.${index}`)}</p>)}
            {section.bullets && (
              <BulletList>
                {section.bullets.map((_, index) => (
                  <li key={index}>{text(`${key}.bullets.${index}`)}</li>
                ))}
              </BulletList>
            )}
            {section.after?.map((_, index) => <p key={`a${index}`}>{text(`${key}.after.${index}`)}</p>)}
          </PolicySection>
        );
      })}
    </article>
  );
}
