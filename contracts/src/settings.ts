import * as v from 'valibot';
import { MESSAGES } from './auth.ts';

/** Spec section 3: a default support e-mail and homepage exist before anyone sets them. */
export const DEFAULT_SETTINGS = { supportEmail: 'support@kamai.in', homepageUrl: 'https://kamai.in' } as const;

/** GET /api/settings (public: the static pages read it signed out), and PUT /api/admin/settings's answer. */
export const SettingsBody = v.object({
  supportEmail: v.string(),
  homepageUrl: v.string(),
  /** When an admin last changed them; null while the defaults apply. */
  updatedAt: v.nullable(v.string()),
});
export type SettingsBody = v.InferOutput<typeof SettingsBody>;

const HOMEPAGE_MESSAGE = 'Homepage must be an http or https URL';

/** PUT /api/admin/settings: either or both. */
export const SettingsUpdateRequest = v.object({
  supportEmail: v.optional(v.pipe(v.string(MESSAGES.email), v.trim(), v.maxLength(254, MESSAGES.email), v.email(MESSAGES.email))),
  homepageUrl: v.optional(
    v.pipe(
      v.string(HOMEPAGE_MESSAGE),
      v.trim(),
      v.maxLength(2000, HOMEPAGE_MESSAGE),
      v.url(HOMEPAGE_MESSAGE),
      v.check((s) => /^https?:\/\//i.test(s), HOMEPAGE_MESSAGE),
    ),
  ),
});
export type SettingsUpdateRequest = v.InferOutput<typeof SettingsUpdateRequest>;
