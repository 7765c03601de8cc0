import { FIRST_SCREEN_FILE, FIRST_SCREEN_SLOTS, type FirstScreen, LANGUAGE_COOKIE, LOGIN_FORM_ERRORS, type Language, escapeHtml, isLanguage, safeRedirect } from '@kamai/contracts';
import type { Context } from 'hono';
import { getCookie } from 'hono/cookie';
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import type { AppEnv } from '../deps.ts';

export type SignInScreens = Record<Language, FirstScreen>;

/** The sign-in screen the web's build drew in each language (docs/first-screen.md), or null for a build without it. */
export function readSignInScreens(dist: string): SignInScreens | null {
  const file = join(dist, FIRST_SCREEN_FILE);
  return existsSync(file) ? (JSON.parse(readFileSync(file, 'utf8')) as SignInScreens) : null;
}

/** The form's switch (`?lang=`), else the app's choice on this device (its cookie), else the browser's first preference we speak, else English. */
export function readerLanguage(c: Context<AppEnv>): Language {
  const asked = askedLanguage(c);
  if (asked) return asked;
  const chosen = getCookie(c, LANGUAGE_COOKIE);
  if (isLanguage(chosen)) return chosen;
  for (const tag of (c.req.header('accept-language') ?? '').split(',')) {
    const base = tag.split(';')[0]?.trim().toLowerCase().split('-')[0];
    if (isLanguage(base)) return base;
  }
  return 'en';
}

/** The language asked for by the form's switch (`/login?lang=hi`), if any. */
export const askedLanguage = (c: Context<AppEnv>): Language | undefined => {
  const asked = c.req.query('lang');
  return isLanguage(asked) ? asked : undefined;
};

/** index.html with the sign-in form drawn into it: before the app's root, so the app takes it over (web first-screen/takeover.ts). */
export function withSignInForm(html: string, screens: SignInScreens, c: Context<AppEnv>): string {
  const language = readerLanguage(c);
  const screen = screens[language];
  const redirect = safeRedirect(c.req.query('redirect'));
  const error = LOGIN_FORM_ERRORS.find((code) => code === c.req.query('error'));
  const form = screen.html
    .replaceAll(FIRST_SCREEN_SLOTS.redirect, () => (redirect ? `<input type="hidden" name="redirect" value="${escapeHtml(redirect)}">` : ''))
    .replace(FIRST_SCREEN_SLOTS.error, () => (error ? screen.errors[error] : ''));
  // Replacers are functions throughout: a string replacement would read `$'` or `$&` in the reader's redirect as patterns.
  return html
    .replace(/<html lang="[^"]*">/, `<html lang="${language === 'hi' ? 'hi' : 'en-IN'}">`)
    .replace(/<title>[^<]*<\/title>/, () => `<title>${escapeHtml(screen.title)}</title>`)
    .replace('<div id="root"></div>', () => `${form}<div id="root"></div>`);
}
