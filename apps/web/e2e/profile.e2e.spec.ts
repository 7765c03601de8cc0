import { describe, expect, it } from 'vitest';
import type { Page } from 'playwright-core';
import { grantRole } from './harness.ts';
import type { TestAccount } from './harness.ts';
import { path, registeredAccount, setUpBrowserSuite, staffAccount, toasts } from './helpers.ts';

const suite = setUpBrowserSuite();
const { phone, signedIn } = suite;
const newAccount = (firstName: string, lastName?: string) => registeredAccount(suite.server, firstName, lastName);

async function openProfile(page: Page): Promise<void> {
  await page.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: 'Profile' }).click();
  await page.getByRole('heading', { name: 'Profile', exact: true }).waitFor();
}

/** A signed-in API client (cookie kept by hand), for setting the scene without the browser. */
const apiAs = (account: TestAccount) => (method: string, path: string, body?: unknown) => suite.api(account, method, path, body);

/** Finance adjusts the user's wallet; each adjustment also leaves the user a notification. */
async function adjust(user: TestAccount, adjustments: { amount: string; direction: 'credit' | 'debit'; reason: string }[]) {
  const api = apiAs(await staffAccount(suite.server, 'Farah', 'Khan', 'finance'));
  for (const adjustment of adjustments) {
    const response = await api('POST', '/api/admin/adjustments', { mobile: user.mobile, ...adjustment });
    if (response.status !== 201) throw new Error(`adjustment answered ${response.status}: ${await response.text()}`);
  }
}

/** The toast region; included even while a modal dialog hides the page from the accessibility tree. */

async function expectToast(on: Page, title: string, description?: string): Promise<void> {
  await toasts(on).getByText(title, { exact: true }).waitFor();
  if (description) await toasts(on).getByText(description, { exact: true }).waitFor();
}

