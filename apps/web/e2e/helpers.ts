/**
 * What every browser spec file shares: one server and one browser for the file, a fresh phone per
 * person of a test, test accounts, and signing in through the login screen.
 */
import { readFileSync } from 'node:fs';
import { FIRST_SCREEN_ID } from '@kamai/contracts';
import { afterAll, afterEach, beforeAll, expect } from 'vitest';
import type { Browser, BrowserContext, Locator, Page } from 'playwright-core';
import { AxeBuilder } from '@axe-core/playwright';
import { grantRole, launchBrowser, notePerson, openPhone, registerAccount, startServer, uniqueMobile } from './harness.ts';
import type { RunningServer, TestAccount } from './harness.ts';
import { drawPng } from './png.ts';

export interface BrowserSuite {
  /** This file's server; there once `beforeAll` has run. */
  readonly server: RunningServer;
  /** A fresh phone (its own cookies) on the server, closed after the test. */
  phone: () => Promise<Page>;
  /** A fresh phone signed in as `account`, on Home. */
  signedIn: (account: TestAccount) => Promise<Page>;
  /**
   * A call to the API as `account`, the way the app sends it (same origin, its session cookie): a
   * JSON body, or bytes as they are (with their own Content-Type in `headers`).
   */
  api: (account: Pick<TestAccount, 'mobile' | 'password'>, method: string, path: string, body?: unknown, headers?: Record<string, string>) => Promise<Response>;
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
    api: async (account, method, path, body, headers = {}) => {
      const { server: running } = started();
      const bytes = body instanceof Uint8Array;
      return fetch(`${running.baseUrl}${path}`, {
        method,
        headers: {
          cookie: await sessionCookie(running, account),
          origin: running.baseUrl,
          ...(body === undefined || bytes ? {} : { 'content-type': 'application/json' }),
          ...headers,
        },
        body: body === undefined ? undefined : bytes ? Buffer.from(body) : JSON.stringify(body),
      });
    },
  };
}

/** A task added through the admin API (as `admin`), with defaults for what the test does not care about; its id. */
export async function taskByApi(suite: BrowserSuite, admin: TestAccount, task: Record<string, unknown>): Promise<string> {
  const created = await suite.api(admin, 'POST', '/api/admin/tasks', {
    description: 'Rate it.',
    rupeeReward: '10',
    estimatedTime: '3 min',
    taskType: 'rating',
    requiresProof: true,
    isActive: true,
    iconColor: '#3B82F6',
    ...task,
  });
  if (created.status !== 201) throw new Error(`create task answered ${created.status}: ${await created.text()}`);
  return ((await created.json()) as { id: string }).id;
}

let proofsDrawn = 0;
/** A proof of `worker` for `taskId`, uploaded and submitted through the API: one more in the review queue. */
export async function proofByApi(suite: BrowserSuite, worker: TestAccount, taskId: string): Promise<void> {
  const ok = async (answer: Promise<Response>) => {
    const response = await answer;
    if (!response.ok) throw new Error(`${response.url} answered ${response.status}: ${await response.text()}`);
    return response;
  };
  const { uploadURL, objectURL } = (await (await ok(suite.api(worker, 'POST', '/api/objects/upload'))).json()) as { uploadURL: string; objectURL: string };
  // Every proof a different picture, as real ones are.
  proofsDrawn += 1;
  const shade = (proofsDrawn * 40) % 256;
  const target = new URL(uploadURL, suite.server.baseUrl);
  await ok(suite.api(worker, 'PUT', target.pathname + target.search, drawPng(16, 16, (x) => [shade, x * 8, 100]), { 'Content-Type': 'image/png' }));
  await ok(suite.api(worker, 'POST', `/api/tasks/${taskId}/submit-proof`, { proofImageUrl: objectURL, proofDescription: 'Done' }));
}

/** An account no other test of this run uses; not registered yet. */
export function testAccount(firstName: string, lastName = 'Sharma'): TestAccount {
  const account = { mobile: uniqueMobile(), password: 'secret-123', firstName, lastName };
  notePerson(account);
  return account;
}

/** An account registered through the API, for tests that start signed up. */
export async function registeredAccount(server: RunningServer, firstName: string, lastName = 'Sharma'): Promise<TestAccount> {
  const account = testAccount(firstName, lastName);
  await registerAccount(server.baseUrl, account);
  return account;
}

