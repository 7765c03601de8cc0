import { useQuery } from '@tanstack/react-query';
import { DEFAULT_SETTINGS } from '@kamai/contracts';
import type { UserBody } from '@kamai/contracts';
import { settingsQuery } from '../../lib/queries.ts';

/** The support mailbox from GET /api/settings (public), or the default one while it loads. */
export function useSupportEmail(): string {
  const { data } = useQuery(settingsQuery());
  return data?.supportEmail || DEFAULT_SETTINGS.supportEmail;
}

const DELETION_SUBJECT = 'Account Deletion Request';

/**
 * The pre-filled deletion request of the delete-account page. Signed in, it carries the account's
 * mobile number and name so support can find it; signed out, it leaves blanks to fill in.
 */
export function deletionMailto(
  supportEmail: string,
  user: Pick<UserBody, 'id' | 'mobile' | 'firstName' | 'lastName'> | null | undefined,
): string {
  const name = [user?.firstName, user?.lastName].filter(Boolean).join(' ');
  const body = [
    'Hello Kamai Support,',
    '',
    'Please delete my Kamai account and the personal data linked to it.',
    '',
    `Registered mobile number: ${user?.mobile ?? ''}`,
    `Full name: ${name}`,
    ...(user ? [`User ID: ${user.id}`] : []),
    'Reason (optional):',
    '',
    'I understand that deletion is permanent, that any wallet balance left in the account cannot be paid out afterwards, and that records the law requires are kept for the period it requires.',
  ].join('\n');
  return `mailto:${supportEmail}?subject=${encodeURIComponent(DELETION_SUBJECT)}&body=${encodeURIComponent(body)}`;
}
