import { type MessageRef } from '@kamai/contracts';
import type { Role } from '@kamai/contracts';
import { createMiddleware } from 'hono/factory';
import { requireRole, requireUser } from '../auth/sessions.ts';
import type { AppEnv } from '../deps.ts';
import { notFound } from './errors.ts';

/**
 * Route guards that run before body validation, so a signed-out or unprivileged caller learns that
 * (401/403) rather than what is wrong with a body they may not send at all.
 */
export const signedIn = createMiddleware<AppEnv>(async (c, next) => {
  requireUser(c);
  await next();
});

export const withRole = (...roles: Role[]) =>
  createMiddleware<AppEnv>(async (c, next) => {
    requireRole(c, ...roles);
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
