import { ConsentRequest, PRIVACY_POLICY_VERSION, ProfileUpdateRequest, streams } from '@kamai/contracts';
import { type UserCommand, userDecider } from '@kamai/domain';
import { findUserById, toUserBody } from '@kamai/projections';
import { type Context, Hono } from 'hono';
import { requireUser, withWalletFigures } from '../auth/sessions.ts';
import { handleCommand } from '../commands/handle.ts';
import type { AppEnv } from '../deps.ts';
import { signedIn } from '../http/guards.ts';
import { validate } from '../http/validate.ts';

/** Decides `command` on the caller's own stream and answers their user body once the read model shows it. */
async function onOwnStream(c: Context<AppEnv>, command: UserCommand) {
  const deps = c.var.deps;
  const user = requireUser(c);
  const { position } = await handleCommand(deps.store, streams.user(user.id), userDecider, command, { actor: user.id });
  if (position > 0) await deps.runner.waitFor(position);
  const updated = await findUserById(deps.db, user.id);
  return c.json(toUserBody(updated ?? (await withWalletFigures(deps, user))));
}

/**
 * PUT /api/profile: the spec's update shape, every field optional. Only what really changed becomes
 * an event; the answer is the user body either way (the client says 'No Changes' before sending).
 */
export const profileRoutes = new Hono<AppEnv>()
  .put('/api/profile', signedIn, validate('json', ProfileUpdateRequest), (c) =>
    onOwnStream(c, { type: 'UpdateProfile', data: c.req.valid('json'), now: c.var.deps.now().toISOString() }),
  )
  /**
   * POST /api/profile/consent: someone registered before consent was asked agrees to the policy in
   * force (`accepted: true`, else 400 naming `accepted`); the answer is the user body, consentRequired false.
   */
  .post('/api/profile/consent', signedIn, validate('json', ConsentRequest), (c) =>
    onOwnStream(c, { type: 'GiveConsent', data: { policyVersion: PRIVACY_POLICY_VERSION }, now: c.var.deps.now().toISOString() }),
  );
