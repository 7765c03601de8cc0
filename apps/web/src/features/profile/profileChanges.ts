import type { ProfileUpdateRequest, UserBody } from '@kamai/contracts';

/** What the Edit Profile form holds once its schema has checked it (names trimmed, '' e-mail -> null). */
export interface ProfileFormOutput {
  firstName: string;
  lastName: string;
  email: string | null;
  notificationsEnabled: boolean;
}

/**
 * Only the fields that changed are sent with PUT /api/profile. An empty object means
 * nothing changed, and the dialog answers 'No Changes' without asking the server.
 */
export function changedProfileFields(
  user: Pick<UserBody, 'firstName' | 'lastName' | 'email' | 'notificationsEnabled'>,
  form: ProfileFormOutput,
): ProfileUpdateRequest {
  const changes: ProfileUpdateRequest = {};
  if (form.firstName !== (user.firstName ?? '')) changes.firstName = form.firstName;
  if (form.lastName !== (user.lastName ?? '')) changes.lastName = form.lastName;
  if ((form.email ?? null) !== (user.email || null)) changes.email = form.email;
  if (form.notificationsEnabled !== user.notificationsEnabled) changes.notificationsEnabled = form.notificationsEnabled;
  return changes;
}
