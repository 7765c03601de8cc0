/**
 * The built web app in a real browser, for the scripts that measure it (scripts/src/lighthouse.ts,
 * scripts/src/bench/web.ts): the API serving apps/web/dist on a free port with a fresh data directory,
 * Debian's Chromium (CHROME_PATH overrides /usr/bin/chromium) with its DevTools port open, and
 * puppeteer-core (Lighthouse's own dependency) to drive it. Build the web app first.
 */
import { spawn } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { createRequire } from 'node:module';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';

export const repoRoot = resolve(import.meta.dirname, '..', '..');
const chromePath = process.env.CHROME_PATH ?? '/usr/bin/chromium';

export function freePort(): Promise<number> {
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

/**
 * The part of puppeteer-core's API these scripts use. puppeteer-core is Lighthouse's dependency,
 * not the scripts' own, so its types are not in reach; these match its signatures.
 */
export interface PuppeteerPage {
  setViewport(viewport: { width: number; height: number; isMobile?: boolean; hasTouch?: boolean; deviceScaleFactor?: number }): Promise<void>;
  evaluateOnNewDocument(script: string): Promise<unknown>;
  goto(url: string, options?: { waitUntil?: 'load' | 'domcontentloaded' | 'networkidle0' }): Promise<unknown>;
  waitForFunction(expression: string, options?: { timeout?: number }): Promise<unknown>;
  evaluate(expression: string): Promise<unknown>;
  type(selector: string, text: string): Promise<void>;
  createCDPSession(): Promise<PuppeteerCdpSession>;
  close(): Promise<void>;
}
/** A DevTools protocol session (puppeteer's CDPSession), e.g. for Network.emulateNetworkConditions. */
export interface PuppeteerCdpSession {
  send(method: string, params?: Record<string, unknown>): Promise<unknown>;
  detach(): Promise<void>;
}
interface PuppeteerTarget {
  type(): string;
  url(): string;
  createCDPSession(): Promise<PuppeteerCdpSession>;
}
interface PuppeteerContext {
  newPage(): Promise<PuppeteerPage>;
  waitForTarget(predicate: (target: PuppeteerTarget) => boolean, options?: { timeout?: number }): Promise<PuppeteerTarget>;
  setCookie(...cookies: { name: string; value: string; domain: string; path: string }[]): Promise<void>;
  close(): Promise<void>;
}
interface PuppeteerBrowser {
  createBrowserContext(): Promise<PuppeteerContext>;
  defaultBrowserContext(): PuppeteerContext;
  disconnect(): Promise<void>;
}

export interface Account {
  mobile: string;
  password: string;
  firstName: string;
  lastName: string;
}

export interface WebSession {
  baseUrl: string;
  chromePath: string;
  /** Chromium's DevTools port (Lighthouse connects to it). */
  chromePort: number;
  browser: PuppeteerBrowser;
  /** Registers a fresh account and returns the cookies of its session, for `browser.setCookie`. */
  register(firstName: string): Promise<{ account: Account; cookies: { name: string; value: string }[] }>;
  stop(): Promise<void>;
}

/** Puppeteer-core as Lighthouse resolves it: no second copy in the lockfile. */
function puppeteer(): { connect(options: { browserURL: string; defaultViewport: null }): Promise<PuppeteerBrowser> } {
  const fromLighthouse = createRequire(createRequire(import.meta.url).resolve('lighthouse'));
  return fromLighthouse('puppeteer-core') as ReturnType<typeof puppeteer>;
}

/** `webDist`: the build the API serves (default apps/web/dist); `seedDemo`: the demo tasks and people. */
export async function startWebSession(options: { webDist?: string; seedDemo?: boolean } = {}): Promise<WebSession> {
  const apiPort = await freePort();
  const dataDir = mkdtempSync(join(tmpdir(), 'kamai-browser-'));
  const baseUrl = `http://127.0.0.1:${apiPort}`;
  const api = spawn(join(repoRoot, 'node_modules', '.bin', 'tsx'), ['apps/api/src/main.ts'], {
    cwd: repoRoot,
    env: { ...process.env, PORT: String(apiPort), HOST: '127.0.0.1', DATA_DIR: dataDir, SEED_DEMO: options.seedDemo ? 'true' : 'false', LOG_LEVEL: 'warn', ...(options.webDist ? { WEB_DIST: options.webDist } : {}) },
    stdio: 'ignore',
    detached: true,
  });
  const chromePort = await freePort();
  const chrome = spawn(
    chromePath,
    ['--headless=new', '--no-sandbox', '--disable-gpu', '--no-first-run', `--remote-debugging-port=${chromePort}`, `--user-data-dir=${join(dataDir, 'chrome')}`, 'about:blank'],
    { stdio: 'ignore', detached: true },
  );
  const kill = () => {
    for (const child of [chrome, api]) if (child.pid !== undefined && child.exitCode === null && child.signalCode === null) process.kill(-child.pid, 'SIGTERM');
  };
  process.once('exit', kill);
  const stop = async () => {
    kill();
    // Chrome writes its profile until it has exited.
    if (chrome.exitCode === null && chrome.signalCode === null) await new Promise((done) => chrome.once('exit', done));
    rmSync(dataDir, { recursive: true, force: true, maxRetries: 5, retryDelay: 200 });
  };
  try {
    await waitFor(`${baseUrl}/api/health`, 30_000);
    await waitFor(`http://127.0.0.1:${chromePort}/json/version`, 30_000);
    const browser = await puppeteer().connect({ browserURL: `http://127.0.0.1:${chromePort}`, defaultViewport: null });
    let registered = 0;
    return {
      baseUrl,
      chromePath,
      chromePort,
      browser,
      async register(firstName) {
        registered += 1;
        const account = { mobile: `9${String(Date.now() + registered).slice(-9)}`, password: 'browser-run-1', firstName, lastName: 'Rao', consent: true };
        const answer = await fetch(`${baseUrl}/api/auth/register`, {
          method: 'POST',
          headers: { 'Content-Type': 'application/json', Origin: baseUrl },
          body: JSON.stringify(account),
        });
        if (answer.status !== 201) throw new Error(`register answered ${answer.status}`);
        const cookies = answer.headers.getSetCookie().map((line) => {
          const [pair = ''] = line.split(';');
          const at = pair.indexOf('=');
          return { name: pair.slice(0, at), value: pair.slice(at + 1) };
        });
        // What the app itself sets once it sees the signed-in user (apps/web/src/lib/sessionHint.ts).
        cookies.push({ name: 'kamai_signed_in', value: '1' });
        return { account, cookies };
      },
      async stop() {
        await browser.disconnect();
        await stop();
      },
    };
  } catch (err) {
    await stop();
    throw err;
  }
}
