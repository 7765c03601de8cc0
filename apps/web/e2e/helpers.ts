/**
 * What every browser spec file shares: one server and one browser for the file, a fresh phone per
 * person of a test, test accounts, and signing in through the login screen.
 */
import { afterAll, afterEach, beforeAll, expect } from 'vitest';
import type { Browser, BrowserContext, Locator, Page } from 'playwright-core';
import { AxeBuilder } from '@axe-core/playwright';
import { launchBrowser, openPhone, registerAccount, startServer, uniqueMobile } from './harness.ts';
import type { RunningServer, TestAccount } from './harness.ts';

export interface BrowserSuite {
  /** This file's server; there once `beforeAll` has run. */
  readonly server: RunningServer;
  /** A fresh phone (its own cookies) on the server, closed after the test. */
  phone: () => Promise<Page>;
  /** A fresh phone signed in as `account`, on Home. */
  signedIn: (account: TestAccount) => Promise<Page>;
}

/** Starts the server and the browser before the file's tests and stops them after; call it at the top. */
export function setUpBrowserSuite(): BrowserSuite {
  let server: RunningServer | undefined;
  let browser: Browser | undefined;
  const contexts: BrowserContext[] = [];

  beforeAll(async () => {
    server = await startServer();
    browser = await launchBrowser();
  });

  afterAll(async () => {
    await browser?.close();
    await server?.stop();
  });

  afterEach(async () => {
    await Promise.all(contexts.splice(0).map((context) => context.close()));
  });

  const started = () => {
    if (!server || !browser) throw new Error('the browser suite has not started: use it inside a test or a later beforeAll');
    return { server, browser };
  };

  const phone = async () => {
    const { server: running, browser: launched } = started();
    const { context, page } = await openPhone(launched, running.baseUrl);
    contexts.push(context);
    return page;
  };

  return {
    get server() {
      return started().server;
    },
    phone,
    signedIn: async (account) => {
      const page = await phone();
      await signIn(page, account);
      return page;
    },
  };
}

/** An account no other test of this run uses; not registered yet. */
export function testAccount(firstName: string, lastName = 'Sharma'): TestAccount {
  return { mobile: uniqueMobile(), password: 'secret-123', firstName, lastName };
}

/** An account registered through the API, for tests that start signed up. */
export async function registeredAccount(server: RunningServer, firstName: string, lastName = 'Sharma'): Promise<TestAccount> {
  const account = testAccount(firstName, lastName);
  await registerAccount(server.baseUrl, account);
  return account;
}

/** Fills the login screen the page shows and presses 'Sign in'. */
export async function submitLogin(page: Page, account: Pick<TestAccount, 'mobile' | 'password'>): Promise<void> {
  await page.getByLabel('Mobile number').fill(account.mobile);
  await page.getByLabel('Password', { exact: true }).fill(account.password);
  await page.getByRole('button', { name: 'Sign in' }).click();
}

/** Signs in through /login and waits for Home's greeting. */
export async function signIn(page: Page, account: TestAccount): Promise<void> {
  await page.goto('/login');
  await submitLogin(page, account);
  await page.getByRole('heading', { name: `Hello, ${account.firstName}` }).waitFor();
}

/** A session outside the browser: the cookie header of a login through the API. */
export async function sessionCookie(server: RunningServer, account: Pick<TestAccount, 'mobile' | 'password'>): Promise<string> {
  const login = () =>
    fetch(`${server.baseUrl}/api/auth/login`, {
      method: 'POST',
      headers: { 'Content-Type': 'application/json', Origin: server.baseUrl },
      body: JSON.stringify({ mobile: account.mobile, password: account.password }),
    });
  // A blocking grantRole (a CLI run of several seconds on a busy machine) can outlast the server's
  // keep-alive, so the pooled socket is closed under us: one retry on a fresh connection.
  const response = await login().catch(login);
  if (!response.ok) throw new Error(`login answered ${response.status}`);
  return response.headers
    .getSetCookie()
    .map((line) => line.split(';')[0])
    .join('; ');
}

export const path = (page: Page) => new URL(page.url()).pathname;

/** Titles are set by an effect after the screen renders, so wait for them rather than read once. */
export async function expectTitle(page: Page, title: string): Promise<void> {
  await page.waitForFunction((expected) => document.title === expected, title);
  expect(await page.title()).toBe(title);
}

