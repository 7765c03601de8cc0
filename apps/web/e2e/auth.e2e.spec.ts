import { describe, expect, it } from 'vitest';
import type { Page } from 'playwright-core';
import { registerAccount } from './harness.ts';
import { expectTitle, path, setUpBrowserSuite, submitLogin, testAccount, toasts, openSignIn } from './helpers.ts';

const suite = setUpBrowserSuite();
/** The Radix toast region; the toast's title and description render inside it. */

async function expectPath(on: Page, expected: string): Promise<void> {
  await on.waitForURL((url) => url.pathname === expected);
  expect(path(on)).toBe(expected);
}

/** Waits until the bottom bar marks `label` as the current entry (and only that one). */
async function expectCurrentNavEntry(on: Page, label: string): Promise<void> {
  const current = on.getByRole('navigation', { name: 'Main' }).locator('a[aria-current="page"]');
  await current.filter({ hasText: label }).waitFor();
  expect(await current.allTextContents()).toEqual([label]);
}

describe('signing up and in, on a phone', () => {
  it('registers and lands home with a greeting and ₹0.00 earned', async () => {
    const account = testAccount('Asha');
    const page = await suite.phone();
    await page.goto('/register');
    await expectTitle(page, 'Register | Kamai');

    await page.getByLabel('First name').fill(account.firstName);
    await page.getByLabel('Last name').fill(account.lastName);
    await page.getByLabel('Mobile number').fill(account.mobile);
    await page.getByLabel('Password', { exact: true }).fill(account.password);
    await expect(page.getByText('Minimum 6 characters').isVisible()).resolves.toBe(true);
    await page.getByRole('checkbox').check();
    await page.getByRole('button', { name: 'Create account' }).click();

    await page.getByRole('heading', { name: 'Hello, Asha' }).waitFor();
    await expectPath(page, '/');
    await toasts(page).getByText('Welcome to Kamai!', { exact: true }).waitFor();
    await toasts(page).getByText('Your account has been created successfully').waitFor();
    await expect(page.getByTestId('total-rupees').textContent()).resolves.toBe('₹0.00');
    await expectTitle(page, 'Home | Kamai');

    const nav = page.getByRole('navigation', { name: 'Main' });
    await expect(nav.getByRole('link').allTextContents()).resolves.toEqual(['Home', 'Wallet', 'Profile']);
    await expectCurrentNavEntry(page, 'Home');
  });

  it('signs out from the profile and back in', async () => {
    const account = testAccount('Ravi');
    await registerAccount(suite.server.baseUrl, account);
    const page = await suite.phone();

    await openSignIn(page);
    await submitLogin(page, account);
    await page.getByRole('heading', { name: 'Hello, Ravi' }).waitFor();
    await toasts(page).getByText('Welcome back!', { exact: true }).waitFor();
    await toasts(page).getByText('You have successfully logged in').waitFor();

    await page.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: 'Profile' }).click();
    await expectPath(page, '/profile');
    await page.getByRole('heading', { name: 'Profile' }).waitFor();
    await expectCurrentNavEntry(page, 'Profile');
    await page.getByRole('button', { name: 'Logout' }).click();
    await toasts(page).getByText('Logged Out', { exact: true }).waitFor();
    await expectPath(page, '/login');
    await page.getByRole('heading', { name: 'Sign in' }).waitFor();

    // The session is gone: the signed-in area sends us back to /login, and signing in returns to it.
    await page.goto('/wallet');
    await expectPath(page, '/login');

    await submitLogin(page, account);
    await page.getByRole('heading', { name: 'Wallet', exact: true }).waitFor();
    await expectPath(page, '/wallet');
  });

  it('shows the Login Failed toast for a wrong password', async () => {
    const account = testAccount('Meena');
    await registerAccount(suite.server.baseUrl, account);
    const page = await suite.phone();

    await openSignIn(page);
    await submitLogin(page, { ...account, password: 'not-the-password' });
    await toasts(page).getByText('Login Failed', { exact: true }).waitFor();
    await toasts(page).getByText('Invalid mobile number or password').waitFor();
    expect(path(page)).toBe('/login');
    await expect(page.getByRole('button', { name: 'Sign in' }).isEnabled()).resolves.toBe(true);
  });

  it('shows field errors inline, without asking the server', async () => {
    const page = await suite.phone();
    const authCalls: string[] = [];
    page.on('request', (request) => {
      if (request.url().includes('/api/auth/login') || request.url().includes('/api/auth/register')) authCalls.push(request.url());
    });

    await openSignIn(page);
    await page.getByLabel('Mobile number').fill('987654321');
    await page.getByLabel('Password', { exact: true }).fill('abc');
    await page.getByRole('button', { name: 'Sign in' }).click();
    await page.getByText('Mobile number must be 10 digits').waitFor();
    await page.getByText('Password must be at least 6 characters').waitFor();
    await expect(page.getByLabel('Mobile number').getAttribute('aria-invalid')).resolves.toBe('true');

    // A corrected field loses its message.
    await page.getByLabel('Mobile number').fill('9876543210');
    await page.getByText('Mobile number must be 10 digits').waitFor({ state: 'detached' });

    await page.getByRole('link', { name: 'Create an account' }).click();
    await expectPath(page, '/register');
    await page.getByLabel('First name').fill('A');
    await page.getByLabel('Last name').fill('B');
    await page.getByLabel('Mobile number').fill('12345');
    await page.getByLabel('Password', { exact: true }).fill('12345');
    await page.getByRole('button', { name: 'Create account' }).click();
    await page.getByText('First name must be at least 2 characters').waitFor();
    await page.getByText('Last name must be at least 2 characters').waitFor();
    await page.getByText('Mobile number must be 10 digits').waitFor();
    await page.getByText('Password must be at least 6 characters').waitFor();

    expect(authCalls).toEqual([]);
  });

  it('maps the server’s field error inline when the mobile number is taken', async () => {
    const account = testAccount('Kiran');
    await registerAccount(suite.server.baseUrl, account);
    const page = await suite.phone();

    await page.goto('/register');
    await page.getByLabel('First name').fill('Kiran');
    await page.getByLabel('Last name').fill('Rao');
    await page.getByLabel('Mobile number').fill(account.mobile);
    await page.getByLabel('Password', { exact: true }).fill('another-secret');
    await page.getByRole('checkbox').check();
    await page.getByRole('button', { name: 'Create account' }).click();
    await toasts(page).getByText('Registration Failed', { exact: true }).waitFor();
    expect(path(page)).toBe('/register');
    // The API names the mobile field in its error; the form marks that input.
    await page.getByLabel('Mobile number').and(page.locator('[aria-invalid="true"]')).waitFor();
  });

  it('toggles the password between hidden and shown', async () => {
    const page = await suite.phone();
    await openSignIn(page);
    const password = page.getByLabel('Password', { exact: true });
    await expect(password.getAttribute('type')).resolves.toBe('password');
    await page.getByRole('button', { name: 'Show password' }).click();
    await expect(password.getAttribute('type')).resolves.toBe('text');
    await page.getByRole('button', { name: 'Hide password' }).click();
    await expect(password.getAttribute('type')).resolves.toBe('password');
  });
});

