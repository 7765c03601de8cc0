/**
 * `npx tsx scripts/src/lighthouse.ts`: Lighthouse (mobile preset: a mid-range phone on slow 4G) on
 * the login screen and on Home signed in, with Debian's Chromium. Starts the built app on a free
 * port with a fresh data directory, registers an account for Home, prints accessibility, best
 * practices and performance per page. Prints, does not assert. Build the web app first
 * (`npx -y pnpm@10.34.9 --filter @kamai/web build`). CHROME_PATH overrides /usr/bin/chromium.
 */
import lighthouse from 'lighthouse';
import { startWebSession } from './browser.ts';

const web = await startWebSession();
try {
  const { baseUrl, chromePort, chromePath } = web;
  // Home runs signed in: the session cookie and the app's session hint, set in the browser as a
  // signed-in user's browser holds them (Lighthouse keeps cookies between runs).
  const { cookies } = await web.register('Asha');

  const pages: { name: string; url: string; signedIn: boolean }[] = [
    { name: 'Login', url: `${baseUrl}/login`, signedIn: false },
    { name: 'Home (signed in)', url: `${baseUrl}/`, signedIn: true },
  ];
  console.log(`Lighthouse ${'12'} mobile preset, ${chromePath}, ${new Date().toISOString()}\n`);
  console.log('page                 accessibility  best practices  performance');
  for (const page of pages) {
    if (page.signedIn) await web.browser.defaultBrowserContext().setCookie(...cookies.map((cookie) => ({ ...cookie, domain: '127.0.0.1', path: '/' })));
    const result = await lighthouse(page.url, {
      port: chromePort,
      output: 'json',
      logLevel: 'error',
      onlyCategories: ['accessibility', 'best-practices', 'performance'],
    });
    if (!result) throw new Error(`no result for ${page.name}`);
    const score = (id: string) => Math.round((result.lhr.categories[id]?.score ?? 0) * 100);
    console.log(
      `${page.name.padEnd(21)}${String(score('accessibility')).padStart(13)}${String(score('best-practices')).padStart(16)}${String(score('performance')).padStart(13)}`,
    );
    // What costs points in accessibility and best practices (any audit that counts and is not passed).
    const counted = ['accessibility', 'best-practices'].flatMap((id) => result.lhr.categories[id]?.auditRefs.filter((ref) => ref.weight > 0).map((ref) => ref.id) ?? []);
    const failing = counted.map((id) => result.lhr.audits[id]).filter((audit) => audit !== undefined && audit.score !== null && audit.score < 1);
    for (const audit of failing) if (audit) console.log(`    - ${audit.id}: ${audit.title}`);
    const metrics = ['first-contentful-paint', 'largest-contentful-paint', 'total-blocking-time', 'cumulative-layout-shift'];
    console.log(`    ${metrics.map((id) => `${id.replace(/-/g, ' ')} ${result.lhr.audits[id]?.displayValue ?? '?'}`).join(' · ')}`);
  }
} finally {
  await web.stop();
}