/** A registered account with a staff role, once the role has reached the server's read model. */
export async function staffAccount(server: RunningServer, firstName: string, lastName: string, role: 'admin' | 'reviewer' | 'finance'): Promise<TestAccount> {
  const account = await registeredAccount(server, firstName, lastName);
  grantRole(server, account.mobile, role);
  await waitForRole(server, account, role);
  return account;
}

/** Fills the login screen the page shows and presses 'Sign in'. */
export async function submitLogin(page: Page, account: Pick<TestAccount, 'mobile' | 'password'>): Promise<void> {
  await page.getByLabel('Mobile number').fill(account.mobile);
  await page.getByLabel('Password', { exact: true }).fill(account.password);
  await page.getByRole('button', { name: 'Sign in' }).click();
}

/**
 * Opens the sign-in page and waits for the app to take over the form the server drew into it
 * (docs/first-screen.md): before that, a press posts the server's form (a 303 back with an error
 * line, no toast) and the eye button waits for the app, so a spec of the app's form waits for it.
 */
export async function openSignIn(page: Page, url = '/login'): Promise<void> {
  await page.goto(url);
  await page.locator(`#${FIRST_SCREEN_ID}`).waitFor({ state: 'detached' });
}

/**
 * Signs in through /login and waits for Home's greeting, in either language: the account's saved
 * language takes over once the session is read (lib/session.ts), so an account an earlier test set
 * to Hindi may never show the English greeting at all.
 */
