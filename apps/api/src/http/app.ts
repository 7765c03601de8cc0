import { type HealthBody, LANGUAGE_COOKIE, msg } from '@kamai/contracts';
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { serveStatic } from '@hono/node-server/serve-static';
import type { UserRecord } from '@kamai/projections';
import { rolesOf } from '@kamai/projections';
import { type Context, Hono } from 'hono';
import { setCookie } from 'hono/cookie';
import { isHttps } from '../auth/sessions.ts';
import { askedLanguage, readSignInScreens, withSignInForm } from './first-screen.ts';
import { auditRoutes } from '../audit/routes.ts';
import { authRoutes } from '../auth/routes.ts';
import { sessionRoutes } from '../auth/session-routes.ts';
import { passwordResetRoutes } from '../auth/password-reset-routes.ts';
import { financeRoutes } from '../finance/routes.ts';
import { fundingRoutes } from '../finance/funding.ts';
import { balanceRoutes } from '../finance/balance-warnings.ts';
import { yearlyReportRoutes } from '../finance/yearly-report.ts';
import { ledgerRoutes } from '../finance/ledger-routes.ts';
import { payoutRoutes } from '../finance/payouts.ts';
import { statementRoutes } from '../finance/statements.ts';
import { periodRoutes } from '../ledger/periods.ts';
import { taxReturnRoutes } from '../ledger/tax-returns.ts';
import { trialBalanceRoutes } from '../finance/trial-balance.ts';
import { notificationRoutes } from '../notifications/routes.ts';
import { pushRoutes } from '../push/routes.ts';
import { invitationRoutes } from '../invitations/routes.ts';
import { taskSignalRoutes } from '../tasks/signals.ts';
import { profileRoutes } from '../profile/routes.ts';
import { privacyRoutes } from '../privacy/routes.ts';
import { ifscRoutes } from '../ifsc/routes.ts';
import { settingsRoutes } from '../settings/routes.ts';
import { walletRoutes } from '../wallet/routes.ts';
import type { AppDeps, AppEnv } from '../deps.ts';
import { type ObjectStorage, objectRoutes } from '../object-storage/index.ts';
import { reviewRoutes } from '../review/routes.ts';
import { appealRoutes } from '../review/appeals.ts';
import { reviewerStatsRoutes } from '../review/stats.ts';
import { suspensionRoutes } from '../suspension/routes.ts';
import { staffRoutes } from '../staff/routes.ts';
import { kycRoutes } from '../kyc/routes.ts';
import { kycReviewerRoutes } from '../kyc/reviewer-routes.ts';
import { adminTaskRoutes } from '../tasks/admin-routes.ts';
import { taskRoutes } from '../tasks/routes.ts';
import { openApiRoutes, referenceRoutes } from '../openapi/index.ts';
import { webhookRoutes } from '../webhooks/routes.ts';
import { meteredStore, metricsRoutes, registerRunnerLag, registerStorage } from '../observability/index.ts';
import { errorBody, respondWithError } from './errors.ts';
import { pageWithNonce } from './csp.ts';
import { requestPipeline } from './pipeline.ts';
import { uploadQuota } from './upload-quota.ts';

export interface AppParts extends AppDeps {
  objects: ObjectStorage;
}

