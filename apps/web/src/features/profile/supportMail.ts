import type { UserBody } from '@kamai/contracts';
import { i18n } from '../../i18n/index.ts';

/** A line of a mail draft, in the reader's language (common:mail.*); values go in as typed. */
export const mailText = (key: string, values: Record<string, string> = {}) =>
  i18n.t(`common:mail.${key}`, { ...values, interpolation: { escapeValue: false } });

/** The user's full name, or the spec's 'User' when they have none. */
export function fullNameOf(user: Pick<UserBody, 'firstName' | 'lastName'> | null | undefined): string {
  return [user?.firstName, user?.lastName].filter(Boolean).join(' ') || 'User';
}

/**
 * Help & Support: a mail draft, in the reader's language, to the support address with the subject
 * 'Help & Support Request' and a body that carries the user's id, mobile and name, so support can find them.
 * Encoded with encodeURIComponent: mail apps read '+' literally, so spaces must be %20.
 */
export function supportMailto(supportEmail: string, user: Pick<UserBody, 'id' | 'mobile' | 'firstName' | 'lastName'>): string {
  const body = [
    mailText('greeting'),
    '',
    mailText('supportAsk'),
    '',
    '',
    '---',
    mailText('userId', { id: user.id }),
    mailText('mobile', { mobile: user.mobile }),
    mailText('name', { name: fullNameOf(user) }),
  ].join('\n');
  return `mailto:${supportEmail}?subject=${encodeURIComponent(mailText('supportSubject'))}&body=${encodeURIComponent(body)}`;
}