describe('routes and guards', () => {
  it('shows the 404 screen for an unknown path', async () => {
    const page = await suite.phone();
    await page.goto('/no/such/page');
    await page.getByRole('heading', { name: '404 Page Not Found' }).waitFor();
    await page.getByText('Did you forget to add the page to the router?').waitFor();
    expect(path(page)).toBe('/no/such/page');
  });

  it('shows the login screen at / when signed out, and Home there once signed in', async () => {
    const account = testAccount('Pooja');
    await registerAccount(suite.server.baseUrl, account);
    const page = await suite.phone();
    await page.goto('/');
    await page.getByRole('heading', { name: 'Sign in' }).waitFor();
    expect(path(page)).toBe('/');
    await expectTitle(page, 'Login | Kamai');

    await submitLogin(page, account);
    await page.getByRole('heading', { name: 'Hello, Pooja' }).waitFor();
    await toasts(page).getByText('Welcome back!', { exact: true }).waitFor();
    expect(path(page)).toBe('/');
    await expectTitle(page, 'Home | Kamai');
  });

  it('sends a signed-out visit to /wallet to /login', async () => {
    const page = await suite.phone();
    await page.goto('/wallet');
    await expectPath(page, '/login');
    await page.getByRole('heading', { name: 'Sign in' }).waitFor();
  });

  it('sends a signed-in visit to /login home', async () => {
    const account = testAccount('Divya');
    await registerAccount(suite.server.baseUrl, account);
    const page = await suite.phone();
    await openSignIn(page);
    await submitLogin(page, account);
    await page.getByRole('heading', { name: 'Hello, Divya' }).waitFor();

    await openSignIn(page);
    await expectPath(page, '/');
    await page.getByRole('heading', { name: 'Hello, Divya' }).waitFor();
    await page.goto('/register');
    await expectPath(page, '/');
  });

  it('knows a first visit is signed out without asking the server, and keeps a signed-in user across a reload', async () => {
    const account = testAccount('Meera');
    await registerAccount(suite.server.baseUrl, account);
    const page = await suite.phone();
    const userReads: number[] = [];
    page.on('response', (response) => {
      if (new URL(response.url()).pathname === '/api/auth/user') userReads.push(response.status());
    });
    const consoleErrors: string[] = [];
    page.on('console', (message) => {
      if (message.type() === 'error') consoleErrors.push(message.text());
    });

    await openSignIn(page);
    await page.getByRole('heading', { name: 'Sign in' }).waitFor();
    await page.goto('/wallet');
    await expectPath(page, '/login');
    expect(userReads).toEqual([]);
    expect(consoleErrors).toEqual([]);

    // Signing in returns to the page that was asked for.
    await submitLogin(page, account);
    await page.getByRole('heading', { name: 'Wallet', exact: true }).waitFor();
    await expectPath(page, '/wallet');
    await page.reload();
    await page.getByRole('heading', { name: 'Wallet', exact: true }).waitFor();
    expect(userReads).toContain(200);

    // The session ends elsewhere: the next visit is answered 401 once, and the one after asks nothing.
    const cookies = await page.context().cookies();
    const session = cookies.find((cookie) => cookie.name === 'kamai_session');
    expect(session).toBeDefined();
    await fetch(`${suite.server.baseUrl}/api/auth/logout`, {
      method: 'POST',
      headers: { cookie: `kamai_session=${session?.value}`, origin: suite.server.baseUrl },
    });
    userReads.length = 0;
    await openSignIn(page);
    await page.getByRole('heading', { name: 'Sign in' }).waitFor();
    expect(userReads).toEqual([401]);
    await page.reload();
    await page.getByRole('heading', { name: 'Sign in' }).waitFor();
    expect(userReads).toEqual([401]);
  });

  it('shows a spinner while the signed-in state loads', async () => {
    const page = await suite.phone();
    // A browser that may hold a session (sessionHint.ts) asks the server; one that never signed in does not.
    await page.context().addCookies([{ name: 'kamai_signed_in', value: '1', url: suite.server.baseUrl }]);
    let releaseUserCall: () => void = () => {};
    const userCallHeld = new Promise<void>((release) => (releaseUserCall = release));
    await page.route('**/api/auth/user', async (route) => {
      await userCallHeld;
      await route.continue();
    });

    await page.goto('/wallet');
    await page.getByRole('status', { name: 'Loading' }).waitFor();
    releaseUserCall();
    await expectPath(page, '/login');
    await page.getByRole('status', { name: 'Loading' }).waitFor({ state: 'detached' });
  });

  it('opens every signed-in placeholder with its heading, and the static pages signed out', async () => {
    const account = testAccount('Sunil');
    await registerAccount(suite.server.baseUrl, account);
    const page = await suite.phone();
    for (const [target, heading] of [
      ['/privacy-policy', 'Privacy Policy'],
      ['/delete-account', 'Delete Account'],
    ] as const) {
      await page.goto(target);
      await page.getByRole('heading', { name: heading }).waitFor();
      expect(path(page)).toBe(target);
    }

    await openSignIn(page);
    await submitLogin(page, account);
    await page.getByRole('heading', { name: 'Hello, Sunil' }).waitFor();
    for (const [target, heading] of [
      ['/tasks/categories', 'Task Categories'],
      ['/tasks/rating', 'Rating Tasks'],
      ['/tasks/website', 'Website Visit Tasks'],
      ['/tasks/games', 'Gaming Tasks'],
      ['/wallet', 'Wallet'],
      // Without the admin role, the admin panel says so (tasks.e2e.spec.ts covers /tasks and the staff screens).
      ['/admin', 'Not allowed'],
      ['/kyc', 'KYC Verification'],
      ['/privacy-policy', 'Privacy Policy'],
    ] as const) {
      await page.goto(target);
      await page.getByRole('heading', { name: heading, exact: true }).waitFor();
      expect(path(page)).toBe(target);
    }
  });
});
