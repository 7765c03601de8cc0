import { ROLES, type Role, type StaffQueuesBody, staffQueuesOf } from '@kamai/contracts';
import { countStaffQueues } from '@kamai/projections';
import { Hono } from 'hono';
import { requireRole } from '../auth/sessions.ts';
import type { AppEnv } from '../deps.ts';
import { withRole } from '../http/guards.ts';
import { latePayoutCutoff } from '../settings/limits.ts';

/**
 * A staff member's Home: how much waits in each queue of the caller's roles (counts only, never
 * rows). Any staff role may ask; each hears only about its own queues. 403 for users without one.
 */
export const staffRoutes = new Hono<AppEnv>().get('/api/admin/queues', withRole(...ROLES), async (c) => {
  const deps = c.var.deps;
  const held = JSON.parse(requireRole(c, ...ROLES).roles) as Role[];
  const queues = staffQueuesOf(held);
  const now = deps.now();
  const lateBefore = queues.includes('payoutsLate') ? await latePayoutCutoff(deps.store, now) : now.toISOString();
  const body: StaffQueuesBody = await countStaffQueues(deps.db, queues, { now: now.toISOString(), lateBefore });
  return c.json(body);
});
