import { useQuery, useQueryClient } from '@tanstack/react-query';
import type { UserBody } from '@kamai/contracts';
import { useTranslation } from 'react-i18next';
import { LANGUAGES, type Language, setLanguage } from '../i18n/index.ts';
import { currentUserQuery } from '../lib/queries.ts';
import { languageButtonClasses, languageGroupClasses } from './styles.ts';

/**
 * English / हिन्दी, each named in its own language. The choice is remembered on this device at once
 * and, for a signed-in person, stored on the account (PUT /api/profile {language}) so it follows
 * them to other devices. A failed save keeps the device's choice; the next switch tries again.
 */
export function LanguageSwitch({ className = '' }: { className?: string }) {
  const { t } = useTranslation();
  const queryClient = useQueryClient();
  const { data: user } = useQuery(currentUserQuery());
  const { i18n: active } = useTranslation();
  const current = active.language === 'hi' ? 'hi' : 'en';

  const choose = async (language: Language) => {
    await setLanguage(language);
    if (!user) return;
    try {
      // The command client comes when it is needed: this switch is on the first screen.
      const { apiRequest, readJson } = await import('../lib/api.ts');
      const updated = await readJson<UserBody>(await apiRequest('PUT', '/api/profile', { language }));
      if (updated) queryClient.setQueryData(currentUserQuery().queryKey, updated);
    } catch {
      // The device remembers it; the account is told next time.
    }
  };

  return (
    <div role="group" aria-label={t('language.label')} className={`${languageGroupClasses} ${className}`}>
      {LANGUAGES.map((language) => (
        <button
          key={language}
          type="button"
          lang={language}
          aria-pressed={current === language}
          onClick={() => void choose(language)}
          className={languageButtonClasses}
        >
          {t(`language.${language}`)}
        </button>
      ))}
    </div>
  );
}
