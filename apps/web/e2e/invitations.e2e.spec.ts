import type { Page } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import type { TestAccount } from './harness.ts';
import { expectAccessible, proofByApi, registeredAccount, setUpBrowserSuite, staffAccount, taskByApi, testAccount, tx } from './helpers.ts';

/**
 * Invitations on a phone (docs/invitations.md): a person's invite link from Profile, a friend who
 * registers by it (the code filled in from the link) and is paid after a first approval and a first
 * paid withdrawal, and a pair who registered in the same browser, refused with that reason; finance
 * sees both on /admin/invitations.
 */
const suite = setUpBrowserSuite();
const t = (key: string, params?: Record<string, string>) => tx('en', key, params);

/** Registers through the form, at the invite link (the code is already filled in). */
async function registerByLink(page: Page, link: string, account: TestAccount, code: string): Promise<void> {
  await page.goto(new URL(link).pathname + new URL(link).search);
  await page.getByRole('heading', { name: t('auth:register.heading') }).waitFor();
  await expect(page.getByLabel(t('auth:register.inviteCode')).inputValue()).resolves.toBe(code);
  await page.getByLabel('First name').fill(account.firstName);
  await page.getByLabel('Last name').fill(account.lastName);
  await page.getByLabel('Mobile number').fill(account.mobile);
  await page.getByLabel('Password', { exact: true }).fill(account.password);
  await page.getByRole('checkbox').check();
  await page.getByRole('button', { name: 'Create account' }).click();
  await page.getByRole('heading', { name: `Hello, ${account.firstName}` }).waitFor();
}

describe('invite friends', () => {
  it('pays a friend invited by link once, refuses a pair on one browser with its reason, and finance sees both', async () => {
    // Staff roles are granted by the CLI (seconds each): under way while the phones work.
    const staff = Promise.all([
      staffAccount(suite.server, 'Anil', 'Admin', 'admin'),
      staffAccount(suite.server, 'Rita', 'Review', 'reviewer'),
      staffAccount(suite.server, 'Fatima', 'Finance', 'finance'),
    ]);
    const inviter = await registeredAccount(suite.server, 'Kiran');
    const home = await suite.signedIn(inviter);
    await home.goto('/profile');
    const card = home.getByTestId('invite-section');
    await card.getByRole('heading', { name: t('profile:invite.heading') }).waitFor();
    const link = (await card.getByTestId('invite-link').textContent()) ?? '';
    const code = (await card.getByTestId('invite-code').textContent()) ?? '';
    expect(link).toBe(`${suite.server.baseUrl}/register?invite=${code}`);
    // Headless Chromium has no share sheet: the button copies.
    await card.getByRole('button', { name: t('profile:invite.copy') }).waitFor();
    await expectAccessible(home, 'profile with the invite card');

    // A friend on their own phone.
    const friend = testAccount('Farah');
    await registerByLink(await suite.phone(), link, friend, code);

    // The inviter signs out and a second account is made in the same browser: a farmed pair.
    await home.getByRole('button', { name: 'Logout' }).click();
    await home.waitForURL(/\/login/);
    const farmed = testAccount('Faisal');
    await registerByLink(home, link, farmed, code);

    // Both get a first task approved; the friend's first withdrawal is paid.
    const [admin, reviewer, finance] = await staff;
    const taskId = await taskByApi(suite, admin, { title: 'Rate the invitation shop', rupeeReward: '150' });
    for (const person of [friend, farmed]) await proofByApi(suite, person, taskId);
    const queue = (await (await suite.api(reviewer, 'GET', '/api/admin/submissions?status=submitted')).json()) as { id: string }[];
    for (const submission of queue) expect((await suite.api(reviewer, 'POST', `/api/admin/submissions/${submission.id}/approve`)).status).toBe(200);
    const asked = await suite.api(friend, 'POST', '/api/withdrawals', { amount: '100', upiId: 'farah.k@okaxis' });
    expect(asked.status).toBe(201);
    const withdrawal = (await asked.json()) as { id: string };
    expect((await suite.api(finance, 'POST', `/api/admin/withdrawals/${withdrawal.id}/paid`, { reference: 'UTRINVITEE2E1' })).status).toBe(200);

    // Finance: the friend's invitation paid (both bonuses), the farmed one refused with its reason.
    const desk = await suite.signedIn(finance);
    await desk.goto('/admin/invitations?status=paid');
    await desk.getByRole('heading', { name: t('finance:invitations.title'), level: 1 }).waitFor();
    const rows = desk.getByTestId('invitation');
    await expect
      .poll(
        async () => {
          await desk.reload();
          await desk.getByRole('heading', { name: t('finance:invitations.title'), level: 1 }).waitFor();
          return rows.count();
        },
        { timeout: 10_000 },
      )
      .toBe(1);
    await expect(rows.first().textContent()).resolves.toContain('₹25.00');
    await expectAccessible(desk, 'invitations, paid');

    await desk.getByRole('button', { name: t('finance:invitations.status.refused') }).click();
    await rows.first().getByTestId('invitation-refusal').waitFor();
    await expect(rows.count()).resolves.toBe(1);
    await expect(rows.first().getByTestId('invitation-refusal').textContent()).resolves.toBe(t('finance:invitations.refusal.shared_device'));
    await expectAccessible(desk, 'invitations, refused');
    // 360 px: nothing wider than the screen.
    await expect(desk.evaluate(() => document.documentElement.scrollWidth <= window.innerWidth)).resolves.toBe(true);
  });
});
