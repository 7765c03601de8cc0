import { listAudit } from '@kamai/projections';
import { Hono } from 'hono';
import type { AppEnv } from '../deps.ts';
import { withRole } from '../http/guards.ts';

/** Staff actions on money and roles, newest first, for admins (who oversee but cannot move money). */
export const auditRoutes = new Hono<AppEnv>().get('/api/admin/audit', withRole('admin'), async (c) => c.json(await listAudit(c.var.deps.db)));
