/**
 * For the people who use it: a new person registers, does a task, withdraws with the confirmation
 * step and sees the withdrawal go from Pending to Paid on the wallet row, in English and in Hindi, on
 * a small (360×640) and a common (390×844) phone; axe finds no serious or critical violation on any
 * screen on the way; the app opens offline after one visit. Every text is read from the locale
 * files, so the Hindi run proves the screens speak Hindi.
 */
import { describe, expect, it, beforeAll } from 'vitest';
import type { Page } from 'playwright-core';
import { grantRole } from './harness.ts';
import type { TestAccount } from './harness.ts';
import { expectAccessible, path, registeredAccount, sessionCookie, setUpBrowserSuite, staffAccount, testAccount, tx, waitForRole, openSignIn } from './helpers.ts';

const suite = setUpBrowserSuite();

type Language = 'en' | 'hi';

let staff: TestAccount;
let staffCookie: string;

async function api(method: string, url: string, body?: unknown): Promise<unknown> {
  const response = await fetch(`${suite.server.baseUrl}${url}`, {
    method,
    headers: { 'Content-Type': 'application/json', cookie: staffCookie, Origin: suite.server.baseUrl },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  if (!response.ok) throw new Error(`${method} ${url} answered ${response.status}: ${await response.text()}`);
  return response.status === 204 ? null : response.json();
}

beforeAll(async () => {
  staff = await registeredAccount(suite.server, 'Meera', 'Sethi');
  // Roles separate duties; a small team grants one person all three, explicitly.
  const roles = ['admin', 'reviewer', 'finance'] as const;
  for (const role of roles) grantRole(suite.server, staff.mobile, role);
  for (const role of roles) await waitForRole(suite.server, staff, role);
  staffCookie = await sessionCookie(suite.server, staff);
});

/** A tiny valid PNG (1×1), enough for a proof upload. */
const PNG = Buffer.from('iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR4nGNgYGD4DwABBAEAwS2OUAAAAABJRU5ErkJggg==', 'base64');

const toast = (page: Page, text: string) => page.locator('.toast').getByText(text, { exact: true });

const RUNS: { language: Language; width: number; height: number }[] = [
  { language: 'en', width: 360, height: 640 },
  { language: 'hi', width: 360, height: 640 },
  { language: 'en', width: 390, height: 844 },
  { language: 'hi', width: 390, height: 844 },
];

describe('a new person, from sign-up to a paid withdrawal', () => {
  for (const { language, width, height } of RUNS) {
    it(`registers, does a task, withdraws and sees it paid, in ${language} at ${width}×${height}; axe-clean; opens offline`, async () => {
      const t = (key: string, params?: Record<string, string | number>) => tx(language, key, params);
      const page = await suite.phone();
      await page.setViewportSize({ width, height });

      // Sign-in screen, then the language switch there (remembered on this device).
      await openSignIn(page);
      await page.getByRole('heading', { name: tx('en', 'auth:login.heading') }).waitFor();
      if (language === 'hi') {
        await page.getByRole('button', { name: 'हिन्दी' }).click();
        await page.getByRole('heading', { name: t('auth:login.heading') }).waitFor();
        await expect(page.evaluate(() => document.documentElement.lang)).resolves.toBe('hi');
      }
      await expectAccessible(page, `login (${language})`);

      // Register, typing the number the way autofill does: +91, a space and a dash.
      const account = testAccount(language === 'hi' ? 'Sunita' : 'Arjun', 'Yadav');
      await page.getByRole('link', { name: t('auth:login.createAccount') }).click();
      await page.getByRole('heading', { name: t('auth:register.heading') }).waitFor();
      await expectAccessible(page, `register (${language})`);
      await page.getByLabel(t('common:fields.firstName')).fill(account.firstName);
      await page.getByLabel(t('common:fields.lastName')).fill(account.lastName);
      const mobile = page.getByLabel(t('common:fields.mobile'));
      await mobile.pressSequentially('abc');
      await expect(mobile.inputValue()).resolves.toBe('');
      await mobile.fill(`+91 ${account.mobile.slice(0, 5)}-${account.mobile.slice(5)}`);
      await page.getByLabel(t('common:fields.password'), { exact: true }).fill(account.password);
      await page.getByRole('checkbox').check();
      await page.getByRole('button', { name: t('auth:register.submit') }).click();
      await page.getByRole('heading', { name: t('home:hello', { name: account.firstName }) }).waitFor();
      // The device's choice is stored on the new account.
      await expect(page.request.get('/api/auth/user').then((r) => r.json())).resolves.toMatchObject({ language });
      await expectAccessible(page, `home (${language})`);

      // A task worth ₹150, done with a proof.
      const title = `Rate Kamai ${language} ${width}`;
      await api('POST', '/api/admin/tasks', {
        title,
        description: 'Give the app a rating',
        rupeeReward: '150',
        estimatedTime: '2 min',
        taskType: 'rating',
        requiresProof: true,
        isActive: true,
        iconColor: '#3B82F6',
      });
      await page.reload();
      await page.getByTestId('category-rating').click();
      const card = page.getByRole('article', { name: title });
      await card.waitFor();
      await expectAccessible(page, `rating tasks (${language})`);
      await card.getByRole('button', { name: t('tasks:card.submitProof') }).click();
      // The title's task name is marked up with its language (<task>): the accessible name is the text.
      const proof = page.getByRole('dialog', { name: t('tasks:proof.dialogTitle', { title }).replace(/<\/?task>/g, '') });
      await proof.getByLabel(t('tasks:proof.image')).setInputFiles({ name: 'proof.png', mimeType: 'image/png', buffer: PNG });
      await toast(page, t('tasks:proof.imageUploaded')).waitFor();
      // A rating task's proof is the review written; the reward does not depend on the stars.
      await proof.getByText(t('tasks:honest')).waitFor();
      await proof.getByLabel(t('tasks:proof.review'), { exact: true }).fill('Clear and quick; the app froze once.');
      await expectAccessible(page, `proof dialog (${language})`);
      await proof.getByRole('button', { name: t('tasks:card.submitProof') }).click();
      await toast(page, t('tasks:proof.submitted')).waitFor();
      await proof.waitFor({ state: 'detached' });

      // Home says the reward is under review.
      await page.goto('/');
      await page.getByTestId('money-in-flight').getByText(t('home:underReview', { amount: '₹150.00' })).waitFor();

      // The reviewer approves it.
      const queue = (await api('GET', '/api/admin/submissions?status=submitted')) as { id: string; taskTitle: string }[];
      const submission = queue.find((s) => s.taskTitle === title);
      if (!submission) throw new Error('the proof is not in the review queue');
      await api('POST', `/api/admin/submissions/${submission.id}/approve`);

      // Withdraw ₹100 to a UPI ID, with the confirmation step.
      await page.goto('/wallet');
      await page.getByTestId('wallet-balance').getByText('₹150.00').waitFor();
      await expectAccessible(page, `wallet (${language})`);
      await page.getByRole('button', { name: t('wallet:withdrawMoney') }).click();
      await page.getByRole('dialog', { name: t('wallet:withdraw.title') }).waitFor();
      // The title follows the chosen destination.
      const dialog = page.getByRole('dialog', { name: t('wallet:withdraw.titleUpi') });
      await page.getByRole('radio', { name: t('wallet:withdraw.upi') }).check();
      await dialog.getByRole('textbox', { name: t('wallet:withdraw.upi') }).fill('arjun.yadav@okhdfc');
      await expectAccessible(page, `withdraw dialog (${language})`);
      await dialog.getByRole('button', { name: t('wallet:withdraw.submit') }).click();
      const confirm = dialog.getByTestId('withdraw-confirm');
      await confirm.getByText(t('wallet:withdraw.toUpi', { upiId: 'arjun.yadav@okhdfc' })).waitFor();
      await expect(confirm.textContent()).resolves.toContain('₹100.00');
      // Confirm is enabled once the tax quote has answered; axe judges its colours after that, not mid-fade.
      await confirm.getByRole('button', { name: t('wallet:withdraw.confirm'), disabled: false }).waitFor();
      await expectAccessible(page, `withdraw confirmation (${language})`);
      await confirm.getByRole('button', { name: t('wallet:withdraw.confirm') }).click();
      await toast(page, t('wallet:withdraw.requested')).waitFor();
      await dialog.waitFor({ state: 'detached' });

      // Pending on the wallet row.
      const row = page.getByTestId('activity-row').filter({ has: page.getByTestId('amount').getByText('-₹100.00') });
      await row.getByTestId('withdrawal-status').getByText(t('wallet:status.pending'), { exact: true }).waitFor();

      // Finance pays it: Paid, with the reference, on the same row.
      const pending = (await api('GET', '/api/admin/withdrawals?status=pending')) as { id: string; userId: string; amount: string }[];
      const me = (await (await page.request.get('/api/auth/user')).json()) as { id: string };
      const request = pending.find((w) => w.userId === me.id);
      if (!request) throw new Error('the withdrawal is not in the finance queue');
      await api('POST', `/api/admin/withdrawals/${request.id}/paid`, { reference: `UTR${width}${language.toUpperCase()}0001` });
      await page.reload();
      await row.getByTestId('withdrawal-status').getByText(t('wallet:status.paid'), { exact: true }).waitFor();
      await row.getByText(t('wallet:detail.utr', { reference: `UTR${width}${language.toUpperCase()}0001` })).waitFor();
      await expectAccessible(page, `wallet with a paid withdrawal (${language})`);
      await row.getByRole('button').click();
      const details = page.getByRole('dialog', { name: t('wallet:detail.title') });
      await details.waitFor();
      await expectAccessible(page, `withdrawal details (${language})`);
      await page.keyboard.press('Escape');
      await details.waitFor({ state: 'detached' });
      // Focus goes back to the row that opened the sheet.
      await expect(row.getByRole('button').evaluate((button) => button === document.activeElement)).resolves.toBe(true);

      // Profile and the notifications, in the reader's language (rendered from message keys).
      await page.goto('/profile');
      await page.getByRole('heading', { name: t('profile:pageTitle'), level: 1 }).waitFor();
      await expectAccessible(page, `profile (${language})`);
      await page.getByRole('button', { name: new RegExp(`^${t('profile:rows.notifications')}`) }).click();
      const notifications = page.getByRole('dialog', { name: new RegExp(t('notifications:title')) });
      await notifications.getByRole('listitem').filter({ hasText: t('messages:notifications.withdrawal_paid.title') }).first().waitFor();
      await expectAccessible(page, `notifications (${language})`);
      await page.keyboard.press('Escape');
      await notifications.waitFor({ state: 'detached' });

      // KYC, where nothing is uploaded yet.
      await page.goto('/kyc');
      await page.getByRole('heading', { name: t('kyc:title'), level: 1 }).waitFor();
      await page.getByRole('article', { name: t('kyc:documents.pan') }).waitFor();
      await expectAccessible(page, `KYC (${language})`);

      // The static pages.
      await page.goto('/privacy-policy');
      await page.getByRole('heading', { name: t('static-pages:privacy.pageTitle'), level: 1 }).waitFor();
      await expectAccessible(page, `privacy policy (${language})`);
      await page.goto('/delete-account');
      await page.getByRole('heading', { name: t('static-pages:deleteAccount.pageTitle'), level: 1 }).waitFor();
      await expectAccessible(page, `delete account (${language})`);

      // After one visit the app opens without a network and says so.
      await page.goto('/');
      await page.evaluate(async () => {
        await navigator.serviceWorker.ready;
      });
      await page.reload();
      await page.context().setOffline(true);
      await page.reload();
      await page.getByTestId('offline-banner').getByText(t('common:offline.banner')).waitFor();
      await page.getByRole('heading', { name: t('common:offline.title') }).waitFor();
      await expectAccessible(page, `offline (${language})`);
      await page.context().setOffline(false);
    });
  }
});

describe('staff screens at a desk and on a phone', () => {
  for (const language of ['en', 'hi'] as const) {
    it(`shows the admin and review screens axe-clean in ${language}, queue beside the detail on a desktop`, async () => {
      const t = (key: string, params?: Record<string, string | number>) => tx(language, key, params);
      const page = await suite.signedIn(staff);
      if (language === 'hi') {
        await page.goto('/profile');
        await page.getByRole('button', { name: 'हिन्दी' }).click();
        await page.getByRole('heading', { name: t('profile:pageTitle'), level: 1 }).waitFor();
      }
      await page.setViewportSize({ width: 1280, height: 800 });
      await page.goto('/admin');
      await page.getByRole('heading', { name: t('admin:title'), level: 1 }).waitFor();
      const width = await page.locator('main').evaluate((main) => main.getBoundingClientRect().width);
      expect(width).toBeGreaterThan(900);
      await expectAccessible(page, `admin (${language})`);
      await page.goto('/admin/review');
      await page.getByRole('heading', { name: t('review:title'), level: 1 }).waitFor();
      await expectAccessible(page, `review (${language})`);
      await page.setViewportSize({ width: 360, height: 640 });
      await expectAccessible(page, `review on a phone (${language})`);
      // Finance (the staff member holds that role too): the queue tab, in the chosen language.
      await page.goto('/admin/finance');
      await page.getByRole('heading', { name: t('finance:title'), level: 1 }).waitFor();
      await page.getByRole('heading', { name: t('finance:queue.heading'), level: 2 }).waitFor();
      await expectAccessible(page, `finance queue on a phone (${language})`);
    });
  }
});

/** Signs `account` in on a 360×640 phone and, for Hindi, switches the language on Profile. */
async function phoneIn(account: TestAccount, language: Language): Promise<Page> {
  const page = await suite.signedIn(account);
  await page.setViewportSize({ width: 360, height: 640 });
  if (language === 'hi') {
    await page.goto('/profile');
    await page.getByRole('button', { name: 'हिन्दी' }).click();
    await page.getByRole('heading', { name: tx('hi', 'profile:pageTitle'), level: 1 }).waitFor();
  }
  return page;
}

/**
 * Requests to `url` fail as a lost connection does until `reach()`: the device says it is online and
 * the server still cannot be reached. `failed()` counts the requests that failed so.
 */
async function unreachable(page: Page, url: string): Promise<{ failed: () => number; reach: () => void }> {
  let failing = true;
  let failed = 0;
  await page.context().route(url, (route) => {
    if (!failing) return route.continue();
    failed += 1;
    return route.abort('internetdisconnected');
  });
  return { failed: () => failed, reach: () => (failing = false) };
}

/** The caller's queue counts as the API answers them to this page's session. */
async function queueCounts(page: Page): Promise<Record<string, number>> {
  return (await (await page.request.get('/api/admin/queues')).json()) as Record<string, number>;
}

describe('staff start where they work', () => {
  let reviewer: TestAccount;
  let finance: TestAccount;

  beforeAll(async () => {
    reviewer = await staffAccount(suite.server, 'Rekha', 'Iyer', 'reviewer');
    finance = await staffAccount(suite.server, 'Farhan', 'Ali', 'finance');

    // Work in both queues: a proof to review, and a withdrawal to pay.
    const worker = await registeredAccount(suite.server, 'Gopal', 'Nair');
    const workerCookie = await sessionCookie(suite.server, worker);
    const asWorker = async (method: string, url: string, body?: unknown, headers: Record<string, string> = {}) => {
      const response = await fetch(`${suite.server.baseUrl}${url}`, {
        method,
        headers: { cookie: workerCookie, Origin: suite.server.baseUrl, ...(body === undefined || Buffer.isBuffer(body) ? {} : { 'Content-Type': 'application/json' }), ...headers },
        body: body === undefined ? undefined : Buffer.isBuffer(body) ? new Uint8Array(body) : JSON.stringify(body),
      });
      if (!response.ok) throw new Error(`${method} ${url} answered ${response.status}: ${await response.text()}`);
      return response;
    };
    const task = (await api('POST', '/api/admin/tasks', {
      title: 'Rate the staff home',
      description: 'Give the app a rating',
      rupeeReward: '20',
      estimatedTime: '2 min',
      taskType: 'rating',
      requiresProof: true,
      isActive: true,
      iconColor: '#3B82F6',
    })) as { id: string };
    const { uploadURL, objectURL } = (await (await asWorker('POST', '/api/objects/upload')).json()) as { uploadURL: string; objectURL: string };
    const target = new URL(uploadURL, suite.server.baseUrl);
    await asWorker('PUT', target.pathname + target.search, PNG, { 'Content-Type': 'image/png' });
    await asWorker('POST', `/api/tasks/${task.id}/submit-proof`, { proofImageUrl: objectURL, proofDescription: 'Rated it' });
    await api('POST', '/api/admin/adjustments', { mobile: worker.mobile, amount: '300', direction: 'credit', reason: 'Test funding' });
    await asWorker('POST', '/api/withdrawals', { amount: 150, upiId: 'gopal.nair@okaxis' });
  });

  for (const language of ['en', 'hi'] as const) {
    it(`a reviewer's Home counts proofs and KYC, and the review screens link to each other (${language}, 360 px, axe)`, async () => {
      const t = (key: string) => tx(language, key);
      const page = await phoneIn(reviewer, language);
      await page.goto('/');
      const queues = page.getByRole('region', { name: t('home:queues.heading') });
      await queues.getByTestId('queue-proofs').getByTestId('queue-count').waitFor();
      const counts = await queueCounts(page);
      expect(counts.proofs).toBeGreaterThanOrEqual(1);
      await expect(queues.getByTestId('queue-proofs').getByTestId('queue-count').textContent()).resolves.toBe(String(counts.proofs));
      await expect(queues.getByTestId('queue-kyc').getByTestId('queue-count').textContent()).resolves.toBe(String(counts.kyc));
      // Only the reviewer's queues; the worker's own content follows.
      await expect(queues.getByRole('link').count()).resolves.toBe(2);
      await page.getByTestId('total-rupees').waitFor();
      await expectAccessible(page, `staff home of a reviewer (${language})`);

      await queues.getByTestId('queue-proofs').click();
      await page.getByRole('heading', { name: tx(language, 'review:title'), level: 1 }).waitFor();
      expect(path(page)).toBe('/admin/review');
      const staffNav = page.getByRole('navigation', { name: t('common:staff.nav') });
      await expect(staffNav.getByRole('link').allTextContents()).resolves.toEqual([t('common:staff.review'), t('common:staff.kyc'), t('common:staff.appeals')]);
      await expect(staffNav.getByRole('link', { name: t('common:staff.review') }).getAttribute('aria-current')).resolves.toBe('page');
      // Every link a thumb can hit, inside a 360 px screen.
      for (const box of await staffNav.getByRole('link').evaluateAll((links) => links.map((link) => link.getBoundingClientRect().toJSON() as DOMRect))) {
        expect(box.height).toBeGreaterThanOrEqual(44);
        expect(box.right).toBeLessThanOrEqual(360);
      }
      await expectAccessible(page, `review with the staff navigation (${language})`);
      await staffNav.getByRole('link', { name: t('common:staff.kyc') }).click();
      await page.getByRole('heading', { name: tx(language, 'kyc:review.title'), level: 1 }).waitFor();
      expect(path(page)).toBe('/admin/kyc');
    });

    it(`a finance member's Home counts withdrawals pending and late, batches and adjustments (${language}, 360 px, axe)`, async () => {
      const t = (key: string) => tx(language, key);
      const page = await phoneIn(finance, language);
      await page.goto('/');
      const queues = page.getByRole('region', { name: t('home:queues.heading') });
      const pending = queues.getByTestId('queue-withdrawalsPending');
      await pending.getByTestId('queue-count').waitFor();
      const counts = await queueCounts(page);
      expect(counts.withdrawalsPending).toBeGreaterThanOrEqual(1);
      for (const queue of ['withdrawalsPending', 'payoutsLate', 'batchesOpen', 'adjustmentsPending']) {
        await expect(queues.getByTestId(`queue-${queue}`).getByTestId('queue-count').textContent()).resolves.toBe(String(counts[queue]));
      }
      await expect(queues.getByTestId('queue-proofs').count()).resolves.toBe(0);
      await expectAccessible(page, `staff home of a finance member (${language})`);
      await pending.click();
      await page.getByRole('heading', { name: t('finance:title'), level: 1 }).waitFor();
      expect(path(page)).toBe('/admin/finance');
      // Finance has two screens, the desk and the invitations: the staff navigation names both.
      await expect(page.getByTestId('staff-nav').getByRole('link').allTextContents()).resolves.toEqual([t('common:staff.finance'), t('common:staff.invitations')]);
    });
  }
});

describe('offline that recovers, and slow first loads', () => {
  it('keeps the bottom bar offline and brings the screen back by itself when the network returns', async () => {
    const t = (key: string) => tx('en', key);
    const page = await phoneIn(await registeredAccount(suite.server, 'Lata', 'Pillai'), 'en');
    // The shell is cached once the service worker controls the page.
    await page.evaluate(async () => {
      await navigator.serviceWorker.ready;
    });
    // Home's chunk too, which index.html names only for the worker (kamai-shell): the page fetched it
    // before the worker was registered, so the worker keeps it at install or a return visit refetches it.
    const homeChunkKept = page.evaluate(async () => {
      const file = document.querySelector('meta[name="kamai-shell"]')?.getAttribute('content');
      return Boolean(file && (await caches.match(file)));
    });
    await expect(homeChunkKept).resolves.toBe(true);
    await page.reload();
    await page.getByRole('heading', { name: tx('en', 'home:hello', { name: 'Lata' }) }).waitFor();
    await page.context().setOffline(true);
    await page.getByRole('navigation', { name: t('common:nav.main') }).getByRole('link', { name: t('common:nav.profile') }).click();
    await page.getByRole('heading', { name: t('common:offline.title') }).waitFor();
    await expect(page.getByRole('navigation', { name: t('common:nav.main') }).isVisible()).resolves.toBe(true);
    await expectAccessible(page, 'offline card in the signed-in frame');
    await page.context().setOffline(false);
    // No tap: the screen arrives once the browser is online again.
    await page.getByRole('heading', { name: t('profile:pageTitle'), level: 1 }).waitFor();
    await expect(page.getByRole('heading', { name: t('common:offline.title') }).count()).resolves.toBe(0);
  });

  it('tries again by itself when the try made as the network returns fails too', async () => {
    const t = (key: string) => tx('en', key);
    const page = await phoneIn(await registeredAccount(suite.server, 'Hema', 'Rao'), 'en');
    // As above: the service worker controls the page and keeps the shell, so offline only the API fails.
    await page.evaluate(async () => {
      await navigator.serviceWorker.ready;
    });
    await page.reload();
    await page.getByRole('heading', { name: tx('en', 'home:hello', { name: 'Hema' }) }).waitFor();
    await page.context().setOffline(true);
    await page.getByRole('navigation', { name: t('common:nav.main') }).getByRole('link', { name: t('common:nav.profile') }).click();
    await page.getByRole('heading', { name: t('common:offline.title') }).waitFor();
    // Back online, but the server cannot be reached yet: the first try fails as a network failure.
    const server = await unreachable(page, `${suite.server.baseUrl}/**`);
    await page.context().setOffline(false);
    await expect.poll(server.failed, { timeout: 10_000 }).toBeGreaterThan(0);
    await page.getByRole('heading', { name: t('common:offline.title') }).waitFor();
    server.reach();
    // No tap, and no second `online` event: the screen arrives by itself.
    await page.getByRole('heading', { name: t('profile:pageTitle'), level: 1 }).waitFor();
  });

  it("tries a screen's list again by itself when the try made as the network returns fails too", async () => {
    const t = (key: string) => tx('en', key);
    const page = await phoneIn(await registeredAccount(suite.server, 'Usha', 'Menon'), 'en');
    // The screen loads; only its list's read cannot reach the server.
    const list = await unreachable(page, `${suite.server.baseUrl}/api/tasks`);
    await page.goto('/tasks/categories');
    const card = page.getByRole('alert').filter({ hasText: t('tasks:loadFailed') });
    await card.waitFor();
    await expect(card.getByText(t('common:offline.retrying')).isVisible()).resolves.toBe(true);
    await expectAccessible(page, "a list's card when the network failed it");
    // Offline and back: the try made at the `online` event fails as well.
    const before = list.failed();
    await page.context().setOffline(true);
    await page.context().setOffline(false);
    await expect.poll(list.failed, { timeout: 10_000 }).toBeGreaterThan(before);
    await card.waitFor();
    list.reach();
    // No tap, and no second `online` event: the list arrives by itself.
    await page.getByTestId('category-rating').getByTestId('category-count').waitFor();
    await expect(card.count()).resolves.toBe(0);
  });

  for (const [screen, url, heading] of [
    ['wallet', '/wallet', 'wallet:pageTitle'],
    ['home', '/', 'home:queues.heading'],
  ] as const) {
    it(`shows the ${screen} skeleton in the signed-in frame while a deep link's first read is slow`, async () => {
      // A staff member of their own: the shared one reads Hindi after the desk tests chose it.
      const page = await phoneIn(await staffAccount(suite.server, 'Nisha', 'Kapoor', 'reviewer'), 'en');
      // Hold the signed-in user's read until the skeleton has been seen.
      let release!: () => void;
      const released = new Promise<void>((resolve) => (release = resolve));
      await page.route('**/api/auth/user', async (route) => {
        await released;
        await route.continue();
      });
      await page.goto(url, { waitUntil: 'domcontentloaded' });
      const skeleton = page.getByTestId('screen-skeleton');
      await skeleton.waitFor();
      await expect(skeleton.getAttribute('data-screen')).resolves.toBe(screen);
      // Waited for, not looked at once: the bar is named from the common texts, which may arrive a
      // moment after the skeleton (the user's read is still held either way).
      await page.getByRole('navigation', { name: tx('en', 'common:nav.main') }).waitFor();
      await expect(skeleton.count()).resolves.toBe(1);
      await expectAccessible(page, `${screen} skeleton`);
      release();
      await page.getByRole('heading', { name: tx('en', heading) }).waitFor();
      await expect(skeleton.count()).resolves.toBe(0);
    });
  }
});
