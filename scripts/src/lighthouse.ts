/**
 * `npx tsx scripts/src/lighthouse.ts`: Lighthouse (mobile preset: a mid-range phone on slow 4G) on
 * the login screen and on Home signed in, with Debian's Chromium. Starts the built app on a free
 * port with a fresh data directory, registers an account for Home, prints accessibility, best
 * practices and performance per page. Prints, does not assert. Build the web app first
 * (`npx -y pnpm@10.34.9 --filter @kamai/web build`). CHROME_PATH overrides /usr/bin/chromium.
 */
import { spawn } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import lighthouse from 'lighthouse';

const repoRoot = resolve(import.meta.dirname, '..', '..');
const chromePath = process.env.CHROME_PATH ?? '/usr/bin/chromium';

function freePort(): Promise<number> {
  return new Promise((done, fail) => {
    const server = createServer();
    server.once('error', fail);
    server.listen(0, '127.0.0.1', () => {
      const address = server.address();
      server.close(() => (typeof address === 'object' && address ? done(address.port) : fail(new Error('no port'))));
    });
  });
}

async function waitFor(url: string, timeoutMs: number): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (Date.now() < deadline) {
    try {
      if ((await fetch(url)).ok) return;
    } catch {
      // Not up yet.
    }
    await new Promise((wait) => setTimeout(wait, 100));
  }
  throw new Error(`${url} did not answer within ${timeoutMs} ms`);
}

const apiPort = await freePort();
const dataDir = mkdtempSync(join(tmpdir(), 'kamai-lighthouse-'));
const baseUrl = `http://127.0.0.1:${apiPort}`;
const api = spawn(join(repoRoot, 'node_modules', '.bin', 'tsx'), ['apps/api/src/main.ts'], {
  cwd: repoRoot,
  env: { ...process.env, PORT: String(apiPort), HOST: '127.0.0.1', DATA_DIR: dataDir, SEED_DEMO: 'false', LOG_LEVEL: 'warn' },
  stdio: 'ignore',
  detached: true,
});

const chromePort = await freePort();
const chrome = spawn(
  chromePath,
  ['--headless=new', '--no-sandbox', '--disable-gpu', '--no-first-run', `--remote-debugging-port=${chromePort}`, `--user-data-dir=${join(dataDir, 'chrome')}`, 'about:blank'],
  { stdio: 'ignore', detached: true },
);

const stop = () => {
  for (const child of [chrome, api]) if (child.pid !== undefined && child.exitCode === null) process.kill(-child.pid, 'SIGTERM');
};
process.once('exit', stop);

try {
  await waitFor(`${baseUrl}/api/health`, 30_000);
  await waitFor(`http://127.0.0.1:${chromePort}/json/version`, 30_000);

  const account = { mobile: `9${String(Date.now()).slice(-9)}`, password: 'lighthouse-1', firstName: 'Asha', lastName: 'Rao' };
  const registered = await fetch(`${baseUrl}/api/auth/register`, {
    method: 'POST',
    headers: { 'Content-Type': 'application/json', Origin: baseUrl },
    body: JSON.stringify(account),
  });
  if (registered.status !== 201) throw new Error(`register answered ${registered.status}`);
  const cookie = registered.headers
    .getSetCookie()
    .map((line) => line.split(';')[0])
    .join('; ');

  const pages: { name: string; url: string; headers?: Record<string, string> }[] = [
    { name: 'Login', url: `${baseUrl}/login` },
    { name: 'Home (signed in)', url: `${baseUrl}/`, headers: { Cookie: cookie } },
  ];
  console.log(`Lighthouse ${'12'} mobile preset, ${chromePath}, ${new Date().toISOString()}\n`);
  console.log('page                 accessibility  best practices  performance');
  for (const page of pages) {
    const result = await lighthouse(page.url, {
      port: chromePort,
      output: 'json',
      logLevel: 'error',
      onlyCategories: ['accessibility', 'best-practices', 'performance'],
      ...(page.headers && { extraHeaders: page.headers }),
    });
    if (!result) throw new Error(`no result for ${page.name}`);
    const score = (id: string) => Math.round((result.lhr.categories[id]?.score ?? 0) * 100);
    console.log(
      `${page.name.padEnd(21)}${String(score('accessibility')).padStart(13)}${String(score('best-practices')).padStart(16)}${String(score('performance')).padStart(13)}`,
    );
    const failing = Object.values(result.lhr.audits).filter(
      (audit) => audit.score !== null && audit.score < 0.9 && audit.scoreDisplayMode === 'binary',
    );
    for (const audit of failing) console.log(`    - ${audit.id}: ${audit.title}`);
    const metrics = ['first-contentful-paint', 'largest-contentful-paint', 'total-blocking-time', 'cumulative-layout-shift'];
    console.log(`    ${metrics.map((id) => `${id.replace(/-/g, ' ')} ${result.lhr.audits[id]?.displayValue ?? '?'}`).join(' · ')}`);
  }
} finally {
  stop();
  // Chrome writes its profile until it has exited.
  if (chrome.exitCode === null && chrome.signalCode === null) await new Promise((resolve) => chrome.once('exit', resolve));
  rmSync(dataDir, { recursive: true, force: true, maxRetries: 5, retryDelay: 200 });
}