/** The whole HTTP surface: JSON API under /api, private objects under /objects, and the web app. */
export function createApp(parts: AppParts) {
  const { objects, ...given } = parts;
  const deps: AppDeps = { ...given, objects, store: meteredStore(given.store) };
  registerRunnerLag(deps.runner, deps.store);
  const storage = deps.storage;
  if (storage) registerStorage(() => storage.check());
  const app = new Hono<AppEnv>();
  app.onError((err, c) => respondWithError(c, err));
  // Request id, log and metrics, security headers, compression, body limit, cross-site check,
  // session and idempotency: one middleware running each module's step in turn (see pipeline.ts).
  app.use(requestPipeline(deps));

  // Each read model's version, position and state (live, building, stale, newer, parked, failed)
  // and how far it lags the store, and the disk under DATA_DIR. A parked model (stopped at an event
  // it could not apply) or free space below the reserve makes the status 'degraded' with the reason,
  // but the app still serves: 200. 503 once the read models as a whole stop following the store, or
  // DATA_DIR cannot be written ('failing'), so a load balancer or operator notices.
  app.get('/api/health', async (c) => {
    const [readModels, head, storage] = await Promise.all([deps.runner.status(), deps.store.headPosition(), deps.storage?.check()]);
    const parked = readModels.filter((m) => m.state === 'parked').map((m) => m.name);
    // A log that does not extend the checkpoints signed before is not signed again: degraded, named.
    const ledger = deps.ledger?.status();
    const cannotWrite = storage?.state === 'read_only' || storage?.state === 'gone';
    const reasons = [
      ...(deps.runner.failed ? ['read models are not being updated'] : []),
      ...(storage && storage.state !== 'ok' ? [storage.reason ?? storage.state] : []),
      ...(ledger?.state === 'refused' ? ['the event log does not extend its signed checkpoints'] : []),
    ];
    const body: HealthBody = {
      status: cannotWrite ? 'failing' : deps.runner.failed || parked.length > 0 || storage?.state === 'low' || ledger?.state === 'refused' ? 'degraded' : 'ok',
      projections: deps.config.projections,
      position: deps.runner.position,
      head,
      ...(parked.length > 0 ? { parked } : {}),
      ...(ledger ? { ledger } : {}),
      ...(reasons.length > 0 ? { reason: reasons.join('; ') } : {}),
      readModels: readModels.map((m) => ({ ...m, lag: Math.max(0, head - m.position) })),
      ...(storage ? { storage } : {}),
    };
    return c.json(body, deps.runner.failed || cannotWrite ? 503 : 200);
  });
  app.route('/', metricsRoutes);
  app.route('/', openApiRoutes);
  app.route('/', referenceRoutes);
  app.route('/', authRoutes);
  app.route('/', sessionRoutes);
  app.route('/', passwordResetRoutes);
  app.route('/', walletRoutes);
  app.route('/', ifscRoutes);
  app.route('/', financeRoutes);
  app.route('/', ledgerRoutes);
  app.route('/', fundingRoutes);
  app.route('/', balanceRoutes);
  app.route('/', yearlyReportRoutes);
  app.route('/', payoutRoutes);
  app.route('/', periodRoutes);
  app.route('/', statementRoutes);
  app.route('/', taxReturnRoutes);
  app.route('/', trialBalanceRoutes);
  app.route('/', notificationRoutes);
  app.route('/', pushRoutes);
  app.route('/', taskSignalRoutes);
  app.route('/', profileRoutes);
  app.route('/', settingsRoutes);
  app.route('/', uploadQuota);
  app.route(
    '/',
    objectRoutes({
      storage: objects,
      currentUser: async (c) => {
        const user = c.get('user') as UserRecord | null;
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
  app.route('/', suspensionRoutes);
  app.route('/', staffRoutes);
  app.route('/', privacyRoutes());
  app.route('/', webhookRoutes);
  app.route('/', appealRoutes({ objects }));
  app.route('/', reviewerStatsRoutes);
  app.route('/', invitationRoutes);

  app.all('/api/*', (c) => c.json(errorBody('not_found', msg('api.noSuchRoute', { method: c.req.method, path: c.req.path })), 404));
  if (deps.config.webDist) mountWebApp(app, deps.config.webDist, deps.config);
  return app;
}

/** Serves the built SPA: its files as they are, and index.html for every other path (client routing). */
function mountWebApp(app: Hono<AppEnv>, dist: string, config: AppDeps['config']) {
  const servePage = (c: Context<AppEnv>, page: string) => {
    const { html: withNonce, policy } = pageWithNonce(page, config);
    c.header('Content-Security-Policy', policy);
    c.header('Cache-Control', 'no-store');
    return c.html(withNonce);
  };
  const index = join(dist, 'index.html');
  if (!existsSync(index)) {
    console.warn(`[api] no web app at ${dist}; build it with: npx -y pnpm@10 --filter @kamai/web build`);
    return;
  }
  const html = readFileSync(index, 'utf8');
  app.use('/assets/*', serveStatic({ root: dist, onFound: (_path, c) => c.header('Cache-Control', 'public, max-age=31536000, immutable') }));
  // index.html is never served as a file: each answer carries its own CSP nonce.
  app.use('*', async (c, next) => (c.req.path === '/' || c.req.path === '/index.html' ? next() : serveStatic({ root: dist })(c, next)));
  const signInScreens = readSignInScreens(dist);
  // /login for a signed-out reader: the sign-in form drawn into the page, usable before the app's
  // script has come on a slow network (first-screen.ts, docs/first-screen.md).
  app.get('/login', async (c, next) => {
    if (!signInScreens || c.var.user) return next();
    // The form's language switch (`?lang=hi`), before the app runs: told to the app's cookie too
    // (the app reads the choice from the URL, web i18n/index.ts).
    const language = askedLanguage(c);
    if (language) setCookie(c, LANGUAGE_COOKIE, language, { path: '/', sameSite: 'Lax', secure: isHttps(c), maxAge: 365 * 24 * 60 * 60 });
    return servePage(c, withSignInForm(html, signInScreens, c));
  });
  app.get('*', (c) => servePage(c, html));
}
