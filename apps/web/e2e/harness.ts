/**
 * Browser-test harness: the real API server as a child process (serving the built web app from the
 * same origin, with a fresh data directory) and headless Chromium at a phone viewport.
 */
import { spawn, spawnSync } from 'node:child_process';
import type { ChildProcess } from 'node:child_process';
import { appendFileSync, createWriteStream, existsSync, mkdirSync, mkdtempSync, rmSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { chromium } from 'playwright-core';
import type { Browser, BrowserContext, Page } from 'playwright-core';

const webDir = resolve(dirname(fileURLToPath(import.meta.url)), '..');
const repoRoot = resolve(webDir, '../..');

const SERVER_READY_TIMEOUT_MS = 60_000;
const SERVER_STOP_TIMEOUT_MS = 5_000;

/** A phone-sized, touch-enabled browser context (an iPhone 12-class screen). */
const PHONE = {
  viewport: { width: 390, height: 844 },
  deviceScaleFactor: 3,
  isMobile: true,
  hasTouch: true,
  locale: 'en-IN',
  timezoneId: 'Asia/Kolkata',
} as const;

/**
 * Where every browser suite's API server writes its output, one file per server, kept after the run
 * (E2E_LOG_DIR; test-results is not committed), beside `people.jsonl`, the test people of the run:
 * `logs.e2e.spec.ts` greps the logs for them.
 */
export const E2E_LOG_DIR = process.env.E2E_LOG_DIR ?? join(repoRoot, 'test-results', 'e2e-logs');
export const E2E_PEOPLE_FILE = join(E2E_LOG_DIR, 'people.jsonl');

export interface RunningServer {
  baseUrl: string;
  /** The file the server's output goes to (under E2E_LOG_DIR). */
  logFile: string;
  /** The server's DATA_DIR, for operators' commands run beside it (see `grantRole`). */
  dataDir: string;
  /** What the server printed so far, for failure messages. */
  output: () => string;
  stop: () => Promise<void>;
}

async function freePort(): Promise<number> {
  return new Promise((resolvePort, reject) => {
    const probe = createServer();
    probe.once('error', reject);
    probe.listen(0, '127.0.0.1', () => {
      const address = probe.address();
      const port = typeof address === 'object' && address ? address.port : 0;
      probe.close(() => resolvePort(port));
    });
  });
}

/** The server serves apps/web/dist; build it once if a fresh checkout has none. */
function ensureWebBuild(): void {
  if (existsSync(join(webDir, 'dist', 'index.html'))) return;
  const vite = join(webDir, 'node_modules', '.bin', 'vite');
  // Vitest sets NODE_ENV=test, and a build under it is not a production one (no service worker).
  const result = spawnSync(vite, ['build'], { cwd: webDir, stdio: 'inherit', env: { ...process.env, NODE_ENV: 'production' } });
  if (result.status !== 0) throw new Error(`vite build failed with exit code ${result.status}`);
}

function waitForExit(child: ChildProcess, timeoutMs: number): Promise<boolean> {
  if (child.exitCode !== null || child.signalCode !== null) return Promise.resolve(true);
  return new Promise((resolveExit) => {
    const timer = setTimeout(() => resolveExit(false), timeoutMs);
    child.once('exit', () => {
      clearTimeout(timer);
      resolveExit(true);
    });
  });
}

/**
 * Starts the API (apps/api/src/main.ts's server, with the check of every request and answer against
 * the OpenAPI document: testing/conformance-main.ts) on a free port with an empty data directory;
 * resolves once healthy. `stop()` throws when any answer disagreed with the document.
 */
export async function startServer(): Promise<RunningServer> {
  ensureWebBuild();
  const port = await freePort();
  const dataDir = mkdtempSync(join(tmpdir(), 'kamai-e2e-'));
  const baseUrl = `http://127.0.0.1:${port}`;
  let output = '';

  const child = spawn(join(repoRoot, 'node_modules', '.bin', 'tsx'), ['apps/api/src/testing/conformance-main.ts'], {
    cwd: repoRoot,
    env: {
      ...process.env,
      PORT: String(port),
      HOST: '127.0.0.1',
      DATA_DIR: dataDir,
      SEED_DEMO: 'false',
      REGISTRATIONS_PER_HOUR: '1000000',
      // As in production (under vitest the logger is otherwise silent): the log file is searched for personal data.
      LOG_LEVEL: 'info',
      // A two-branch directory in Razorpay's format (HDFC0001234, SBIN0000691): the withdraw form names those branches.
      IFSC_DATASET: join(repoRoot, 'apps/api/src/ifsc/fixtures/IFSC.csv'),
    },
    stdio: ['ignore', 'pipe', 'pipe'],
    // Its own process group, so stopping it also stops the node process tsx starts.
    detached: true,
  });
  // Should the test process end without afterAll (a crash, Ctrl-C), take the server down with it.
  const killOnExit = () => {
    if (child.pid !== undefined && child.exitCode === null) process.kill(-child.pid, 'SIGKILL');
  };
  process.once('exit', killOnExit);
  mkdirSync(E2E_LOG_DIR, { recursive: true });
  const logFile = join(E2E_LOG_DIR, `api-${Date.now()}-${port}.log`);
  const log = createWriteStream(logFile);
  const record = (chunk: Buffer) => {
    output += chunk.toString();
    log.write(chunk);
  };
  child.stdout?.on('data', record);
  child.stderr?.on('data', record);

  const stop = async () => {
    process.off('exit', killOnExit);
    if (child.pid !== undefined && child.exitCode === null && child.signalCode === null) {
      process.kill(-child.pid, 'SIGTERM');
      if (!(await waitForExit(child, SERVER_STOP_TIMEOUT_MS))) process.kill(-child.pid, 'SIGKILL');
      await waitForExit(child, SERVER_STOP_TIMEOUT_MS);
    }
    if (!log.writableEnded) await new Promise((ended) => log.end(ended));
    rmSync(dataDir, { recursive: true, force: true });
    const disagreements = output.split('\n').filter((line) => line.startsWith('[conformance] '));
    if (disagreements.length > 0) throw new Error(disagreements.map((line) => line.slice('[conformance] '.length)).join('\n'));
  };

  const deadline = Date.now() + SERVER_READY_TIMEOUT_MS;
  while (Date.now() < deadline) {
    if (child.exitCode !== null) {
      await stop();
      throw new Error(`the API server exited with code ${child.exitCode} before it was healthy:\n${output}`);
    }
    try {
      const response = await fetch(`${baseUrl}/api/health`);
      if (response.ok) return { baseUrl, logFile, dataDir, output: () => output, stop };
    } catch {
      // Not listening yet.
    }
    await new Promise((wait) => setTimeout(wait, 100));
  }
  await stop();
  throw new Error(`the API server was not healthy within ${SERVER_READY_TIMEOUT_MS} ms:\n${output}`);
}

export function launchBrowser(): Promise<Browser> {
  return chromium.launch({
    executablePath: process.env.CHROMIUM_PATH ?? '/usr/bin/chromium',
    args: [
      '--headless',
      '--no-sandbox',
      '--disable-gpu',
      '--disable-quic',
      '--disable-background-networking',
      '--disable-component-update',
      '--disable-sync',
      '--no-first-run',
    ],
  });
}

/** A fresh phone context (no cookies) and a page in it, with relative URLs resolved on `baseUrl`. */
export async function openPhone(browser: Browser, baseUrl: string): Promise<{ context: BrowserContext; page: Page }> {
  const context = await browser.newContext({ ...PHONE, baseURL: baseUrl });
  context.setDefaultTimeout(15_000);
  const page = await context.newPage();
  settleBeforeNavigating(page);
  return { context, page };
}

/**
 * A dialog closing takes its history entry off with an asynchronous step back; a navigation started
 * before the browser has done it races it and one of them is cancelled (`net::ERR_ABORTED`). The app
 * marks such a step on <html> (`data-history-step`); the page's goto and reload wait for it to land.
 */
function settleBeforeNavigating(page: Page): void {
  const settled = async () => {
    try {
      await page.waitForFunction(() => document.documentElement.dataset.historyStep === undefined);
    } catch (error) {
      // A page already on its way elsewhere has nothing left to settle.
      if (!/context was destroyed|navigat/i.test(String(error))) throw error;
    }
  };
  const goto = page.goto.bind(page);
  const reload = page.reload.bind(page);
  page.goto = async (...args) => {
    await settled();
    return goto(...args);
  };
  page.reload = async (...args) => {
    await settled();
    return reload(...args);
  };
}

let mobileCounter = 0;

/** A 10-digit mobile number no other test of this run uses. */
export function uniqueMobile(): string {
  mobileCounter += 1;
  const stamp = String(Date.now() % 1_000_000).padStart(6, '0');
  return `9${stamp}${String(mobileCounter).padStart(3, '0')}`;
}

export interface TestAccount {
  mobile: string;
  password: string;
  firstName: string;
  lastName: string;
}

/** Notes a test person of this run in E2E_PEOPLE_FILE, so the log check looks for them. */
export function notePerson(account: Pick<TestAccount, 'mobile' | 'firstName' | 'lastName'>): void {
  mkdirSync(E2E_LOG_DIR, { recursive: true });
  appendFileSync(E2E_PEOPLE_FILE, `${JSON.stringify({ mobile: account.mobile, firstName: account.firstName, lastName: account.lastName })}\n`);
}

/** Registers an account straight through the API (no browser session), for tests that sign in. */
export async function registerAccount(baseUrl: string, account: TestAccount): Promise<void> {
  const response = await fetch(`${baseUrl}/api/auth/register`, {
    method: 'POST',
    headers: { 'Content-Type': 'application/json', Origin: baseUrl },
    body: JSON.stringify({ ...account, consent: true }),
  });
  if (response.status !== 201) throw new Error(`register answered ${response.status}: ${await response.text()}`);
}

/**
 * Gives a registered user a staff role the way an operator does (`npm run cli -- grant-role`), on
 * the running server's DATA_DIR. The server's read models pick the change up within a moment; a page
 * sees the role on its next read of the current user (e.g. after a reload).
 */
export function grantRole(server: Pick<RunningServer, 'dataDir'>, mobile: string, role: 'admin' | 'reviewer' | 'finance'): void {
  const result = spawnSync(join(repoRoot, 'node_modules', '.bin', 'tsx'), ['scripts/src/cli.ts', 'grant-role', mobile, role], {
    cwd: repoRoot,
    env: { ...process.env, DATA_DIR: server.dataDir },
    encoding: 'utf8',
  });
  if (result.status !== 0) throw new Error(`grant-role ${mobile} ${role} failed (${result.status}):\n${result.stdout}${result.stderr}`);
}

/**
 * A person registered before consent was asked (no consent record), written into the server's data
 * directory as the code of that time wrote them (apps/api/src/testing/pre-consent.ts).
 */
export function writePreConsentAccount(server: Pick<RunningServer, 'dataDir'>, account: TestAccount): void {
  const args = ['apps/api/src/testing/pre-consent.ts', account.mobile, account.password, account.firstName, account.lastName];
  const result = spawnSync(join(repoRoot, 'node_modules', '.bin', 'tsx'), args, { cwd: repoRoot, env: { ...process.env, DATA_DIR: server.dataDir }, encoding: 'utf8' });
  if (result.status !== 0) throw new Error(`pre-consent ${account.mobile} failed (${result.status}):\n${result.stdout}${result.stderr}`);
}
