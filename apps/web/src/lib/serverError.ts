import { i18n } from '../i18n/index.ts';
import { serverTexts } from '../i18n/serverTexts.ts';
import { STATUS_AND_BODY, isNetworkFailure } from './failure.ts';

/**
 * What a screen shows for a failed request. In the first download (Home and sign-in show failures),
 * without the error schema and the server's texts: those come with serverTexts.ts, which http.ts
 * loads before it throws a failed request, so they are in whenever a server's answer is to be shown.
 */

/** The server's answer when its disk is full (storage_full): it asks to come back in a minute. */
const BUSY = { key: 'api.storageFull' } as const;

/**
 * The server's own message for a failed request (in the reader's language when it has a translation),
 * 'Check your internet connection' when the request never reached the server (fetch rejects with a
 * TypeError; or the device says it is offline), 'Kamai is busy, try again in a minute' for a 503 that
 * came without one (a proxy's page in front of a server that cannot take it now), or `fallback`.
 */
export function serverErrorMessage(error: unknown, fallback: string): string {
  const texts = serverTexts();
  const message = texts?.serverErrorText(error);
  if (message) return message;
  if (isNetworkFailure(error)) return i18n.t('common:offline.check');
  if (texts && error instanceof Error && STATUS_AND_BODY.exec(error.message)?.[1] === '503') return texts.serverMessage(BUSY, fallback);
  return fallback;
}

/** The same, for screens that show a failure in place of their content. */
export const failureMessage = serverErrorMessage;

/** The server's per-field messages (`error.fields`, in the reader's language) of a failed request; empty when it named none. */
export function serverFieldErrors(error: unknown): Record<string, string> {
  return serverTexts()?.serverFieldTexts(error) ?? {};
}
