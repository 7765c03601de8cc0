import * as v from 'valibot';
import { FirstName, LastName, MESSAGES } from './auth.ts';
import { refusal } from './refusal.ts';
import { Language } from './language.ts';

const EmailShape = v.pipe(v.string(), v.maxLength(254), v.email());

/**
 * An e-mail that may be cleared: an empty string or null clears it, anything else must be
 * e-mail shaped ('Invalid email address').
 */
export const OptionalEmail = v.pipe(
  v.nullable(v.string(refusal('auth.email'))),
  v.transform((s) => (s === null ? null : s.trim())),
  v.transform((s) => (s === '' ? null : s)),
  v.check((s) => s === null || v.is(EmailShape, s), refusal('auth.email')),
);

/**
 * PUT /api/profile: every field optional; the client sends
 * only what changed. Answers the updated user body (UserBody), unchanged when nothing changed.
 */
export const ProfileUpdateRequest = v.object({
  firstName: v.optional(FirstName),
  lastName: v.optional(LastName),
  email: v.optional(OptionalEmail),
  notificationsEnabled: v.optional(v.boolean(refusal('api.notificationsEnabledValue'))),
  language: v.optional(Language),
});
export type ProfileUpdateRequest = v.InferOutput<typeof ProfileUpdateRequest>;
