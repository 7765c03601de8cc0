/**
 * The JavaScript a phone must download before the app's first screen shows, measured in Chromium
 * rather than read from index.html: the entry and its modulepreloads, and also what the app fetches
 * on its own before that screen renders (the route's code, its texts, chunks loaded with `import()`).
 * Every script the page starts fetching before the screen's heading is in the DOM counts (Resource
 * Timing in the page, so a slow poll from outside cannot add later fetches); each file is
 * gzipped at level 6 (as the server compresses), the same per-file figure as `initialJsGzipBytes`.
 *
 *   node_modules/.bin/tsx scripts/src/bench/web.ts     # after a web build
 */
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { gzipSync } from 'node:zlib';
import { repoRoot, startWebSession } from '../browser.ts';

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

if (process.argv[1] && import.meta.url === pathToFileURL(process.argv[1]).href) {
  const results = await benchFirstScreenJs();
  if (!results) throw new Error('build the web app first: npx -y pnpm@10.34.9 --filter @kamai/web build');
  for (const result of results) {
    console.log(`${result.screen}: ${result.files.length} files, ${result.gzip} bytes gzip (${result.raw} raw)`);
    for (const file of result.files.sort((a, b) => b.gzip - a.gzip)) console.log(`  ${String(file.gzip).padStart(7)}  ${file.path}`);
  }
}
