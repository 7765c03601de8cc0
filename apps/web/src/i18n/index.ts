import i18n from 'i18next';
import { initReactI18next } from 'react-i18next';

/**
 * Every text the app shows goes through i18next (react-i18next's `useTranslation(namespace)`).
 * Texts live in `src/locales/<language>/<namespace>.json`, one namespace per feature; every file there
 * is picked up by the glob below, so a feature adds its own files and edits no registry.
 * English texts are the product spec's, word for word.
 */
export const LANGUAGES = ['en', 'hi'] as const;
export type Language = (typeof LANGUAGES)[number];

/** The device remembers the choice; the signed-in user's profile stores it too. */
export const LANGUAGE_STORAGE_KEY = 'kamai.language';

type Texts = { [key: string]: string | Texts };
const files = import.meta.glob<{ default: Texts }>('../locales/*/*.json', { eager: true });

/** language -> namespace -> texts, from the locale files. */
export const resources: Record<string, Record<string, Texts>> = {};
for (const [path, module] of Object.entries(files)) {
  const match = /locales\/([\w-]+)\/([\w-]+)\.json$/.exec(path);
  if (!match) continue;
  const [, language = '', namespace = ''] = match;
  (resources[language] ??= {})[namespace] = module.default;
}

export function isLanguage(value: unknown): value is Language {
  return typeof value === 'string' && (LANGUAGES as readonly string[]).includes(value);
}

/** The remembered choice, else the browser's first preference that we speak, else English. */
export function initialLanguage(): Language {
  try {
    const stored = globalThis.localStorage?.getItem(LANGUAGE_STORAGE_KEY);
    if (isLanguage(stored)) return stored;
  } catch {
    // Storage can be blocked (private mode); fall back to the browser's preference.
  }
  const preferred = globalThis.navigator?.languages ?? [];
  for (const tag of preferred) {
    const base = tag.toLowerCase().split('-')[0];
    if (isLanguage(base)) return base;
  }
  return 'en';
}

/** Switches the app's language, remembers it on this device and marks the document for screen readers. */
export async function setLanguage(language: Language): Promise<void> {
  try {
    globalThis.localStorage?.setItem(LANGUAGE_STORAGE_KEY, language);
  } catch {
    // Not remembered on this device; the profile still stores it for a signed-in user.
  }
  await i18n.changeLanguage(language);
}

i18n.on('languageChanged', (language) => {
  if (typeof document !== 'undefined') document.documentElement.lang = language;
});

void i18n.use(initReactI18next).init({
  resources,
  lng: initialLanguage(),
  fallbackLng: 'en',
  defaultNS: 'common',
  // React escapes what it renders.
  interpolation: { escapeValue: false },
  returnNull: false,
});

export { i18n };