export async function signIn(page: Page, account: TestAccount): Promise<void> {
  await openSignIn(page);
  await submitLogin(page, account);
  const greetings = (['en', 'hi'] as const).map((language) => page.getByRole('heading', { name: tx(language, 'home:hello', { name: account.firstName }) }));
  await greetings[0]!.or(greetings[1]!).waitFor();
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

/**
 * PUT /api/admin/settings as `requester`; a control setting it changes is a request that `approver`
 * (another admin) approves. Throws on any refusal.
 */
export async function applySettings(server: RunningServer, requester: TestAccount, approver: TestAccount, body: unknown): Promise<void> {
  const put = await apiAs(server, requester, 'PUT', '/api/admin/settings', body);
  const answer = (await put.json()) as { request?: { id: string } };
  if (put.status === 202 && answer.request) await apiAs(server, approver, 'POST', `/api/admin/settings/requests/${answer.request.id}/approve`, {});
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

/**
 * Presses Tab until `target` has the focus, as a keyboard user gets there (so :focus-visible styles
 * apply); fails when it is not reached within `maxPresses`.
 */
export async function tabTo(page: Page, target: Locator, maxPresses = 60): Promise<void> {
  await target.waitFor();
  for (let press = 0; press < maxPresses; press += 1) {
    await page.keyboard.press('Tab');
    if (await target.evaluate((element) => element === document.activeElement)) return;
  }
  throw new Error(`Tab did not reach ${String(target)} in ${maxPresses} presses`);
}

export interface FocusIndicator {
  /** The best WCAG contrast ratio of a visible ring or outline against what surrounds it (1 when none). */
  contrast: number;
  /** What was measured, for a failure message: each indicator colour with its ratio. */
  details: string;
}

/**
 * The contrast of the focused element's focus indicator (WCAG 2.2 non-text contrast, 1.4.11, needs
 * 3:1; axe does not check it). Reads the painted colours: each solid ring of its box-shadow (no
 * offset or blur, wider than the layers painted over it: Tailwind's ring and ring-offset) and its
 * outline, composited with a canvas over the background next to it (the ancestors' for an outer
 * ring, the element's own for an inset ring; every stop of a gradient is tried, the worst counts).
 * Waits for the element's transitions first.
 */
export async function focusIndicatorContrast(target: Locator): Promise<FocusIndicator> {
  return target.evaluate(async (element) => {
    await Promise.all(element.getAnimations().map((animation) => animation.finished.catch(() => undefined)));
    const canvas = document.createElement('canvas');
    canvas.width = 1;
    canvas.height = 1;
    const context = canvas.getContext('2d', { willReadFrequently: true });
    if (!context) throw new Error('no 2D canvas');
    /** The sRGB pixel of colours painted one over the other on white, bottom first. */
    const paint = (colours: string[]): number[] => {
      context.fillStyle = '#ffffff';
      context.fillRect(0, 0, 1, 1);
      for (const colour of colours) {
        context.fillStyle = 'rgba(0, 0, 0, 0)';
        context.fillStyle = colour;
        context.fillRect(0, 0, 1, 1);
      }
      return [...context.getImageData(0, 0, 1, 1).data.slice(0, 3)];
    };
    const isOpaque = (colour: string): boolean => {
      context.clearRect(0, 0, 1, 1);
      context.fillStyle = 'rgba(0, 0, 0, 0)';
      context.fillStyle = colour;
      context.fillRect(0, 0, 1, 1);
      return context.getImageData(0, 0, 1, 1).data[3] === 255;
    };
    const luminance = ([r = 0, g = 0, b = 0]: number[]): number => {
      const channel = (value: number) => {
        const c = value / 255;
        return c <= 0.04045 ? c / 12.92 : ((c + 0.055) / 1.055) ** 2.4;
      };
      return 0.2126 * channel(r) + 0.7152 * channel(g) + 0.0722 * channel(b);
    };
    const ratio = (a: number[], b: number[]): number => {
      const [light, dark] = [luminance(a), luminance(b)].sort((x, y) => y - x);
      return ((light ?? 0) + 0.05) / ((dark ?? 0) + 0.05);
    };
    const colourPattern = /(?:rgba?|hsla?|hwb|lab|lch|oklab|oklch|color)\([^()]*\)|#[0-9a-f]{3,8}\b/gi;

    /** The backgrounds behind a box starting at `from`: each a stack of colours, bottom first. */
    const backgroundsFrom = (from: Element | null): string[][] => {
      const above: string[] = [];
      for (let node = from; node; node = node.parentElement) {
        const style = getComputedStyle(node);
        const stops = style.backgroundImage.includes('gradient') ? (style.backgroundImage.match(colourPattern) ?? []) : [];
        if (stops.length > 0) return stops.map((stop) => [stop, ...above]);
        if (isOpaque(style.backgroundColor)) return [[style.backgroundColor, ...above]];
        above.unshift(style.backgroundColor);
      }
      return [['#ffffff', ...above]];
    };

    const style = getComputedStyle(element);
    const indicators: { colour: string; inset: boolean }[] = [];
    // Top-level commas only: colours carry commas inside their parentheses.
    const layers = style.boxShadow === 'none' ? [] : style.boxShadow.split(/,(?![^(]*\))/);
    const widest = { inset: 0, outer: 0 };
    for (const layer of layers) {
      const colour = layer.match(colourPattern)?.[0];
      const lengths = (layer.replace(colourPattern, '').match(/-?[\d.]+px/g) ?? []).map((length) => Number.parseFloat(length));
      const [x = 0, y = 0, blur = 0, spread = 0] = lengths;
      const inset = /\binset\b/.test(layer);
      const side = inset ? 'inset' : 'outer';
      // Earlier layers are painted over later ones: a ring shows only past the widest one above it.
      if (colour && x === 0 && y === 0 && blur === 0 && spread > widest[side]) {
        indicators.push({ colour, inset });
        widest[side] = spread;
      }
    }
    if (style.outlineStyle !== 'none' && Number.parseFloat(style.outlineWidth) > 0) indicators.push({ colour: style.outlineColor, inset: false });

    let best = 1;
    const details: string[] = [];
    for (const { colour, inset } of indicators) {
      const worst = Math.min(
        ...backgroundsFrom(inset ? element : element.parentElement).map((background) => ratio(paint([...background, colour]), paint(background))),
      );
      details.push(`${inset ? 'inset ' : ''}${colour}: ${worst.toFixed(2)}`);
      best = Math.max(best, worst);
    }
    return { contrast: best, details: details.join('; ') || 'no ring or outline' };
  });
}

/** Whether two boxes share any area (touching edges do not count). */
export function boxesOverlap(
  a: { x: number; y: number; width: number; height: number },
  b: { x: number; y: number; width: number; height: number },
): boolean {
  return a.x < b.x + b.width && b.x < a.x + a.width && a.y < b.y + b.height && b.y < a.y + a.height;
}

/**
 * A slow network for the requests that change something (every method but GET) to paths matching
 * `pattern`: each is held until `release()`. `keys` lists the Idempotency-Key of every such request
 * that left the page ('' for an action without one).
 */
export async function slowNetwork(page: Page, pattern: RegExp) {
  const keys: string[] = [];
  let release!: () => void;
  const released = new Promise<void>((resolve) => (release = resolve));
  await page.route(
    (url) => pattern.test(url.pathname),
    async (route) => {
      if (route.request().method() === 'GET') return route.fallback();
      keys.push(route.request().headers()['idempotency-key'] ?? '');
      await released;
      await route.continue();
    },
  );
  return { keys, release };
}

export interface PressOptions {
  /** 'tap': two touchscreen taps (a thumb), rather than a mouse double click. */
  how?: 'click' | 'tap';
  /** Also a stray tap on the backdrop while waiting (for modal dialogs; off for a form on the page). */
  backdrop?: boolean;
}

/**
 * Double-clicks (or double-taps) `button` while its request is held: one request leaves, a stray tap
 * on the backdrop meanwhile closes nothing, and `within` (the dialog, or the form on the page) is still
 * there, busy, after both presses. Then the answer is let through. Returns the requests' keys.
 */
export async function doubleClickWhileSlow(
  page: Page,
  within: Locator,
  button: Locator,
  pattern: RegExp,
  { how = 'click', backdrop = true }: PressOptions = {},
): Promise<string[]> {
  const network = await slowNetwork(page, pattern);
  if (how === 'tap') {
    await button.scrollIntoViewIfNeeded();
    // Tapped where a thumb finds it: its centre, once nothing (a toast) lies over it.
    const target = await button.elementHandle();
    const atCentre = () =>
      target.evaluate((element) => {
        const box = element.getBoundingClientRect();
        const hit = document.elementFromPoint(box.x + box.width / 2, box.y + box.height / 2);
        return hit && element.contains(hit) ? 'the button' : (hit?.outerHTML.slice(0, 200) ?? 'nothing');
      });
    await expect.poll(atCentre, { timeout: 15_000 }).toBe('the button');
    const box = await target.boundingBox();
    if (!box) throw new Error(`${String(button)} is not on screen`);
    const [x, y] = [box.x + box.width / 2, box.y + box.height / 2];
    await page.touchscreen.tap(x, y);
    await page.touchscreen.tap(x, y);
  } else {
    await button.dblclick();
  }
  // A loaded machine can take more than the poll's default second to send it.
  await expect.poll(() => network.keys.length, { timeout: 15_000 }).toBe(1);
  if (backdrop) {
    const corner = { x: 4, y: page.viewportSize()!.height - 4 };
    if (how === 'tap') await page.touchscreen.tap(corner.x, corner.y);
    else await page.mouse.click(corner.x, corner.y);
  }
  await expect(within.isVisible()).resolves.toBe(true);
  network.release();
  return network.keys;
}

/** The toast region, in either language ("Notifications (F8)" / "सूचनाएँ (F8)"). */
export const toasts = (on: Page) => on.getByRole('region', { name: /Notifications|सूचनाएँ/, includeHidden: true });

type Texts = { [key: string]: string | Texts };
const locales = new Map<string, Texts>();

/** A text of the app as the locale files have it, with its {{placeholders}} filled in. */
export function tx(language: 'en' | 'hi', key: string, params: Record<string, string | number> = {}): string {
  const [namespace = '', path = ''] = key.split(':');
  const file = `${language}/${namespace}`;
  if (!locales.has(file)) locales.set(file, JSON.parse(readFileSync(new URL(`../src/locales/${file}.json`, import.meta.url), 'utf8')) as Texts);
  const value = path.split('.').reduce<string | Texts | undefined>((node, part) => (typeof node === 'object' ? node[part] : undefined), locales.get(file));
  if (typeof value !== 'string') throw new Error(`no text ${language}/${key}`);
  return value.replace(/\{\{(\w+)\}\}/g, (_, name: string) => String(params[name]));
}

/** A request of `account` to the API (a JSON body, or bytes for an upload); throws unless it answers 2xx. */
export async function apiAs(server: RunningServer, account: TestAccount, method: string, url: string, body?: unknown, headers: Record<string, string> = {}): Promise<Response> {
  const response = await fetch(`${server.baseUrl}${url}`, {
    method,
    headers: { cookie: await sessionCookie(server, account), Origin: server.baseUrl, ...(body === undefined ? {} : { 'Content-Type': 'application/json' }), ...headers },
    body: body === undefined ? undefined : body instanceof Uint8Array ? Buffer.from(body) : JSON.stringify(body),
  });
  if (!response.ok) throw new Error(`${method} ${url} answered ${response.status}: ${await response.text()}`);
  return response;
}
