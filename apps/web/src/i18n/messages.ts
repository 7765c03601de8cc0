import { type MessageParams, NOTIFICATION_TEXTS, messageOf, renderText } from '@kamai/contracts';
import { i18n } from './index.ts';

/**
 * Texts the server wrote, shown in the reader's language.
 *
 * - Notifications and ledger descriptions come with a message key and parameters: the template of the
 *   `messages` namespace is filled in (money as rupees in the reader's locale). Entries recorded before
 *   texts were keys carry no key and keep their English text.
 * - Validation and error messages (the contracts' English, from the form schemas or the server's
 *   error body) are texts of the catalogue of server messages (SERVER_MESSAGES): `messageOf` finds
 *   the key and parameters, and the `messages` namespace's `server.<key>` gives the reader's text.
 *   Texts only the web shows are looked up in the `errors` namespace by their English text; a
 *   message that is neither is shown as it came.
 */
function locale(): string {
  return i18n.language === 'hi' ? 'hi-IN' : 'en-IN';
}

function template(key: string): string | null {
  return i18n.exists(key, { ns: 'messages' }) ? i18n.t(key, { ns: 'messages', interpolation: { skipOnVariables: true } }) : null;
}

export function isNotificationKey(key: unknown): key is keyof typeof NOTIFICATION_TEXTS {
  return typeof key === 'string' && Object.hasOwn(NOTIFICATION_TEXTS, key);
}

export function notificationInLanguage(n: { title: string; message: string; key?: string | undefined; params?: MessageParams | undefined }) {
  if (!isNotificationKey(n.key)) return { title: translateMessage(n.title), message: n.message };
  return {
    title: template(`notifications.${n.key}.title`) ?? n.title,
    message: renderText(template(`notifications.${n.key}.message`) ?? NOTIFICATION_TEXTS[n.key].message, n.params, locale()),
  };
}

/** Kinds whose text has no parameters read the same from a literal older entry, so they translate too. */
const WITHOUT_PARAMS = new Set(['kyc_bonus']);

export function ledgerInLanguage(t: { kind: string; description: string; params?: MessageParams | undefined }): string {
  if (!t.params && !WITHOUT_PARAMS.has(t.kind)) return t.description;
  const text = template(`ledger.${t.kind}`);
  return text === null ? t.description : renderText(text, t.params ?? {}, locale());
}

export function translateMessage(message: string): string;
export function translateMessage(message: string | undefined): string | undefined;
export function translateMessage(message: string | undefined): string | undefined {
  if (!message) return message;
  const ref = messageOf(message);
  if (ref) {
    const text = template(`server.${ref.key}`);
    if (text !== null) return renderText(text, ref.params, locale());
  }
  const options = { ns: 'errors', keySeparator: false, nsSeparator: false } as const;
  return i18n.exists(message, options) ? i18n.t(message, { ...options, interpolation: { skipOnVariables: true } }) : message;
}
