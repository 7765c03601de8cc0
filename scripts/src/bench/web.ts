/**
 * The JavaScript a phone must download before the app's first screen shows, measured in Chromium
 * rather than read from index.html: the entry and its modulepreloads, and also what the app fetches
 * on its own before that screen renders (the route's code, its texts, chunks loaded with `import()`).
 * Every script the page starts fetching before the screen's heading is in the DOM counts (Resource
 * Timing in the page, so a slow poll from outside cannot add later fetches); each file is
 * gzipped at level 6 (as the server compresses), the same per-file figure as `initialJsGzipBytes`.
 *
 * `benchSlowNetwork` times the screens themselves on a slow phone network (see there).
 *
 *   node_modules/.bin/tsx scripts/src/bench/web.ts     # after a web build
 *   node_modules/.bin/tsx scripts/src/bench/web.ts --runs 5 --peer /tmp/old-dist   # slow network against another build, interleaved
 */
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { gzipSync } from 'node:zlib';
import { type PuppeteerCdpSession, type PuppeteerPage, type WebSession, repoRoot, startWebSession } from '../browser.ts';

export interface FirstScreenJs {
  /** The screen, e.g. 'sign-in (first visit, /)'. */
  screen: string;
  files: { path: string; raw: number; gzip: number }[];
  raw: number;
  gzip: number;
}

// The API serves WEB_DIST when set (a build elsewhere, to compare), else apps/web/dist.
const dist = process.env.WEB_DIST || join(repoRoot, 'apps/web/dist');

/** Signed out at / (the sign-in screen, a first visit) and signed in at / (Home). Null when unbuilt. */
export async function benchFirstScreenJs(): Promise<FirstScreenJs[] | null> {
  if (!existsSync(join(dist, 'index.html'))) return null;
  const web = await startWebSession();
  try {
    const home = await web.register('Asha');
    const results: FirstScreenJs[] = [];
    for (const visit of [
      { screen: 'sign-in, first visit to /', cookies: [] as { name: string; value: string }[] },
      { screen: 'Home, signed in, at /', cookies: home.cookies },
    ]) {
      // A fresh browser context each: nothing cached, no service worker.
      const context = await web.browser.createBrowserContext();
      try {
        const page = await context.newPage();
        await page.setViewport({ width: 390, height: 844, isMobile: true, hasTouch: true, deviceScaleFactor: 2 });
        if (visit.cookies.length > 0) await context.setCookie(...visit.cookies.map((cookie) => ({ ...cookie, domain: '127.0.0.1', path: '/' })));
        // In the page: the moment the first screen's heading is in the DOM (the spinner has none), and
        // every script the page had started fetching by then (Resource Timing has each start time).
        // (Page code as strings: this program is typed for Node, not the DOM.)
        await page.evaluateOnNewDocument(`
          const observer = new MutationObserver(() => {
            if (!document.querySelector('main h1')) return;
            globalThis.firstScreenAt = performance.now();
            observer.disconnect();
          });
          observer.observe(document, { childList: true, subtree: true });
        `);
        await page.goto(`${web.baseUrl}/`, { waitUntil: 'domcontentloaded' });
        await page.waitForFunction('globalThis.firstScreenAt !== undefined', { timeout: 30_000 });
        const scripts = (await page.evaluate(`
          performance
            .getEntriesByType('resource')
            .filter((entry) => entry.startTime <= globalThis.firstScreenAt)
            .map((entry) => new URL(entry.name))
            .filter((url) => url.origin === location.origin && url.pathname.endsWith('.js'))
            .map((url) => url.pathname)
        `)) as string[];
        const files = [...new Set(scripts)]
          .filter((path) => path.startsWith('/assets/'))
          .map((path) => {
            const bytes = readFileSync(join(dist, path));
            return { path, raw: bytes.length, gzip: gzipSync(bytes, { level: 6 }).length };
          });
        results.push({
          screen: visit.screen,
          files,
          raw: files.reduce((sum, file) => sum + file.raw, 0),
          gzip: files.reduce((sum, file) => sum + file.gzip, 0),
        });
      } finally {
        await context.close();
      }
    }
    return results;
  } finally {
    await web.stop();
  }
}

/** The network of issue 37: 400 kbps down and up, 400 ms round trip (DevTools' emulation, per request). */
export const SLOW_NETWORK = { kbps: 400, latencyMs: 400 };

/** Throttles what a page (or the service worker) fetches; `noHttpCache`: nothing from the HTTP cache. */
async function throttle(session: PuppeteerCdpSession, noHttpCache: boolean): Promise<void> {
  await session.send('Network.enable');
  if (noHttpCache) await session.send('Network.setCacheDisabled', { cacheDisabled: true });
  const bytesPerSecond = (SLOW_NETWORK.kbps * 1000) / 8;
  await session.send('Network.emulateNetworkConditions', {
    offline: false,
    latency: SLOW_NETWORK.latencyMs,
    downloadThroughput: bytesPerSecond,
    uploadThroughput: bytesPerSecond,
  });
}

