import { AuditQuery } from '@kamai/contracts';
import { listAudit } from '@kamai/projections';
import { Hono } from 'hono';
import type { AppEnv } from '../deps.ts';
import { withRole } from '../http/guards.ts';
import { validate } from '../http/validate.ts';

/**
 * Staff actions on money and roles, newest first, for admins (who oversee but cannot move money).
 * The body stays an array; the next page is named in `X-Next-Cursor`, so nothing is cut off silently.
 */
export const auditRoutes = new Hono<AppEnv>().get('/api/admin/audit', withRole('admin'), validate('query', AuditQuery), async (c) => {
  const { cursor, limit } = c.req.valid('query');
  const page = await listAudit(c.var.deps.db, { before: cursor, limit });
  if (page.nextCursor !== null) c.header('x-next-cursor', String(page.nextCursor));
  c.header('access-control-expose-headers', 'x-next-cursor');
  return c.json(page.rows);
});
