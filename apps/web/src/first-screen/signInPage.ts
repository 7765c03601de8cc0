export { FIRST_SCREEN_FILE, LANGUAGES } from '@kamai/contracts';
import { FIRST_SCREEN_ID, FIRST_SCREEN_SLOTS as SLOTS, type FirstScreen, escapeHtml, LANGUAGES, LOGIN_FORM_ERRORS, type Language, type LoginFormError } from '@kamai/contracts';
import {
  boxClasses,
  buttonVariantClasses,
  cardClasses,
  eyeButtonClasses,
  fieldFrameClasses,
  forgotLinkClasses,
  guestMainClasses,
  inputClasses,
  labelClasses,
  languageButtonClasses,
  languageGroupClasses,
  linkClasses,
  prefixClasses,
  buttonClasses,
} from '../components/styles.ts';
import { LOGIN_ERROR_TEXT, loginErrorClasses } from './errors.ts';

/**
 * The sign-in screen as HTML, drawn by the build (vite.config.ts) in each language from the app's own
 * texts and served by the API inside `/login`'s page, so a reader on a slow network can type and
 * sign in before the app's script has arrived (docs/first-screen.md). It mirrors GuestLayout and
 * LoginScreen element for element with the same classes (components/styles.ts), so the app's
 * takeover (takeover.ts) neither flashes nor moves anything. No script: the form posts to
 * POST /api/auth/login/form, and the language switch asks the server for the other language.
 */

type Texts = { [key: string]: string | Texts };

function text(texts: Texts, path: string): string {
  const found = path.split('.').reduce<string | Texts | undefined>((node, key) => (typeof node === 'object' ? node[key] : undefined), texts);
  if (typeof found !== 'string') throw new Error(`no text at ${path}`);
  return found;
}

/** The sign-in screen in one language: `common` and `auth` are that language's locale files. */
export function signInPage(language: Language, common: Texts, auth: Texts): FirstScreen {
  const t = (path: string) => escapeHtml(path.startsWith('common:') ? text(common, path.slice(7)) : text(auth, path));
  const languages = LANGUAGES
    .map(
      (other) =>
        `<button type="submit" name="lang" value="${other}" lang="${other}" aria-pressed="${other === language}" class="${languageButtonClasses}">${t(`common:language.${other}`)}</button>`,
    )
    .join('');
  const eye =
    '<svg viewBox="0 0 24 24" fill="none" stroke="currentColor" stroke-width="2" stroke-linecap="round" stroke-linejoin="round" aria-hidden="true" class="size-5"><path d="M2 12s3.5-7 10-7 10 7 10 7-3.5 7-10 7S2 12 2 12Z"></path><circle cx="12" cy="12" r="3"></circle></svg>';
  const html =
    `<main id="${FIRST_SCREEN_ID}" class="${guestMainClasses}">` +
    '<div class="mb-8 grid gap-2"><div class="flex items-center justify-between gap-3">' +
    '<div class="flex items-center gap-2"><span aria-hidden="true" class="grid size-10 place-items-center rounded-xl bg-emerald-700 text-xl font-bold text-white">₹</span>' +
    '<span class="text-2xl font-bold tracking-tight text-slate-900">Kamai</span></div>' +
    `<form method="get" action="/login" role="group" aria-label="${t('common:language.label')}" class="${languageGroupClasses} ">${SLOTS.redirect}${languages}</form>` +
    `</div><p class="text-sm text-slate-600">${t('common:tagline')}</p></div>` +
    `<section class="${cardClasses}"><h1 class="text-2xl font-bold tracking-tight">${t('login.heading')}</h1>` +
    `<p class="mt-1 text-sm text-slate-600">${t('login.intro')}</p>` +
    `<form method="post" action="/api/auth/login/form" class="mt-6 grid gap-4">${SLOTS.redirect}${SLOTS.error}` +
    `<div class="${fieldFrameClasses}"><label for="first-mobile" class="${labelClasses}">${t('common:fields.mobile')}</label>` +
    `<div class="${boxClasses(undefined)}"><span aria-hidden="true" class="${prefixClasses}">+91</span>` +
    `<input id="first-mobile" name="mobile" type="tel" inputmode="numeric" autocomplete="tel-national" required placeholder="${t('common:fields.mobilePlaceholder')}" class="${inputClasses}"></div></div>` +
    `<div class="${fieldFrameClasses}"><label for="first-password" class="${labelClasses}">${t('common:fields.password')}</label>` +
    `<div class="${boxClasses(undefined)}"><input id="first-password" name="password" type="password" autocomplete="current-password" required placeholder="${t('login.passwordPlaceholder')}" class="${inputClasses}">` +
    // Shows the password once the app has taken over; before that it only keeps the field's shape.
    `<button type="button" aria-label="${t('common:fields.showPassword')}" aria-controls="first-password" class="${eyeButtonClasses}">${eye}</button></div></div>` +
    `<a href="/forgot-password" class="${forgotLinkClasses}">${t('login.forgot')}</a>` +
    `<button type="submit" class="${buttonClasses} ${buttonVariantClasses.primary} mt-2">${t('login.submit')}</button>` +
    `</form><p class="mt-6 text-center text-sm text-slate-600">${t('login.newHere')} <a href="/register" class="${linkClasses}">${t('login.createAccount')}</a></p>` +
    '</section></main>';
  const errors = Object.fromEntries(
    LOGIN_FORM_ERRORS.map((code) => [code, `<p role="alert" class="${loginErrorClasses}">${t(LOGIN_ERROR_TEXT[code])}</p>`]),
  ) as Record<LoginFormError, string>;
  return { html, title: `${text(auth, 'login.pageTitle')} | Kamai`, errors };
}

