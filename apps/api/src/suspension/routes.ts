import { randomUUID } from 'node:crypto';
import { type Role, STAFF_ROLES, SuspendRequest, type SuspensionBody, msg, streams } from '@kamai/contracts';
import { userDecider } from '@kamai/domain';
import { findUserRecord, listUserSessions } from '@kamai/projections';
import { Hono } from 'hono';
import { endSessions, requireRole } from '../auth/sessions.ts';
import { handleCommand } from '../commands/handle.ts';
import type { AppEnv } from '../deps.ts';
import { UUID_PATTERN, idParam, withRole } from '../http/guards.ts';
import { validate } from '../http/validate.ts';

const adminOnly = withRole('admin');
const userIdParam = idParam('id', UUID_PATTERN, msg('api.noSuchUser'));

/**
 * Suspending an account (admin role): the decision is on the user's own stream, so the check that
 * refuses a suspended user's proof, start or withdrawal is made on the same revision as the money.
 * Pending submissions stay in the review queue; the user is told by a notification. A suspended
 * staff member is also signed out everywhere (an earner keeps their sessions, to read why); signing
 * in again, every staff route refuses them (withRole reads the suspension from their stream).
 */
export const suspensionRoutes = new Hono<AppEnv>()
  .post('/api/admin/users/:id/suspend', adminOnly, userIdParam, validate('json', SuspendRequest), async (c) => {
    const deps = c.var.deps;
    const admin = requireRole(c, 'admin');
    const userId = c.req.param('id').toLowerCase();
    const command = { type: 'SuspendUser' as const, data: { reason: c.req.valid('json').reason, by: admin.id, notificationId: randomUUID() }, now: deps.now().toISOString() };
    const { position } = await handleCommand(deps.store, streams.user(userId), userDecider, command, { actor: admin.id });
    await deps.runner.waitFor(position);
    const record = await findUserRecord(deps.db, userId);
    const staff = record !== undefined && (JSON.parse(record.roles) as Role[]).some((role) => STAFF_ROLES.includes(role));
    // The read model has every session started before the suspension (waited for above); one started
    // after it is refused at every staff route all the same.
    const sessions = staff ? await listUserSessions(deps.db, userId, command.now) : [];
    if (sessions.length > 0) await deps.runner.waitFor(await endSessions(deps, sessions.map((s) => s.sid), 'suspended', admin.id));
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
