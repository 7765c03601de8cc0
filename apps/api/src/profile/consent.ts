import { msg, streams } from '@kamai/contracts';
import { hasConsented, userDecider } from '@kamai/domain';
import { createMiddleware } from 'hono/factory';
import { requireUser } from '../auth/sessions.ts';
import { loadStream } from '../commands/handle.ts';
import type { AppEnv } from '../deps.ts';
import { ApiError } from '../http/errors.ts';

/**
 * Signed in and with a consent record: what earning, KYC and withdrawing need (docs/erasure.md).
 * People registered before consent was asked have none until they agree (POST /api/profile/consent);
 * until then these routes answer 403 `consent_required`, whatever the web shows. Read from the
 * user's stream (the command cache), not a read model, so consent given a moment ago already counts.
 */
export const consented = createMiddleware<AppEnv>(async (c, next) => {
  const user = requireUser(c);
  const { state } = await loadStream(c.var.deps.store, streams.user(user.id), userDecider);
  if (state.account.registered && !hasConsented(state.account)) throw new ApiError(403, 'consent_required', msg('privacy.consentNeeded'));
  await next();
});
