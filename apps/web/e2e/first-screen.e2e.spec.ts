/**
 * The sign-in form the server draws into /login (docs/first-screen.md): usable before the app's
 * script has come (on a slow network that is seconds), signing in by itself, and taken over by the
 * app without losing what was typed, the focus or a pixel of position.
 */
import { describe, expect, it } from 'vitest';
import type { Page } from 'playwright-core';
import { offenders } from './every-screen.ts';
import { expectAccessible, registeredAccount, setUpBrowserSuite, tx } from './helpers.ts';

const suite = setUpBrowserSuite();

/** No script of the app runs in this page: what shows is the server's form alone. */
const withoutTheApp = (page: Page) => page.route(/\/assets\/.*\.js$/, (route) => route.abort());

describe('/login before the app has come', () => {
  it('is drawn in the reader’s language, inside its card with 44 px targets at 360 and 320 px, and axe clean', async () => {
    const page = await suite.phone();
    await withoutTheApp(page);
    const findings: string[] = [];
    for (const language of ['en', 'hi'] as const) {
      await page.context().addCookies([{ name: 'kamai_lang', value: language, url: suite.server.baseUrl }]);
      for (const width of [360, 320]) {
        await page.setViewportSize({ width, height: 640 });
        await page.goto('/login');
        await page.getByRole('heading', { name: tx(language, 'auth:login.heading'), level: 1 }).waitFor();
        expect(await page.evaluate(() => document.documentElement.lang)).toBe(language === 'hi' ? 'hi' : 'en-IN');
        await expect(page.getByRole('button', { name: tx(language, 'auth:login.submit') }).isEnabled()).resolves.toBe(true);
        findings.push(...(await offenders(page, width)).map((problem) => `${language} ${width}: ${problem}`));
        await expectAccessible(page, `/login as the server draws it (${language}, ${width} px)`);
      }
    }
    expect(findings).toEqual([]);
  });

  it('signs in by itself: a refusal comes back in the catalogue’s words, the right password goes on to the app', async () => {
    const account = await registeredAccount(suite.server, 'Lata');
    const page = await suite.phone();
    await withoutTheApp(page);
    await page.goto('/login?redirect=%2Fwallet');
    await page.getByLabel('Mobile number').fill(account.mobile);
    await page.getByLabel('Password', { exact: true }).fill('not-the-password');
    await page.getByRole('button', { name: 'Sign in' }).click();
    await page.waitForURL((url) => url.pathname === '/login' && url.searchParams.get('error') === 'invalid_credentials');
    await expect(page.getByRole('alert').textContent()).resolves.toBe(tx('en', 'auth:login.invalid'));

    await page.getByLabel('Mobile number').fill(account.mobile);
    await page.getByLabel('Password', { exact: true }).fill(account.password);
    await page.getByRole('button', { name: 'Sign in' }).click();
    await page.waitForURL((url) => url.pathname === '/wallet');
    const cookies = await page.context().cookies();
    expect(cookies.some((cookie) => cookie.name === 'kamai_session')).toBe(true);
  });

  it('switches language by itself: the page comes again in Hindi and the app, once it comes, speaks Hindi', async () => {
    const page = await suite.phone();
    let appComes = false;
    await page.route(/\/assets\/.*\.js$/, (route) => (appComes ? route.continue() : route.abort()));
    await page.goto('/login');
    await page.getByRole('heading', { name: tx('en', 'auth:login.heading'), level: 1 }).waitFor();
    appComes = true;
    await page.getByRole('button', { name: tx('hi', 'common:language.hi') }).click();
    await page.locator('#first-screen').waitFor({ state: 'detached' });
    await page.getByRole('heading', { name: tx('hi', 'auth:login.heading'), level: 1 }).waitFor();
    await expect(page.evaluate(() => localStorage.getItem('kamai.language'))).resolves.toBe('hi');
    // The choice is taken off the address once the app has it.
    expect(new URL(page.url()).searchParams.has('lang')).toBe(false);
  });
});

describe('/login when the app comes', () => {
  it('takes the form over: what was typed, the focus and the caret stay, nothing moves', async () => {
    const account = await registeredAccount(suite.server, 'Geeta');
    const page = await suite.phone();
    // The entry is held back until the reader has typed, as on a slow network.
    let release: () => void = () => {};
    const released = new Promise<void>((resolve) => (release = resolve));
    await page.route(/\/assets\/index-[^/]*\.js$/, async (route) => {
      await released;
      await route.continue();
    });
    await page.goto('/login', { waitUntil: 'commit' });
    const drawn = page.locator('#first-screen');
    await drawn.getByRole('heading', { name: 'Sign in' }).waitFor();
    const mobile = page.getByLabel('Mobile number');
    await mobile.click();
    await mobile.pressSequentially('98765');
    const before = await mobile.boundingBox();

    release();
    await drawn.waitFor({ state: 'detached' });
    await expect(mobile.inputValue()).resolves.toBe('98765');
    await expect(mobile.evaluate((input) => input === document.activeElement)).resolves.toBe(true);
    expect(await mobile.boundingBox()).toEqual(before);
    // The caret stayed at the end: typing goes on where it stopped.
    await page.keyboard.type('43210');
    await expect(mobile.inputValue()).resolves.toBe('9876543210');
    await expectAccessible(page, '/login once the app has taken it over');

    await mobile.fill(account.mobile);
    await page.getByLabel('Password', { exact: true }).fill(account.password);
    await page.getByRole('button', { name: 'Sign in' }).click();
    await page.getByRole('heading', { name: `Hello, ${account.firstName}` }).waitFor();
  });
});
