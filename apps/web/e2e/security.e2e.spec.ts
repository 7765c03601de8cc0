import { describe, expect, it } from 'vitest';
import type { Page } from 'playwright-core';
import { path, registeredAccount, setUpBrowserSuite, submitLogin } from './helpers.ts';

const suite = setUpBrowserSuite();
const { signedIn, phone } = suite;

async function openFromProfile(page: Page, row: string, heading: string): Promise<void> {
  await page.goto('/profile');
  await page.getByRole('link', { name: row }).click();
  await page.getByRole('heading', { name: heading, level: 1 }).waitFor();
}

describe('Profile > Signed-in devices', () => {
  it('lists this device and the others (registration signed one in too), and signs the others out', async () => {
    const account = await registeredAccount(suite.server, 'Nisha');
    const laptop = await signedIn(account);
    const mine = await signedIn(account);
    await openFromProfile(mine, 'Signed-in devices', 'Signed-in devices');
    const list = mine.getByRole('list', { name: 'Signed-in devices' });
    await expect.poll(() => list.getByRole('listitem').count()).toBe(3);
    await list.getByText('This device').waitFor();
    for (const left of [2, 1]) {
      await list.getByRole('button', { name: 'Sign out' }).first().click();
      await expect.poll(() => list.getByRole('listitem').count()).toBe(left);
    }
    await mine.getByText('Device signed out', { exact: true }).first().waitFor();
    await expect(list.getByRole('button', { name: 'Sign out' }).count()).resolves.toBe(0);
    // The other device is signed out: its next visit lands on the sign-in screen.
    await laptop.goto('/wallet');
    await laptop.waitForURL((url) => url.pathname === '/login');
    expect(path(mine)).toBe('/security/devices');
  });
});

describe('Profile > Change password', () => {
  it('needs the right current password, then signs the other devices out', async () => {
    const account = await registeredAccount(suite.server, 'Imran');
    const other = await signedIn(account);
    const page = await signedIn(account);
    await openFromProfile(page, 'Change password', 'Change password');
    await page.getByLabel('Current password').fill('wrong-one');
    await page.getByLabel('New password', { exact: true }).fill('brandnew1');
    await page.getByRole('button', { name: 'Change password' }).click();
    await page.getByText('Current password is incorrect').first().waitFor();

    await page.getByLabel('Current password').fill(account.password);
    await page.getByRole('button', { name: 'Change password' }).click();
    await page.getByText('Password changed', { exact: true }).waitFor();
    await page.waitForURL((url) => url.pathname === '/profile');

    await other.goto('/wallet');
    await other.waitForURL((url) => url.pathname === '/login');
    const fresh = await phone();
    await fresh.goto('/login');
    await submitLogin(fresh, { mobile: account.mobile, password: 'brandnew1' });
    await fresh.getByRole('heading', { name: `Hello, ${account.firstName}` }).waitFor();
  });
});
