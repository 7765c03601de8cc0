import { ProfileUpdateRequest, streams } from '@kamai/contracts';
import { userDecider } from '@kamai/domain';
import { findUserById, toUserBody } from '@kamai/projections';
import { Hono } from 'hono';
import { requireUser, withWalletFigures } from '../auth/sessions.ts';
import { handleCommand } from '../commands/handle.ts';
import type { AppEnv } from '../deps.ts';
import { signedIn } from '../http/guards.ts';
import { validate } from '../http/validate.ts';

/**
 * PUT /api/profile: the spec's update shape, every field optional. Only what really changed becomes
 * an event; the answer is the user body either way (the client says 'No Changes' before sending).
 */
export const profileRoutes = new Hono<AppEnv>().put('/api/profile', signedIn, validate('json', ProfileUpdateRequest), async (c) => {
  const deps = c.var.deps;
  const user = requireUser(c);
  const data = c.req.valid('json');
  const now = deps.now().toISOString();
  const { position } = await handleCommand(
    deps.store,
    streams.user(user.id),
    userDecider,
    { type: 'UpdateProfile', data, now },
    { actor: user.id },
  );
  if (position > 0) await deps.runner.waitFor(position);
  const updated = await findUserById(deps.db, user.id);
  return c.json(toUserBody(updated ?? (await withWalletFigures(deps, user))));
});