/** When each screen counts as there, tested in the page on every DOM change (page code as a string). */
const READY = {
  // The sign-in form drawn and live: mobile and password fields and an enabled submit button, shown
  // and styled (the stylesheet has come: the button is its 48 px, not the browser's own; a form the
  // server drew into the page is in the DOM before it is drawn).
  login: `(() => {
    const mobile = document.querySelector('main input[type="tel"], main input[inputmode="numeric"]');
    const password = document.querySelector('main input[type="password"]');
    const button = document.querySelector('main button[type="submit"]');
    return Boolean(mobile && password && button && !mobile.disabled && !button.disabled) &&
      mobile.checkVisibility() && button.getBoundingClientRect().height >= 44;
  })()`,
  // Home's three task categories, each with its number of tasks (the tasks have been read).
  home: `document.querySelectorAll('[data-testid="category-count"]').length === 3`,
};

export interface SlowVisit {
  /** 'before' … 'after' of one build: the milliseconds from navigation start, one per run. */
  ms: number[];
  /** Requests the page made before the screen was ready, how many were scripts, and bytes over the network. */
  requests: number;
  scripts: number;
  transferred: number;
}
export interface SlowNetworkResult {
  dist: string;
  loginCold: SlowVisit;
  homeCold: SlowVisit;
  loginReturn: SlowVisit;
  homeReturn: SlowVisit;
}

const emptyVisit = (): SlowVisit => ({ ms: [], requests: 0, scripts: 0, transferred: 0 });

/**
 * One visit on the slow network in `page` (already throttled): navigation start to the frame in which
 * the screen's condition first held, then a check that the form takes typed text.
 */
async function timeVisit(page: PuppeteerPage, url: string, screen: keyof typeof READY, into: SlowVisit): Promise<void> {
  await page.goto(url, { waitUntil: 'domcontentloaded' });
  await page.waitForFunction('globalThis.screenReadyAt !== undefined', { timeout: 60_000 });
  const measured = (await page.evaluate(`(() => {
    const entries = performance.getEntriesByType('resource').filter((entry) => entry.startTime <= globalThis.screenReadyAt);
    return {
      at: globalThis.screenReadyAt,
      requests: entries.length,
      scripts: entries.filter((entry) => new URL(entry.name).pathname.endsWith('.js')).length,
      transferred: entries.reduce((sum, entry) => sum + entry.transferSize, 0) + performance.getEntriesByType('navigation')[0].transferSize,
    };
  })()`)) as { at: number; requests: number; scripts: number; transferred: number };
  if (screen === 'login') {
    // "Working", not only drawn: the mobile field takes what is typed.
    await page.type('main input[type="tel"], main input[inputmode="numeric"]', '98');
    const typed = (await page.evaluate(`document.querySelector('main input[type="tel"], main input[inputmode="numeric"]').value`)) as string;
    if (!typed.replace(/\D/g, '').startsWith('98')) throw new Error(`the sign-in field did not take typed text (it holds "${typed}")`);
  }
  into.ms.push(Math.round(measured.at));
  // The counts of the last run (they do not vary from run to run, the times do).
  into.requests = measured.requests;
  into.scripts = measured.scripts;
  into.transferred = measured.transferred;
}

/**
 * Sign-in (/login, signed out) and Home (signed in, /) on a slow phone network: 400 kbps, 400 ms
 * round trip, nothing in the HTTP cache, timed from navigation start until the sign-in form is drawn
 * and takes input, and until Home lists its task categories with their counts. Then a return visit to
 * each in the same browser, served by the service worker's cache (the HTTP cache still off, so what
 * is not in the worker's cache comes over the slow network again; the worker's own fetches are
 * throttled too). `runs` times each; with `peer` (another build's dist) the two builds take turns,
 * A B then B A, each on its own API server.
 */
