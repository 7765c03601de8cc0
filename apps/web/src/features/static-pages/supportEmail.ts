import { useQuery } from '@tanstack/react-query';
import { DEFAULT_SETTINGS } from '@kamai/contracts';
import type { UserBody } from '@kamai/contracts';
import { settingsQuery } from '../../lib/queries.ts';
import { mailText } from '../profile/supportMail.ts';

/** The support mailbox from GET /api/settings (public), or the default one while it loads. */
export function useSupportEmail(): string {
  const { data } = useQuery(settingsQuery());
  return data?.supportEmail || DEFAULT_SETTINGS.supportEmail;
}


/**
 * The pre-filled deletion request of the delete-account page, in the reader's language. Signed in, it carries the account's
 * mobile number and name so support can find it; signed out, it leaves blanks to fill in.
 */
export function deletionMailto(
  supportEmail: string,
  user: Pick<UserBody, 'id' | 'mobile' | 'firstName' | 'lastName'> | null | undefined,
): string {
  const name = [user?.firstName, user?.lastName].filter(Boolean).join(' ');
  const body = [
    mailText('greeting'),
    '',
    mailText('deletionAsk'),
    '',
    mailText('registeredMobile', { mobile: user?.mobile ?? '' }),
    mailText('fullName', { name }),
    ...(user ? [mailText('userId', { id: user.id })] : []),
    mailText('reason'),
    '',
    mailText('deletionUnderstood'),
  ].join('\n');
  return `mailto:${supportEmail}?subject=${encodeURIComponent(mailText('deletionSubject'))}&body=${encodeURIComponent(body)}`;
}
