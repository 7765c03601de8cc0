import { i18n } from '../i18n/index.ts';
import { serverTexts } from '../i18n/serverTexts.ts';
import { isNetworkFailure } from './failure.ts';

/**
 * What a screen shows for a failed request. In the first download (Home and sign-in show failures),
 * without the error schema and the server's texts: those come with serverTexts.ts, which http.ts
 * loads before it throws a failed request, so they are in whenever a server's answer is to be shown.
 */

/**
 * The server's own message for a failed request (in the reader's language when it has a translation),
 * 'Check your internet connection' when the request never reached the server (fetch rejects with a
 * TypeError; or the device says it is offline), or `fallback`.
 */
export function serverErrorMessage(error: unknown, fallback: string): string {
  const message = serverTexts()?.serverErrorText(error);
  if (message) return message;
  if (isNetworkFailure(error)) return i18n.t('common:offline.check');
  return fallback;
}

/** The same, for screens that show a failure in place of their content. */
export const failureMessage = serverErrorMessage;

/** The server's per-field messages (`error.fields`, in the reader's language) of a failed request; empty when it named none. */
export function serverFieldErrors(error: unknown): Record<string, string> {
  return serverTexts()?.serverFieldTexts(error) ?? {};
}
