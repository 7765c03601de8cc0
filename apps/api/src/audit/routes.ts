import { AuditQuery } from '@kamai/contracts';
import { listAudit, listAuditActors } from '@kamai/projections';
import { Hono } from 'hono';
import type { AppEnv } from '../deps.ts';
import { withRole } from '../http/guards.ts';
import { validate } from '../http/validate.ts';

/**
 * Staff actions on money and roles, newest first, for admins (who oversee but cannot move money) and
 * for finance (whose month end and auditors read what was done to the money: docs/finance-audit.md).
 * The body stays an array; the next page is named in `X-Next-Cursor`, so nothing is cut off silently.
 * Filters (actor, action, IST days) narrow every page; the cursor is sent with the same filters.
 */
export const auditRoutes = new Hono<AppEnv>()
  .get('/api/admin/audit', withRole('admin', 'finance'), validate('query', AuditQuery), async (c) => {
    const { cursor, ...filter } = c.req.valid('query');
    const page = await listAudit(c.var.deps.db, { ...filter, before: cursor });
    if (page.nextCursor !== null) c.header('x-next-cursor', String(page.nextCursor));
    c.header('access-control-expose-headers', 'x-next-cursor');
    return c.json(page.rows);
  })
  .get('/api/admin/audit/actors', withRole('admin', 'finance'), async (c) => c.json(await listAuditActors(c.var.deps.db)));