/**
 * WCAG 2.2 A/AA checks with axe-core on what the page shows now (an open dialog included): fails on
 * any serious or critical violation, naming the rule and the elements. Call it on every screen a
 * test visits, in each language it runs in.
 */
export async function expectAccessible(page: Page, what = path(page)): Promise<void> {
  // Colours are judged once entering animations (toasts, dialogs) have ended; endless ones (skeletons) are left alone.
  await page.evaluate(() =>
    Promise.all(
      document
        .getAnimations()
        .filter((animation) => animation.effect?.getComputedTiming().iterations !== Number.POSITIVE_INFINITY)
        .map((animation) => animation.finished.catch(() => undefined)),
    ),
  );
  const results = await new AxeBuilder({ page })
    .withTags(['wcag2a', 'wcag2aa', 'wcag21a', 'wcag21aa', 'wcag22aa'])
    .analyze();
  const serious = results.violations.filter((violation) => violation.impact === 'serious' || violation.impact === 'critical');
  const report = serious.map(
    (violation) => `${violation.id} (${violation.impact}): ${violation.help}\n  ${violation.nodes.map((node) => node.target.join(' ')).join('\n  ')}`,
  );
  expect(report, `axe on ${what}`).toEqual([]);
}

/**
 * Opens the finance screen on a signed-in staff page, once the finance role granted by the CLI has
 * reached the read model (until then the screen says the role is missing).
 */
export async function openFinanceScreen(page: Page): Promise<Page> {
  const deadline = Date.now() + 10_000;
  for (;;) {
    await page.goto('/admin/finance');
    await page.getByRole('heading', { level: 1 }).waitFor();
    if ((await page.getByRole('heading', { name: 'Finance', level: 1 }).count()) > 0) return page;
    if (Date.now() > deadline) throw new Error('the finance role never reached the app');
    await page.waitForTimeout(250);
  }
}

/** The CLI writes a role to the event store; the server's read model has it a moment later. */
export async function waitForRole(server: RunningServer, account: TestAccount, role: string): Promise<void> {
  const cookie = await sessionCookie(server, account);
  const deadline = Date.now() + 10_000;
  while (Date.now() < deadline) {
    const user = (await (await fetch(`${server.baseUrl}/api/auth/user`, { headers: { cookie } })).json()) as { roles: string[] };
    if (user.roles.includes(role)) return;
    await new Promise((wait) => setTimeout(wait, 100));
  }
  throw new Error(`${account.mobile} did not get the ${role} role in time`);
}

/** The account's wallet balance as the API answers it to them ("125.00"). */
export async function balanceOf(server: RunningServer, account: Pick<TestAccount, 'mobile' | 'password'>): Promise<string> {
  const cookie = await sessionCookie(server, account);
  const user = (await (await fetch(`${server.baseUrl}/api/auth/user`, { headers: { cookie } })).json()) as { totalRupees: string };
  return user.totalRupees;
}

export interface AdjustmentInput {
  mobile: string;
  /** As typed in the amount field, e.g. "250". */
  amount: string;
  direction?: 'credit' | 'debit';
  reason: string;
}

/**
 * Fills the finance screen's adjustment form and presses 'Apply Adjustment': nothing is sent yet,
 * the confirmation that names the person opens. Returns that dialog.
 */
export async function openAdjustmentConfirmation(finance: Page, { mobile, amount, direction = 'credit', reason }: AdjustmentInput): Promise<Locator> {
  await finance.getByLabel("User's mobile number").fill(mobile);
  await finance.getByLabel('Amount (₹)').fill(amount);
  await finance.getByRole('radio', { name: direction === 'credit' ? 'Credit (add)' : 'Debit (take)' }).check();
  await finance.getByLabel('Reason').fill(reason);
  await finance.getByRole('button', { name: 'Apply Adjustment' }).click();
  const dialog = finance.getByRole('dialog', { name: 'Apply this adjustment?' });
  await dialog.waitFor();
  return dialog;
}

/** An adjustment through the finance screen, confirmed: the dialog's confirm button names the amount. */
export async function applyAdjustment(finance: Page, adjustment: AdjustmentInput): Promise<void> {
  const dialog = await openAdjustmentConfirmation(finance, adjustment);
  await dialog.getByRole('button', { name: /^(Credit|Debit) ₹/ }).click();
  await dialog.waitFor({ state: 'detached' });
}
