import { type MessageParams, NOTIFICATION_TEXTS, refusalOf, renderText } from '@kamai/contracts';
import { parseApiError } from '../lib/apiError.ts';
import { i18n } from './index.ts';

/**
 * Texts the server wrote, shown in the reader's language.
 *
 * - Notifications and ledger descriptions come with a message key and parameters: the template of the
 *   `messages` namespace is filled in (money as rupees in the reader's locale). Entries recorded before
 *   texts were keys carry no key and keep their English text.
 * - The server's error body names its message by catalogue key and parameters (`key`, `params`,
 *   `fieldKeys`): `serverMessage` shows the `messages` namespace's `server.<key>` in the reader's
 *   language.
 * - The `messages` namespace is not in the first download: a module that calls these while rendering
 *   is in a later chunk whose route loads it (routes/_authed.tsx), or takes them from
 *   `useServerTexts` (serverTexts.ts).
 * - The contracts' form schemas name their refusals by catalogue key (contracts/src/refusal.ts), as the
 *   server's `fieldKeys` do: `refusalInLanguage` shows `server.<key>`, nothing is found by its text.
 * - Toasts carry texts already in the reader's language, each written from its key where the toast is
 *   raised (a screen's namespace, the `errors` namespace, or the server's key): no English sentence
 *   is looked up to find its translation.
 */
function locale(): string {
  return i18n.language === 'hi' ? 'hi-IN' : 'en-IN';
}

function template(key: string): string | null {
  return i18n.exists(key, { ns: 'messages' }) ? i18n.t(key, { ns: 'messages', interpolation: { skipOnVariables: true } }) : null;
}

function isNotificationKey(key: unknown): key is keyof typeof NOTIFICATION_TEXTS {
  return typeof key === 'string' && Object.hasOwn(NOTIFICATION_TEXTS, key);
}

/**
 * The parameters with the masked destination in the reader's words, a reason the app wrote (its
 * `reasonCode` names an `adjustmentReasons` text) and a field a refusal names (`what`, a key of
 * `fieldNames`) in the reader's language; a staff member's reason stays as written.
 */
function paramsInLanguage(params: MessageParams | undefined): MessageParams {
  const destination = params?.['destination'];
  const reasonCode = params?.['reasonCode'];
  const what = params?.['what'];
  const reason = typeof reasonCode === 'string' ? template(`adjustmentReasons.${reasonCode}`) : null;
  const field = typeof what === 'string' ? template(`fieldNames.${what}`) : null;
  return {
    ...params,
    ...(typeof destination === 'string' && { destination: destinationInLanguage(destination) }),
    ...(reason !== null && { reason }),
    ...(field !== null && { what: field }),
  };
}

export function notificationInLanguage(n: { title: string; message: string; key?: string | undefined; params?: MessageParams | undefined }) {
  if (!isNotificationKey(n.key)) return { title: n.title, message: n.message };
  return {
    title: template(`notifications.${n.key}.title`) ?? n.title,
    message: renderText(template(`notifications.${n.key}.message`) ?? NOTIFICATION_TEXTS[n.key].message, paramsInLanguage(n.params), locale()),
  };
}

/** The server's masked destination ('A/c XXXXXX4321 · HDFC0001234', 'UPI ra***@okhdfc') in the reader's words. */
export function destinationInLanguage(destination: string): string {
  const match = /^(A\/c|UPI) (.+)$/.exec(destination);
  if (!match) return destination;
  const interpolation = { escapeValue: false };
  return match[1] === 'UPI'
    ? i18n.t('common:destination.upi', { upiId: match[2], interpolation })
    : i18n.t('common:destination.bank', { account: match[2], interpolation });
}

/** Kinds whose text has no parameters read the same from a literal older entry, so they translate too. */
const WITHOUT_PARAMS = new Set(['kyc_bonus']);

export function ledgerInLanguage(t: { kind: string; description: string; params?: MessageParams | undefined }): string {
  if (!t.params && !WITHOUT_PARAMS.has(t.kind)) return t.description;
  const text = template(`ledger.${t.kind}`);
  return text === null ? t.description : renderText(text, paramsInLanguage(t.params), locale());
}

/** A message the server sent by its key, in the reader's language; its English text when this app lacks the key. */
export function serverMessage(ref: { key?: string | undefined; params?: MessageParams | undefined } | undefined, english: string): string {
  const text = ref?.key ? template(`server.${ref.key}`) : null;
  return text === null ? english : renderText(text, paramsInLanguage(ref?.params), locale());
}

/**
 * A form field's message: a schema's refusal (its key and parameters) in the reader's language, or a
 * text already in it (the server's, from serverFieldTexts), as it is.
 */
export function refusalInLanguage(message: string): string {
  const ref = refusalOf(message);
  const text = ref ? template(`server.${ref.key}`) : null;
  return text === null ? message : renderText(text, paramsInLanguage(ref?.params), locale());
}

/** The server's message of a failed request (lib/api.ts's errors) in the reader's language; null when it sent none. */
export function serverErrorText(error: unknown): string | null {
  const body = parseApiError(error)?.body?.error;
  return body?.message ? serverMessage(body, body.message) : null;
}

/** The server's per-field messages of a failed request, in the reader's language. */
export function serverFieldTexts(error: unknown): Record<string, string> {
  const body = parseApiError(error)?.body?.error;
  return Object.fromEntries(Object.entries(body?.fields ?? {}).map(([name, text]) => [name, serverMessage(body?.fieldKeys?.[name], text)]));
}
