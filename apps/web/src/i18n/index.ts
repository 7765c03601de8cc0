import i18n, { type BackendModule } from 'i18next';
import { initReactI18next } from 'react-i18next';
import { LANGUAGE_COOKIE, LANGUAGES, type Language, isLanguage } from '@kamai/contracts';

/**
 * Every text the app shows goes through i18next (react-i18next's `useTranslation(namespace)`).
 * Texts live in `src/locales/<language>/<namespace>.json`, one namespace per feature; every file there
 * is picked up by the glob below, so a feature adds its own files and edits no registry.
 * English texts are the product spec's, word for word.
 *
 * Each file is a chunk of its own, fetched when first needed and only in the reader's language: the
 * first screen waits for a few small files instead of every text of both languages. A component
 * whose namespace has not arrived yet suspends (react-i18next) until it has; route loaders ask for
 * their screen's namespaces early (`loadNamespaces`), and the rest arrive once the first screen shows.
 */
// One list of languages for the app, the API and the first screen: the contracts'.
export { LANGUAGES, type Language, isLanguage };

/** The device remembers the choice; the signed-in user's profile stores it too. */
export const LANGUAGE_STORAGE_KEY = 'kamai.language';

export type Texts = { [key: string]: string | Texts };
const files = import.meta.glob<{ default: Texts }>('../locales/*/*.json');

/** language -> namespace -> loader of that file. */
const loaders: Record<string, Record<string, () => Promise<{ default: Texts }>>> = {};
for (const [path, load] of Object.entries(files)) {
  const match = /locales\/([\w-]+)\/([\w-]+)\.json$/.exec(path);
  if (!match) continue;
  const [, language = '', namespace = ''] = match;
  (loaders[language] ??= {})[namespace] = load;
}

/** Every namespace of the app, known from the file names without loading any file. */
export const NAMESPACES: readonly string[] = [...new Set(Object.values(loaders).flatMap((byNamespace) => Object.keys(byNamespace)))].sort();

/**
 * What any screen may show before its own namespace: the shell's texts and the web's own error texts.
 * The server's texts (`messages`) come when first needed (serverTexts.ts).
 */
const ALWAYS = ['common', 'errors'];

const localeFiles: BackendModule = {
  type: 'backend',
  init() {},
  read(language, namespace, callback) {
    const load = loaders[language]?.[namespace];
    if (!load) return callback(new Error(`no texts for ${language}/${namespace}`), false);
    load().then(
      (module) => callback(null, module.default),
      // i18next retries a failed read a few times (a flaky network), then the key shows.
      (error: unknown) => callback(error instanceof Error ? error : String(error), false),
    );
  },
};

/**
 * The choice in a cookie too, which the server reads to draw /login's form in the language the app
 * will speak (docs/first-screen.md).
 */
function rememberForServer(language: Language): void {
  if (typeof document === 'undefined') return;
  const secure = globalThis.location?.protocol === 'https:' ? '; secure' : '';
  document.cookie = `${LANGUAGE_COOKIE}=${language}; path=/; max-age=31536000; samesite=lax${secure}`;
}

function cookieLanguage(): Language | undefined {
  if (typeof document === 'undefined') return undefined;
  const value = document.cookie.split('; ').find((pair) => pair.startsWith(`${LANGUAGE_COOKIE}=`))?.slice(LANGUAGE_COOKIE.length + 1);
  return isLanguage(value) ? value : undefined;
}

/** The language the server's sign-in form was switched to before the app ran (`/login?lang=hi`): the newest choice. */
function askedInUrl(): Language | undefined {
  const asked = new URLSearchParams(globalThis.location?.search ?? '').get('lang');
  return isLanguage(asked) ? asked : undefined;
}

/**
 * A choice made on the server's form (?lang=), else the remembered one, else the one the server was
 * told (its cookie), else the browser's first preference that we speak, else English.
 */
export function initialLanguage(): Language {
  const asked = askedInUrl();
  if (asked) return asked;
  try {
    const stored = globalThis.localStorage?.getItem(LANGUAGE_STORAGE_KEY);
    if (isLanguage(stored)) return stored;
  } catch {
    // Storage can be blocked (private mode); fall back to the browser's preference.
  }
  const told = cookieLanguage();
  if (told) return told;
  const preferred = globalThis.navigator?.languages ?? [];
  for (const tag of preferred) {
    const base = tag.toLowerCase().split('-')[0];
    if (isLanguage(base)) return base;
  }
  return 'en';
}

/** The choice kept on this device, and in the cookie the server reads. */
function remember(language: Language): void {
  rememberForServer(language);
  try {
    globalThis.localStorage?.setItem(LANGUAGE_STORAGE_KEY, language);
  } catch {
    // Not remembered on this device (storage blocked): the cookie still is, and the profile for a signed-in user.
  }
}

/** Switches the app's language, remembers it on this device and marks the document for screen readers. */
export async function setLanguage(language: Language): Promise<void> {
  remember(language);
  // Loads every namespace loaded so far in the new language, then switches.
  await i18n.changeLanguage(language);
}

i18n.on('languageChanged', (language) => {
  if (typeof document !== 'undefined') document.documentElement.lang = language;
});

const startLanguage = initialLanguage();
if (askedInUrl()) {
  remember(startLanguage);
  // Taken: a reload or a shared link must not undo a later choice made in the app.
  const url = new URL(globalThis.location.href);
  url.searchParams.delete('lang');
  globalThis.history.replaceState(globalThis.history.state, '', url);
} else {
  rememberForServer(startLanguage);
}

/** Resolves once the init has run and these namespaces of the current language are in. */
export const initialized = i18n
  .use(localeFiles)
  .use(initReactI18next)
  .init({
    lng: startLanguage,
    supportedLngs: LANGUAGES,
    // Every key exists in both languages (locales.unit.spec.ts), so a Hindi reader never needs the
    // English files: no fallback language to fetch alongside.
    fallbackLng: false,
    load: 'currentOnly',
    ns: ALWAYS,
    defaultNS: 'common',
    // React escapes what it renders.
    interpolation: { escapeValue: false },
    returnNull: false,
    // No advertisement in the reader's console.
    showSupportNotice: false,
  });

/** Fetches namespaces of the current language (a route's loader asks for its screen's, early). */
export async function loadNamespaces(...namespaces: string[]): Promise<void> {
  await initialized;
  await i18n.loadNamespaces(namespaces);
}

/** Every namespace of the current language, e.g. once the first screen has shown; tests load them all. */
export function loadAllNamespaces(): Promise<void> {
  return loadNamespaces(...NAMESPACES);
}

export { i18n };
