import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { ROLES } from '@kamai/contracts';
import { Hono } from 'hono';
import type { AppEnv } from '../deps.ts';
import { withRole } from '../http/guards.ts';

/**
 * The API reference for staff (Scalar's viewer of /api/openapi.json), behind sign-in with any staff
 * role. Its script is served from here, not a CDN, and the page has no inline script: the viewer
 * reads its settings from a JSON script element. Its policy is the page's own and narrow: scripts
 * and connections only to this origin; inline styles, which the viewer injects as it renders.
 */
export const REFERENCE_POLICY = [
  "default-src 'none'",
  "script-src 'self'",
  "style-src 'self' 'unsafe-inline'",
  "img-src 'self' data:",
  "font-src 'self' data:",
  "connect-src 'self'",
  "base-uri 'none'",
  "form-action 'none'",
  "frame-ancestors 'none'",
].join('; ');

const SCRIPT_PATH = '/api/admin/reference/scalar.js';

// No fonts from Scalar's servers, no calls through its proxy, no telemetry: everything stays on this origin.
const VIEWER_SETTINGS = JSON.stringify({ withDefaultFonts: false, hideClientButton: true, telemetry: false, showDeveloperTools: 'never' });

const PAGE = `<!doctype html>
<html lang="en">
  <head>
    <meta charset="utf-8" />
    <meta name="viewport" content="width=device-width, initial-scale=1" />
    <meta name="robots" content="noindex" />
    <title>Kamai API reference</title>
  </head>
  <body>
    <script id="api-reference" type="application/json" data-url="/api/openapi.json" data-configuration='${VIEWER_SETTINGS}'></script>
    <script src="${SCRIPT_PATH}"></script>
  </body>
</html>
`;

/**
 * The bundled zod probes for `Function('')` (its JIT) and falls back when refused, but the probe is
 * still a CSP violation under `script-src 'self'`; jitless tells it not to try. Zod reads this global
 * when its module runs, so it goes first in the same script.
 */
const VIEWER_PRELUDE = 'globalThis.__zod_globalConfig = Object.assign(globalThis.__zod_globalConfig ?? {}, { jitless: true });\n';

/** The viewer's browser bundle, read once (about 4 MB; compressed on the way out like any asset). */
let script: string | undefined;
const viewerScript = () =>
  (script ??=
    VIEWER_PRELUDE + readFileSync(join(dirname(createRequire(import.meta.url).resolve('@scalar/api-reference')), 'browser/standalone.js'), 'utf8'));

export const referenceRoutes = new Hono<AppEnv>()
  .get('/api/admin/reference', withRole(...ROLES), (c) =>
    c.html(PAGE, 200, { 'Content-Security-Policy': REFERENCE_POLICY, 'Cache-Control': 'no-store' }),
  )
  .get(SCRIPT_PATH, withRole(...ROLES), (c) =>
    c.body(viewerScript(), 200, { 'Content-Type': 'text/javascript; charset=utf-8', 'Cache-Control': 'private, max-age=3600' }),
  );
