import { describe, expect, it } from 'vitest';
import type { Page } from 'playwright-core';
import { grantRole } from './harness.ts';
import type { TestAccount } from './harness.ts';
import { applyAdjustment, balanceOf, expectAccessible, openFinanceScreen, path, registeredAccount, setUpBrowserSuite, submitLogin, tx, openSignIn } from './helpers.ts';

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
    await expectAccessible(mine, 'signed-in devices (en)');
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

describe('security screens in Hindi', () => {
  it('shows the signed-in devices and change password screens axe-clean', async () => {
    const page = await signedIn(await registeredAccount(suite.server, 'Kavya'));
    await page.goto('/profile');
    await page.getByRole('button', { name: 'हिन्दी' }).click();
    await page.waitForFunction(() => document.documentElement.lang === 'hi');
    for (const screen of ['/security/devices', '/security/password']) {
      await page.goto(screen);
      await page.getByRole('heading', { level: 1 }).waitFor();
      expect(await page.evaluate(() => document.documentElement.lang)).toBe('hi');
      await expectAccessible(page, `${screen} (hi)`);
    }
    // The device and its time in Hindi, as other screens write times (पूर्वाह्न / अपराह्न).
    await page.goto('/security/devices');
    const devices = await page.getByRole('list', { name: tx('hi', 'security:devices.title') }).getByRole('listitem').first().innerText();
    expect(devices).toMatch(/\S+ पर \S+/);
    expect(devices).not.toMatch(/ on |Unknown device|\b[ap]m\b/i);
    expect(devices).toMatch(/पूर्वाह्न|अपराह्न/);
  });
});

describe('Profile > Change password', () => {
  it('needs the right current password, then signs the other devices out', async () => {
    const account = await registeredAccount(suite.server, 'Imran');
    const other = await signedIn(account);
    const page = await signedIn(account);
    await openFromProfile(page, 'Change password', 'Change password');
    await expectAccessible(page, 'change password (en)');
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
    await openSignIn(fresh);
    await submitLogin(fresh, { mobile: account.mobile, password: 'brandnew1' });
    await fresh.getByRole('heading', { name: `Hello, ${account.firstName}` }).waitFor();
  });
});


describe('Finance: an adjustment above the limit needs a second finance member', () => {
  it('is pending for its requester and approved by a colleague', async () => {
    const first = await registeredAccount(suite.server, 'Farah', 'Khan');
    const second = await registeredAccount(suite.server, 'Dev', 'Malik');
    const user = await registeredAccount(suite.server, 'Asha', 'Rao');
    grantRole(suite.server, first.mobile, 'finance');
    grantRole(suite.server, second.mobile, 'finance');

    const requester = await openFinanceScreen(await signedIn(first));
    await applyAdjustment(requester, { mobile: user.mobile, amount: '1500', reason: 'Refund of a double charge' });
    await requester.getByText('Adjustment Awaiting Approval', { exact: true }).waitFor();
    const mine = requester.getByRole('region', { name: 'Adjustments awaiting approval' });
    await mine.getByText(`Credit ₹1,500.00 to +91 ${user.mobile}`).waitFor();
    await mine.getByText('You requested this: another finance member must approve it.').waitFor();
    await expect(mine.getByRole('button', { name: 'Approve' }).count()).resolves.toBe(0);

    // Approving moves the money, so it asks first, naming the amount and the person.
    const colleague = await openFinanceScreen(await signedIn(second));
    const theirs = colleague.getByRole('region', { name: 'Adjustments awaiting approval' });
    await theirs.getByText(`Credit ₹1,500.00 to +91 ${user.mobile}`).waitFor();
    const approve = theirs.getByRole('button', { name: 'Approve' });
    await approve.click();
    const confirm = colleague.getByRole('dialog', { name: 'Approve this adjustment?' });
    await confirm.getByText(`Credit ₹1,500.00 to Asha Rao (+91 ${user.mobile})`).waitFor();
    await confirm.getByText('Refund of a double charge').waitFor();
    await confirm.getByText('₹0.00', { exact: true }).waitFor();
    await expectAccessible(colleague, 'adjustment approval confirmation (en)');
    // Cancel changes nothing: still pending, the balance untouched, focus back on Approve.
    await confirm.getByRole('button', { name: 'Cancel' }).click();
    await confirm.waitFor({ state: 'detached' });
    await expect.poll(() => approve.evaluate((button) => button === document.activeElement)).toBe(true);
    await expect(theirs.getByText(`Credit ₹1,500.00 to +91 ${user.mobile}`).count()).resolves.toBe(1);
    expect(await balanceOf(suite.server, user)).toBe('0.00');

    await approve.click();
    await confirm.getByRole('button', { name: 'Approve ₹1,500.00' }).click();
    await colleague.getByText('Adjustment approved', { exact: true }).waitFor();
    await expect.poll(() => theirs.count()).toBe(0);
    await expect.poll(() => balanceOf(suite.server, user)).toBe('1500.00');

    const home = await signedIn(user);
    await home.goto('/wallet');
    await home.getByText('₹1,500.00').first().waitFor();
  });
});
