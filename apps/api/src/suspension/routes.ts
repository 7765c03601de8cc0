import { randomUUID } from 'node:crypto';
import { SuspendRequest, type SuspensionBody, msg, streams } from '@kamai/contracts';
import { userDecider } from '@kamai/domain';
import { Hono } from 'hono';
import { requireRole } from '../auth/sessions.ts';
import { handleCommand } from '../commands/handle.ts';
import type { AppEnv } from '../deps.ts';
import { UUID_PATTERN, idParam, withRole } from '../http/guards.ts';
import { validate } from '../http/validate.ts';

const adminOnly = withRole('admin');
const userIdParam = idParam('id', UUID_PATTERN, msg('api.noSuchUser'));

/**
 * Suspending an account (admin role): the decision is on the user's own stream, so the check that
 * refuses a suspended user's proof, start or withdrawal is made on the same revision as the money.
 * Pending submissions stay in the review queue; the user is told by a notification.
 */
export const suspensionRoutes = new Hono<AppEnv>()
  .post('/api/admin/users/:id/suspend', adminOnly, userIdParam, validate('json', SuspendRequest), async (c) => {
    const deps = c.var.deps;
    const admin = requireRole(c, 'admin');
    const userId = c.req.param('id').toLowerCase();
    const command = { type: 'SuspendUser' as const, data: { reason: c.req.valid('json').reason, by: admin.id, notificationId: randomUUID() }, now: deps.now().toISOString() };
    const { position } = await handleCommand(deps.store, streams.user(userId), userDecider, command, { actor: admin.id });
    await deps.runner.waitFor(position);
    return c.json({ userId, suspended: true } satisfies SuspensionBody, 200);
  })
  .post('/api/admin/users/:id/unsuspend', adminOnly, userIdParam, async (c) => {
    const deps = c.var.deps;
    const admin = requireRole(c, 'admin');
    const userId = c.req.param('id').toLowerCase();
    const command = { type: 'UnsuspendUser' as const, data: { by: admin.id, notificationId: randomUUID() }, now: deps.now().toISOString() };
    const { position } = await handleCommand(deps.store, streams.user(userId), userDecider, command, { actor: admin.id });
    await deps.runner.waitFor(position);
    return c.json({ userId, suspended: false } satisfies SuspensionBody, 200);
  });
