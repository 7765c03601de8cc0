import { Hono } from 'hono';
import type { AppEnv } from '../deps.ts';
import { openApiJson } from './document.ts';

export { openApiDocument, openApiPath } from './document.ts';
export { ROUTES, type Access, type RouteDoc } from './routes.ts';
export { REFERENCE_POLICY, referenceRoutes } from './reference.ts';

/**
 * GET /api/openapi.json: public (a client generator needs no session) and cached for an hour; the
 * document changes only with a new release.
 */
export const openApiRoutes = new Hono<AppEnv>().get('/api/openapi.json', (c) => {
  c.header('Cache-Control', 'public, max-age=3600');
  return c.body(openApiJson(), 200, { 'Content-Type': 'application/json; charset=utf-8' });
});