describe('the profile, on a phone', () => {
  it("shows the user, and edits the profile: 'No Changes', then only the changed fields", async () => {
    const user = await newAccount('Asha');
    const page = await signedIn(user);
    await openProfile(page);
    await expect(page.getByTestId('profile-name').textContent()).resolves.toBe('Asha Sharma');
    await page.getByText(`+91 ${user.mobile}`).waitFor();
    await page.screenshot({ path: '/tmp/profile.png' });

    const updates: unknown[] = [];
    page.on('request', (request) => {
      if (request.url().endsWith('/api/profile') && request.method() === 'PUT') updates.push(request.postDataJSON());
    });

    // Nothing changed: no request, just the 'No Changes' toast.
    await page.getByRole('button', { name: 'Edit Profile' }).click();
    let dialog = page.getByRole('dialog', { name: 'Edit Profile' });
    await expect(dialog.getByLabel('First name').inputValue()).resolves.toBe('Asha');
    await expect(dialog.getByLabel('Last name').inputValue()).resolves.toBe('Sharma');
    await expect(dialog.getByLabel('E-mail (optional)').inputValue()).resolves.toBe('');
    await expect(dialog.getByRole('switch', { name: /Notifications/ }).getAttribute('aria-checked')).resolves.toBe('true');
    // Opening focuses the dialog, not its first name: a focused field opens the phone's keyboard over it.
    await expect(page.evaluate(() => document.activeElement?.getAttribute('role'))).resolves.toBe('dialog');
    // The switch is a 44 px target around its drawn track.
    await expect(dialog.getByRole('switch', { name: /Notifications/ }).evaluate((element) => element.getBoundingClientRect().height)).resolves.toBeGreaterThanOrEqual(44);
    await page.screenshot({ path: '/tmp/edit-profile.png' });
    await dialog.getByRole('button', { name: 'Save Changes' }).click();
    await expectToast(page, 'No Changes', 'No changes were made to your profile.');
    await dialog.waitFor({ state: 'detached' });
    expect(updates).toEqual([]);

    // The rules are checked inline before anything is sent.
    await page.getByRole('button', { name: 'Edit Profile' }).click();
    dialog = page.getByRole('dialog', { name: 'Edit Profile' });
    await dialog.getByLabel('First name').fill('A');
    await dialog.getByLabel('E-mail (optional)').fill('not-an-email');
    await dialog.getByRole('button', { name: 'Save Changes' }).click();
    await dialog.getByText('First name must be at least 2 characters').waitFor();
    await dialog.getByText('Invalid email address').waitFor();
    expect(updates).toEqual([]);

    // Only what changed goes out: first name, e-mail and the notifications switch, not the last name.
    await dialog.getByLabel('First name').fill('Aasha');
    await dialog.getByLabel('E-mail (optional)').fill('aasha@example.in');
    await dialog.getByRole('switch', { name: /Notifications/ }).click();
    await dialog.getByRole('button', { name: 'Save Changes' }).click();
    await expectToast(page, 'Profile Updated');
    await dialog.waitFor({ state: 'detached' });
    expect(updates).toEqual([{ firstName: 'Aasha', email: 'aasha@example.in', notificationsEnabled: false }]);
    await page.getByTestId('profile-name').getByText('Aasha Sharma').waitFor();
    await page.getByText('aasha@example.in').waitFor();

    // Saved on the server: a reload shows the same, and the dialog starts from it.
    await page.reload();
    await page.getByTestId('profile-name').getByText('Aasha Sharma').waitFor();
    await page.getByRole('button', { name: 'Edit Profile' }).click();
    dialog = page.getByRole('dialog', { name: 'Edit Profile' });
    await expect(dialog.getByLabel('E-mail (optional)').inputValue()).resolves.toBe('aasha@example.in');
    await expect(dialog.getByRole('switch', { name: /Notifications/ }).getAttribute('aria-checked')).resolves.toBe('false');

    // Clearing the e-mail sends it as null.
    await dialog.getByLabel('E-mail (optional)').fill('');
    await dialog.getByRole('button', { name: 'Save Changes' }).click();
    await expectToast(page, 'Profile Updated');
    expect(updates.at(-1)).toEqual({ email: null });
  });

  it("says 'Update Failed' when the server refuses", async () => {
    const user = await newAccount('Ravi');
    const page = await signedIn(user);
    await openProfile(page);
    await page.route('**/api/profile', (route) => route.fulfill({ status: 500, body: 'Internal Server Error' }));
    await page.getByRole('button', { name: 'Edit Profile' }).click();
    const dialog = page.getByRole('dialog', { name: 'Edit Profile' });
    await dialog.getByLabel('Last name').fill('Verma');
    await dialog.getByRole('button', { name: 'Save Changes' }).click();
    await expectToast(page, 'Update Failed', 'Failed to update profile.');
    // The dialog stays open with the input, to try again.
    await expect(dialog.getByLabel('Last name').inputValue()).resolves.toBe('Verma');
  });

  it('reads, marks and deletes notifications', async () => {
    const user = await newAccount('Meena');
    await adjust(user, [
      { amount: '50', direction: 'credit', reason: 'Survey reward' },
      { amount: '20', direction: 'debit', reason: 'Duplicate reward reversed' },
      { amount: '75', direction: 'credit', reason: 'Referral bonus' },
    ]);
    const page = await signedIn(user);
    await openProfile(page);

    const row = page.getByRole('button', { name: /^Notifications/ });
    await row.getByText('3', { exact: true }).waitFor();
    await row.click();
    const dialog = page.getByRole('dialog', { name: /Notifications/ });
    await dialog.getByText('3 unread').waitFor();
    const list = dialog.getByTestId('notification-list');
    await expect(list.evaluate((element) => element.getBoundingClientRect().height)).resolves.toBe(400);
    const items = dialog.getByRole('listitem');
    await expect(items.count()).resolves.toBe(3);
    // Newest first; an icon by type.
    await expect(items.nth(0).getAttribute('data-type')).resolves.toBe('success');
    await items.nth(0).getByText('₹75.00 was added to your wallet: Referral bonus').waitFor();
    const debited = items.filter({ hasText: 'Wallet Debited' });
    await expect(debited.getAttribute('data-type')).resolves.toBe('warning');

    // One read.
    await debited.getByRole('button', { name: 'Mark as read' }).click();
    await dialog.getByText('2 unread').waitFor();
    await expect(debited.getAttribute('data-read')).resolves.toBe('true');
    await expect(debited.getByRole('button', { name: 'Mark as read' }).count()).resolves.toBe(0);

    // All read.
    await dialog.getByRole('button', { name: 'Mark All Read' }).click();
    await expectToast(page, 'All Marked as Read');
    await dialog.getByText('You are all caught up').waitFor();
    // Nothing unread, nothing to offer.
    await expect(dialog.getByRole('button', { name: 'Mark All Read' }).count()).resolves.toBe(0);

    // Deleting each one ends at the empty text.
    for (let left = 3; left > 0; left -= 1) {
      await items.first().getByRole('button', { name: 'Delete notification' }).click();
      await expectToast(page, 'Notification Deleted');
      await expect.poll(() => items.count()).toBe(left - 1);
    }
    await dialog.getByText('No notifications yet').waitFor();
    await page.screenshot({ path: '/tmp/notifications-empty.png' });
  });

  it('keeps an open dialog below the offline banner', async () => {
    const page = await signedIn(await newAccount('Lata'));
    await openProfile(page);
    await page.getByRole('button', { name: 'Edit Profile' }).click();
    const dialog = page.getByRole('dialog', { name: 'Edit Profile' });
    await dialog.waitFor();
    await page.context().setOffline(true);
    const banner = page.getByTestId('offline-banner');
    await banner.waitFor();
    const box = (locator: typeof banner) => locator.evaluate((element) => element.getBoundingClientRect().toJSON() as DOMRect);
    await expect.poll(async () => (await box(dialog)).top - (await box(banner)).bottom).toBeGreaterThanOrEqual(8);
    await page.context().setOffline(false);
    await banner.waitFor({ state: 'detached' });
    await expect.poll(async () => (await box(dialog)).top).toBe(16);
  });

  it('shows notification failures as text in the dialog, not as toasts', async () => {
    const user = await newAccount('Kiran');
    await adjust(user, [{ amount: '10', direction: 'credit', reason: 'Survey reward' }]);
    const page = await signedIn(user);
    await openProfile(page);
    await page.route('**/api/notifications/**', (route) => route.fulfill({ status: 500, body: '' }));
    await page.getByRole('button', { name: /^Notifications/ }).click();
    const dialog = page.getByRole('dialog', { name: /Notifications/ });
    await dialog.getByRole('button', { name: 'Mark as read' }).click();
    await dialog.getByRole('alert').getByText('Failed to mark as read', { exact: true }).waitFor();
    await dialog.getByRole('button', { name: 'Mark All Read' }).click();
    await dialog.getByRole('alert').getByText('Failed to mark all as read', { exact: true }).waitFor();
    await dialog.getByRole('button', { name: 'Delete notification' }).click();
    await dialog.getByRole('alert').getByText('Failed to delete notification', { exact: true }).waitFor();
    await expect(toasts(page).getByText(/^Failed/).count()).resolves.toBe(0);
  });

  it('offers Help & Support, the static pages, an empty withdrawal history, and staff links by role', async () => {
    const user = await newAccount('Sunil', 'Rao');
    const page = await signedIn(user);
    await openProfile(page);

    const help = page.getByRole('link', { name: 'Help & Support' });
    const mail = new URL((await help.getAttribute('href')) ?? '');
    expect(mail.protocol).toBe('mailto:');
    expect(mail.pathname).toBe('support@kamai.in');
    expect(mail.searchParams.get('subject')).toBe('Help & Support Request');
    const body = mail.searchParams.get('body') ?? '';
    expect(body).toContain(`Mobile: ${user.mobile}`);
    expect(body).toContain('Name: Sunil Rao');
    expect(body).toMatch(/User ID: [0-9a-f-]{36}/);

    await page.getByRole('button', { name: 'Withdrawal History' }).click();
    const history = page.getByRole('dialog', { name: 'Withdrawal History' });
    await history.getByText('No withdrawals yet').waitFor();
    await history.getByRole('button', { name: 'Close' }).click();

    // No staff role, no staff section.
    await expect(page.getByRole('heading', { name: 'Staff' }).count()).resolves.toBe(0);

    await page.getByRole('link', { name: 'Privacy Policy' }).click();
    await page.getByRole('heading', { name: 'Privacy Policy', exact: true }).waitFor();
    await page.goBack();
    await page.getByRole('link', { name: 'Delete Account' }).click();
    await page.getByRole('heading', { name: 'Delete Account', exact: true }).waitFor();

    // Finance sees its desk and the invitations; an admin who is also finance sees the admin screens too.
    grantRole(suite.server, user.mobile, 'finance');
    await page.goto('/profile');
    const staff = page.getByRole('region', { name: 'Staff' });
    await expect.poll(async () => {
      await page.reload();
      await page.getByRole('heading', { name: 'Profile', exact: true }).waitFor();
      return staff.count();
    }).toBe(1);
    await expect(staff.getByRole('link').allTextContents()).resolves.toEqual(['Finance', 'Invitations']);
    await staff.getByRole('link', { name: 'Finance' }).click();
    await page.getByRole('heading', { name: 'Finance', level: 1 }).waitFor();
    expect(path(page)).toBe('/admin/finance');

    grantRole(suite.server, user.mobile, 'admin');
    await expect.poll(async () => {
      await page.goto('/profile');
      await staff.waitFor();
      return staff.getByRole('link').allTextContents();
    }).toEqual(['Task admin', 'Deletions', 'Settings', 'Audit log', 'Finance', 'Webhooks', 'Reviewers', 'Invitations']); // reviewing needs the reviewer role, not admin
    await page.screenshot({ path: '/tmp/profile-staff.png', fullPage: true });
  });

  it('sends a visitor who never signed in to /login quietly, without the red toast', async () => {
    const page = await phone();
    // Every toast the page ever shows is recorded, so one that came and went is caught too.
    await page.addInitScript(() => {
      const seen: string[] = [];
      (window as unknown as { toastsSeen: string[] }).toastsSeen = seen;
      new MutationObserver(() => {
        for (const toast of document.querySelectorAll('.toast')) if (!seen.includes(toast.outerHTML)) seen.push(toast.outerHTML);
      }).observe(document, { childList: true, subtree: true });
    });
    await page.goto('/profile');
    await page.waitForURL((url) => url.pathname === '/login');
    await page.getByRole('heading', { name: 'Sign in' }).waitFor();
    // The session check that sent the visitor here has answered once nothing is in flight.
    await page.waitForLoadState('networkidle');
    await expect(page.evaluate(() => (window as unknown as { toastsSeen: string[] }).toastsSeen)).resolves.toEqual([]);
  });

  it('tells someone whose session ended they are logged out, and sends them to /login after 500 ms', async () => {
    const page = await signedIn(await newAccount('Kiran'));
    await page.context().clearCookies();
    await page.goto('/profile');
    await expectToast(page, 'Unauthorized', 'You are logged out. Logging in again...');
    await page.waitForURL((url) => url.pathname === '/login');
    await page.getByRole('heading', { name: 'Sign in' }).waitFor();
  });
});