export async function benchSlowNetwork(options: { runs?: number; peer?: string } = {}): Promise<SlowNetworkResult[] | null> {
  if (!existsSync(join(dist, 'index.html'))) return null;
  const runs = options.runs ?? 3;
  const builds = [dist, ...(options.peer ? [options.peer] : [])];
  const sessions: WebSession[] = [];
  try {
    for (const webDist of builds) sessions.push(await startWebSession({ webDist, seedDemo: true }));
    const results = builds.map((webDist) => ({ dist: webDist, loginCold: emptyVisit(), homeCold: emptyVisit(), loginReturn: emptyVisit(), homeReturn: emptyVisit() }));
    for (let run = 0; run < runs; run += 1) {
      const order = builds.map((_, i) => i);
      if (run % 2 === 1) order.reverse();
      for (const i of order) {
        const web = sessions[i]!;
        const result = results[i]!;
        const home = await web.register('Asha');
        for (const visit of [
          { screen: 'login' as const, path: '/login', cookies: [] as { name: string; value: string }[], cold: result.loginCold, back: result.loginReturn },
          { screen: 'home' as const, path: '/', cookies: home.cookies, cold: result.homeCold, back: result.homeReturn },
        ]) {
          const context = await web.browser.createBrowserContext();
          try {
            const page = await context.newPage();
            await page.setViewport({ width: 360, height: 740, isMobile: true, hasTouch: true, deviceScaleFactor: 2 });
            if (visit.cookies.length > 0) await context.setCookie(...visit.cookies.map((cookie) => ({ ...cookie, domain: '127.0.0.1', path: '/' })));
            await page.evaluateOnNewDocument(`
              const ready = () => ${READY[visit.screen]};
              const check = () => {
                if (globalThis.screenReadyAt !== undefined || !ready()) return;
                observer.disconnect();
                document.removeEventListener('load', check, true);
                requestAnimationFrame(() => { globalThis.screenReadyAt = performance.now(); });
              };
              const observer = new MutationObserver(check);
              observer.observe(document, { childList: true, subtree: true, attributes: true });
              // A stylesheet's arrival changes no node: its load event (captured, it does not bubble) checks too.
              document.addEventListener('load', check, true);
            `);
            await throttle(await page.createCDPSession(), true);
            await timeVisit(page, `${web.baseUrl}${visit.path}`, visit.screen, visit.cold);
            // The return visit: once the service worker controls the page, with its fetches throttled too.
            await page.waitForFunction('navigator.serviceWorker.controller !== null', { timeout: 60_000 });
            await page.evaluate('navigator.serviceWorker.ready.then(() => true)');
            const worker = await context.waitForTarget((target) => target.type() === 'service_worker', { timeout: 30_000 });
            await throttle(await worker.createCDPSession(), false);
            await timeVisit(page, `${web.baseUrl}${visit.path}`, visit.screen, visit.back);
          } finally {
            await context.close();
          }
        }
      }
    }
    return results;
  } finally {
    for (const web of sessions) await web.stop();
  }
}

/** A spread as the bench prints it: median (min–max) and every run. */
export function msSpread(values: number[]): string {
  const sorted = [...values].sort((a, b) => a - b);
  const median = sorted.length % 2 ? sorted[(sorted.length - 1) / 2]! : (sorted[sorted.length / 2 - 1]! + sorted[sorted.length / 2]!) / 2;
  const f = (value: number) => Math.round(value).toLocaleString('en-US');
  return `${f(median)} ms (${f(sorted[0] ?? 0)}–${f(sorted.at(-1) ?? 0)}; ${values.map(f).join(', ')})`;
}

/** The rows of one build's slow-network visits: what, figure, target. */
export function slowNetworkRows(result: SlowNetworkResult): { what: string; figure: string; peer: string }[] {
  const files = (visit: SlowVisit) => `${visit.requests} requests (${visit.scripts} scripts), ${Math.round(visit.transferred / 1024)} KB the page fetched past its service worker`;
  return [
    { what: `/login usable, empty cache: form drawn and taking input; ${files(result.loginCold)}`, figure: msSpread(result.loginCold.ms), peer: 'target 3,000 ms' },
    { what: `Home (signed in) lists its tasks, empty cache; ${files(result.homeCold)}`, figure: msSpread(result.homeCold.ms), peer: 'target 4,000 ms' },
    { what: `/login usable, return visit (service worker's cache); ${files(result.loginReturn)}`, figure: msSpread(result.loginReturn.ms), peer: 'target 1,500 ms' },
    { what: `Home lists its tasks, return visit (service worker's cache); ${files(result.homeReturn)}`, figure: msSpread(result.homeReturn.ms), peer: 'target 1,500 ms' },
  ];
}

if (process.argv[1] && import.meta.url === pathToFileURL(process.argv[1]).href) {
  const results = await benchFirstScreenJs();
  if (!results) throw new Error('build the web app first: npx -y pnpm@10.34.9 --filter @kamai/web build');
  for (const result of results) {
    console.log(`${result.screen}: ${result.files.length} files, ${result.gzip} bytes gzip (${result.raw} raw)`);
    for (const file of result.files.sort((a, b) => b.gzip - a.gzip)) console.log(`  ${String(file.gzip).padStart(7)}  ${file.path}`);
  }
  const argument = (name: string) => {
    const at = process.argv.indexOf(`--${name}`);
    return at < 0 ? undefined : process.argv[at + 1];
  };
  const peer = argument('peer');
  const slow = await benchSlowNetwork({ runs: Number(argument('runs') ?? 3), ...(peer ? { peer } : {}) });
  for (const result of slow ?? []) {
    console.log(`\nslow network (${SLOW_NETWORK.kbps} kbps, ${SLOW_NETWORK.latencyMs} ms round trip), ${result.dist}:`);
    for (const row of slowNetworkRows(result)) console.log(`  ${row.what}: ${row.figure} (${row.peer})`);
  }
}
