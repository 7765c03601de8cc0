import type { UserBody } from '@kamai/contracts';

export const SUPPORT_SUBJECT = 'Help & Support Request';

/** The user's full name, or the spec's 'User' when they have none. */
export function fullNameOf(user: Pick<UserBody, 'firstName' | 'lastName'> | null | undefined): string {
  return [user?.firstName, user?.lastName].filter(Boolean).join(' ') || 'User';
}

/**
 * Help & Support: a mail draft to the support address with the subject 'Help &
 * Support Request' and a body that carries the user's id, mobile and name, so support can find them.
 * Encoded with encodeURIComponent: mail apps read '+' literally, so spaces must be %20.
 */
export function supportMailto(supportEmail: string, user: Pick<UserBody, 'id' | 'mobile' | 'firstName' | 'lastName'>): string {
  const body = [
    'Hello Kamai Support,',
    '',
    'Please describe your question or problem here:',
    '',
    '',
    '---',
    `User ID: ${user.id}`,
    `Mobile: ${user.mobile}`,
    `Name: ${fullNameOf(user)}`,
  ].join('\n');
  return `mailto:${supportEmail}?subject=${encodeURIComponent(SUPPORT_SUBJECT)}&body=${encodeURIComponent(body)}`;
}
