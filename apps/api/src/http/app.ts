import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { serveStatic } from '@hono/node-server/serve-static';
import type { UserRow } from '@kamai/projections';
import { rolesOf } from '@kamai/projections';
import { Hono } from 'hono';
import { bodyLimit } from 'hono/body-limit';
import { auditRoutes } from '../audit/routes.ts';
import { authRoutes } from '../auth/routes.ts';
import { sessionRoutes } from '../auth/session-routes.ts';
import { sessionMiddleware } from '../auth/sessions.ts';
import { financeRoutes } from '../finance/routes.ts';
import { ledgerRoutes } from '../finance/ledger-routes.ts';
import { idempotency } from '../finance/idempotency.ts';
import { notificationRoutes } from '../notifications/routes.ts';
import { profileRoutes } from '../profile/routes.ts';
import { ifscRoutes } from '../ifsc/routes.ts';
import { settingsRoutes } from '../settings/routes.ts';
import { walletRoutes } from '../wallet/routes.ts';
import type { AppDeps, AppEnv } from '../deps.ts';
import { type ObjectStorage, objectRoutes } from '../object-storage/index.ts';
import { reviewRoutes } from '../review/routes.ts';
import { kycRoutes } from '../kyc/routes.ts';
import { kycReviewerRoutes } from '../kyc/reviewer-routes.ts';
import { adminTaskRoutes } from '../tasks/admin-routes.ts';
import { taskRoutes } from '../tasks/routes.ts';
import { meteredStore, metricsRoutes, observeRequests, registerRunnerLag } from '../observability/index.ts';
import { compressResponses } from './compress.ts';
import { ApiError, errorBody, respondWithError } from './errors.ts';
import { sameOriginOnly } from './origin.ts';
import { browserPolicies, pageWithNonce } from './csp.ts';
import { uploadQuota } from './upload-quota.ts';

export interface AppParts extends AppDeps {
  objects: ObjectStorage;
}

/** The whole HTTP surface: JSON API under /api, private objects under /objects, and the web app. */
export function createApp(parts: AppParts) {
  const { objects, ...given } = parts;
  const deps: AppDeps = { ...given, store: meteredStore(given.store) };
  registerRunnerLag(deps.runner, deps.store);
  const app = new Hono<AppEnv>();
  app.onError((err, c) => respondWithError(c, err));
  app.use(async (c, next) => {
    c.set('deps', deps);
    await next();
  });
  app.use(observeRequests);
  // Security headers: a short set on /api answers, the browser set on the rest (see csp.ts).
  app.use(browserPolicies(deps.config));
  app.use(compressResponses);
  // JSON bodies are small; the upload PUT streams its own, bounded by the object storage.
  app.use('/api/*', async (c, next) => {
    // GET and HEAD carry no body; skipping them also spares building a full Request per read.
    if (c.req.method === 'GET' || c.req.method === 'HEAD' || c.req.path.startsWith('/api/objects/put/')) return next();
    return bodyLimit({
      maxSize: 64 * 1024,
      onError: () => {
        throw new ApiError(413, 'payload_too_large', 'Request body too large');
      },
    })(c, next);
  });
  app.use('/api/*', sameOriginOnly);
  app.use(sessionMiddleware);
  app.use('/api/*', idempotency);

  // Each read model's version, position and state (live, building, stale, newer, failed) and how
  // far it lags the store; 503 once the read models stop following the store, so a load balancer or
  // operator notices.
  app.get('/api/health', async (c) => {
    const [readModels, head] = await Promise.all([deps.runner.status(), deps.store.headPosition()]);
    const body = {
      status: deps.runner.failed ? 'degraded' : 'ok',
      projections: deps.config.projections,
      position: deps.runner.position,
      head,
      readModels: readModels.map((m) => ({ ...m, lag: Math.max(0, head - m.position) })),
    };
    if (deps.runner.failed) return c.json({ ...body, reason: 'read models are not being updated' }, 503);
    return c.json(body);
  });
  app.route('/', metricsRoutes);
  app.route('/', authRoutes);
  app.route('/', sessionRoutes);
  app.route('/', walletRoutes);
  app.route('/', ifscRoutes);
  app.route('/', financeRoutes);
  app.route('/', ledgerRoutes);
  app.route('/', notificationRoutes);
  app.route('/', profileRoutes);
  app.route('/', settingsRoutes);
  app.route('/', uploadQuota);
  app.route(
    '/',
    objectRoutes({
      storage: objects,
      currentUser: async (c) => {
        const user = c.get('user') as UserRow | null;
        return user ? { id: user.id, roles: rolesOf(user) } : null;
      },
    }),
  );

  app.route('/', taskRoutes({ objects }));
  app.route('/', adminTaskRoutes);
  app.route('/', reviewRoutes);
  app.route('/', kycRoutes({ objects }));
  app.route('/', kycReviewerRoutes);
  app.route('/', auditRoutes);

  app.all('/api/*', (c) => c.json(errorBody('not_found', `No such API route: ${c.req.method} ${c.req.path}`), 404));
  if (deps.config.webDist) mountWebApp(app, deps.config.webDist, deps.config);
  return app;
}

/** Serves the built SPA: its files as they are, and index.html for every other path (client routing). */
function mountWebApp(app: Hono<AppEnv>, dist: string, config: AppDeps['config']) {
  const index = join(dist, 'index.html');
  if (!existsSync(index)) {
    console.warn(`[api] no web app at ${dist}; build it with: npx -y pnpm@10 --filter @kamai/web build`);
    return;
  }
  const html = readFileSync(index, 'utf8');
  app.use('/assets/*', serveStatic({ root: dist, onFound: (_path, c) => c.header('Cache-Control', 'public, max-age=31536000, immutable') }));
  // index.html is never served as a file: each answer carries its own CSP nonce.
  app.use('*', async (c, next) => (c.req.path === '/' || c.req.path === '/index.html' ? next() : serveStatic({ root: dist })(c, next)));
  app.get('*', (c) => {
    const page = pageWithNonce(html, config);
    c.header('Content-Security-Policy', page.policy);
    c.header('Cache-Control', 'no-store');
    return c.html(page.html);
  });
}
