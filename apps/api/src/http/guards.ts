import { type MessageRef, msg, streams } from '@kamai/contracts';
import type { Role } from '@kamai/contracts';
import { userDecider } from '@kamai/domain';
import { createMiddleware } from 'hono/factory';
import { requireRole, requireUser } from '../auth/sessions.ts';
import { loadStream } from '../commands/handle.ts';
import type { AppEnv } from '../deps.ts';
import { ApiError, notFound } from './errors.ts';

/**
 * Route guards that run before body validation, so a signed-out or unprivileged caller learns that
 * (401/403) rather than what is wrong with a body they may not send at all.
 */
export const signedIn = createMiddleware<AppEnv>(async (c, next) => {
  requireUser(c);
  await next();
});

/**
 * Every staff route passes here. Past the role, the member's own stream says whether they are
 * suspended (403 `account_suspended`): read from the event store through the command cache, not from
 * the session or the read model, so a suspension recorded a moment ago by any process already holds.
 */
export const withRole = (...roles: Role[]) =>
  createMiddleware<AppEnv>(async (c, next) => {
    const member = requireRole(c, ...roles);
    const { state } = await loadStream(c.var.deps.store, streams.user(member.id), userDecider);
    if (state.account.suspended) throw new ApiError(403, 'account_suspended', msg('suspension.staffSuspended'));
    await next();
  });

/** Path ids are checked against the one id shape of contracts. */
export { UUID_PATTERN } from '@kamai/contracts';

/** A path id of the wrong shape names nothing: 404, the same answer as an unknown id, never a 500. */
export const idParam = (name: string, pattern: RegExp, message: MessageRef) =>
  createMiddleware<AppEnv>(async (c, next) => {
    if (!pattern.test(c.req.param(name) ?? '')) throw notFound(message);
    await next();
  });
