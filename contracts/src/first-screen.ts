import type { LoginFormError } from './auth.ts';

/**
 * The sign-in screen drawn before the app runs (docs/first-screen.md): the web's build writes it, in
 * each language, to FIRST_SCREEN_FILE in its dist; the API reads that file and puts it into `/login`'s
 * page, filling the slots per request. What both sides must agree on lives here.
 */
export const FIRST_SCREEN_FILE = 'first-screen.json';
export const FIRST_SCREEN_ID = 'first-screen';
export const FIRST_SCREEN_SLOTS = { redirect: '<!--kamai-redirect-->', error: '<!--kamai-error-->' } as const;

/** One language's sign-in screen in FIRST_SCREEN_FILE (`{ en: FirstScreen, hi: FirstScreen }`). */
export interface FirstScreen {
  /** The markup to put before `<div id="root">`, with FIRST_SCREEN_SLOTS to fill. */
  html: string;
  /** The page's title, as the app sets it. */
  title: string;
  /** Each refusal's line (a `role="alert"` paragraph) in this language. */
  errors: Record<LoginFormError, string>;
}

/**
 * The reader's language as the server sees it: the app writes it beside its own storage, so the page
 * the server draws speaks the language the app will (web i18n/index.ts).
 */
export const LANGUAGE_COOKIE = 'kamai_lang';

/** Text made safe for the first screen's markup, in an element or a quoted attribute (both sides draw into it). */
export const escapeHtml = (value: string): string =>
  value.replace(/[&<>"']/g, (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' })[c] ?? c);
