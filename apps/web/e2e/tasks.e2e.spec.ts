import { beforeAll, describe, expect, it } from 'vitest';
import type { Locator, Page } from 'playwright-core';
import { grantRole, registerAccount, uniqueMobile } from './harness.ts';
import type { TestAccount } from './harness.ts';
import { path, sessionCookie, setUpBrowserSuite, signIn, testAccount, waitForRole } from './helpers.ts';
import { drawPng } from './png.ts';

/**
 * Tasks end to end, on a phone: the admin adds a task, a user submits proof with a real image, a
 * reviewer approves or rejects it, and the user sees the outcome on the card, the credit at home and
 * the notification on the bell.
 */

const suite = setUpBrowserSuite();
const { phone } = suite;

let admin: TestAccount;
let reviewer: TestAccount;

beforeAll(async () => {
  admin = newAccount('Anil');
  reviewer = newAccount('Rekha');
  await registerAccount(suite.server.baseUrl, admin);
  await registerAccount(suite.server.baseUrl, reviewer);
  grantRole(suite.server, admin.mobile, 'admin');
  grantRole(suite.server, reviewer.mobile, 'reviewer');
  await waitForRole(suite.server, admin, 'admin');
  await waitForRole(suite.server, reviewer, 'reviewer');
});

const newAccount = (firstName: string) => testAccount(firstName, 'Verma');

/** A signed-in API session outside the browser: its cookie header. */
const apiSession = (account: TestAccount) => sessionCookie(suite.server, account);


interface NewTask {
  title: string;
  description: string;
  rupeeReward: string;
  taskType: 'rating' | 'website' | 'game';
  taskUrl?: string;
  proofInstructions?: string;
}

/** Adds a task straight through the admin API, for tests about what happens after. */
async function addTaskByApi(task: NewTask): Promise<void> {
  const response = await fetch(`${suite.server.baseUrl}/api/admin/tasks`, {
    method: 'POST',
    headers: { 'Content-Type': 'application/json', cookie: await apiSession(admin), Origin: suite.server.baseUrl },
    body: JSON.stringify({ estimatedTime: '3 min', requiresProof: true, isActive: true, iconColor: '#3B82F6', ...task }),
  });
  if (response.status !== 201) throw new Error(`create task answered ${response.status}: ${await response.text()}`);
}

/** The toast on screen. Found by text, as an open modal dialog hides the rest of the page from roles. */
async function expectToast(page: Page, title: string, description?: string): Promise<void> {
  await page.locator('.toast').getByText(title, { exact: true }).waitFor();
  if (description) await page.locator('.toast').getByText(description, { exact: true }).waitFor();
}

const card = (page: Page, title: string) => page.getByRole('article', { name: title });

async function expectBadge(cardLocator: Locator, label: string): Promise<void> {
  await cardLocator.getByTestId('task-status').filter({ hasText: label }).waitFor();
}

/** A small green-to-blue gradient with a white tick-like band. */
const proofPng = (width = 160, height = 100) =>
  drawPng(width, height, (x, y) =>
    Math.abs(y - height / 2) < 6 ? [255, 255, 255] : [16, Math.round(120 + (x / width) * 100), Math.round(90 + (y / height) * 140)],
  );

const PNG_FILE = { name: 'proof.png', mimeType: 'image/png', buffer: proofPng() };

/** Opens the proof dialog of a task, chooses the image, waits for the upload, writes, submits. */
async function submitProof(page: Page, title: string, description: string): Promise<void> {
  await card(page, title).getByRole('button', { name: 'Submit Proof' }).click();
  const dialog = page.getByRole('dialog', { name: `Submit Proof - ${title}` });
  await dialog.waitFor();
  await dialog.getByLabel('Proof image').setInputFiles(PNG_FILE);
  await expectToast(page, 'Image Uploaded');
  await dialog.getByLabel(/^(Description|Your review \(the words you wrote\))$/).fill(description);
  await dialog.getByRole('button', { name: 'Submit Proof' }).click();
  await expectToast(page, 'Proof Submitted!', "Your proof has been submitted for review. You'll be notified once it's approved.");
  await dialog.waitFor({ state: 'detached' });
}

describe('a task from the admin panel to the wallet', () => {
  it('admin adds a task, the user proves it with an image, the reviewer approves, the user is credited', async () => {
    const user = newAccount('Usha');
    await registerAccount(suite.server.baseUrl, user);
    const title = `Rate the Kamai app ${user.mobile}`;

    // The admin adds the task on /admin.
    const adminPage = await phone();
    await signIn(adminPage, admin);
    await adminPage.goto('/admin');
    await adminPage.getByRole('heading', { name: 'Admin Panel' }).waitFor();
    const totalBefore = Number(await adminPage.getByTestId('total-tasks').textContent());
    const form = adminPage.getByRole('region', { name: 'Add Task' });
    // The form's defaults.
    await expect(form.getByLabel('Rupee reward').inputValue()).resolves.toBe('10');
    await expect(form.getByLabel('Estimated time (minutes)').inputValue()).resolves.toBe('5');
    await expect(form.getByLabel('Task type').inputValue()).resolves.toBe('website');
    await expect(form.getByLabel('Requires proof').isChecked()).resolves.toBe(true);

    // Required fields and the URL rule, inline and before any call.
    await form.getByLabel('Task URL').fill('not a web address');
    await form.getByRole('button', { name: 'Add Task' }).click();
    await form.getByText('Title is required').waitFor();
    await form.getByText('Description is required').waitFor();
    await form.getByText('Task URL must be a valid URL').waitFor();

    await form.getByLabel('Title', { exact: true }).fill(title);
    await form.getByLabel('Description', { exact: true }).fill('Install our app and give it an honest rating on the Play Store.');
    await form.getByLabel('Rupee reward').fill('25');
    await form.getByLabel('Estimated time (minutes)').fill('3');
    await form.getByLabel('Title in Hindi').fill(`कमाई ऐप को रेटिंग दें ${user.mobile}`);
    await form.getByLabel('Task type').selectOption('rating');
    await form.getByLabel('Task URL').fill('https://play.google.com/store/apps/details?id=in.kamai');
    await form.getByLabel('Proof instructions', { exact: true }).fill('Upload a screenshot of your published review.');
    await form.getByRole('button', { name: 'Add Task' }).click();
    await expectToast(adminPage, 'Task created successfully');
    await adminPage.getByRole('article', { name: title }).waitFor();
    await expect(adminPage.getByTestId('total-tasks').textContent()).resolves.toBe(String(totalBefore + 1));
    // The form is back to its defaults for the next task.
    await expect(form.getByLabel('Title', { exact: true }).inputValue()).resolves.toBe('');
    await expect(form.getByLabel('Rupee reward').inputValue()).resolves.toBe('10');

    // The user finds it under Rating Tasks, from Home.
    const userPage = await phone();
    await signIn(userPage, user);
    await expect(userPage.getByTestId('total-rupees').textContent()).resolves.toBe('₹0.00');
    // Home says once that Kamai never asks for money; put away, it stays away after a reload.
    const neverPay = userPage.getByRole('region', { name: 'Kamai never asks you to pay' });
    await neverPay.getByRole('button', { name: 'Got it' }).click();
    await neverPay.waitFor({ state: 'detached' });
    await userPage.reload();
    await userPage.getByTestId('total-rupees').waitFor();
    await expect(neverPay.count()).resolves.toBe(0);
    await userPage.getByTestId('category-rating').click();
    await userPage.waitForURL((url) => url.pathname === '/tasks/rating');
    await userPage.getByRole('heading', { name: 'Rating Tasks' }).waitFor();
    await userPage.getByText('Rate apps and services to earn rupees').waitFor();
    const taskCard = card(userPage, title);
    await expectBadge(taskCard, 'Not Started');
    await taskCard.getByText('₹25.00').waitFor();
    await taskCard.getByText('Upload a screenshot of your published review.').waitFor();
    // A rating task: the reward does not depend on the stars.
    const honest = 'Give your honest opinion: the reward does not depend on the stars you give';
    await taskCard.getByText(honest).waitFor();
    const openApp = taskCard.getByRole('link', { name: 'Open App' });
    await expect(openApp.getAttribute('href')).resolves.toBe('https://play.google.com/store/apps/details?id=in.kamai');
    await expect(openApp.getAttribute('target')).resolves.toBe('_blank');

    // The proof dialog: task details, a counter, Submit disabled until both image and words exist.
    await taskCard.getByRole('button', { name: 'Submit Proof' }).click();
    const dialog = userPage.getByRole('dialog', { name: `Submit Proof - ${title}` });
    await dialog.waitFor();
    await dialog.getByText('Install our app and give it an honest rating on the Play Store.').waitFor();
    await dialog.getByText(honest).waitFor();
    await dialog.getByText('Proof requirements').waitFor();
    await dialog.getByText('3 min').waitFor();
    const submit = dialog.getByRole('button', { name: 'Submit Proof' });
    await expect(dialog.getByTestId('description-counter').textContent()).resolves.toBe('0/500');
    await expect(submit.isDisabled()).resolves.toBe(true);
    await dialog.getByText('Please upload proof image and provide description').waitFor();

    await dialog.getByLabel('Your review (the words you wrote)').fill('I gave the app five stars and wrote a short review.');
    await expect(dialog.getByTestId('description-counter').textContent()).resolves.toBe('51/500');
    await expect(submit.isDisabled()).resolves.toBe(true);
    await dialog.getByLabel('Proof image').setInputFiles(PNG_FILE);
    await expectToast(userPage, 'Image Uploaded');
    await dialog.getByRole('img', { name: 'Chosen proof' }).waitFor();
    await expect(submit.isEnabled()).resolves.toBe(true);
    // Only spaces do not count as a description.
    await dialog.getByLabel('Your review (the words you wrote)').fill('   ');
    await expect(submit.isDisabled()).resolves.toBe(true);
    await dialog.getByLabel('Your review (the words you wrote)').fill('I gave the app five stars and wrote a short review.');
    await submit.click();
    await expectToast(userPage, 'Proof Submitted!', "Your proof has been submitted for review. You'll be notified once it's approved.");
    await dialog.waitFor({ state: 'detached' });
    await expectBadge(taskCard, 'Under Review');
    await expect(taskCard.getByRole('button', { name: 'Submit Proof' }).count()).resolves.toBe(0);

    // The submission, seen again from the card.
    await taskCard.getByRole('button', { name: 'View Proof' }).click();
    await dialog.getByText('Proof Under Review').waitFor();
    await dialog.getByText('I gave the app five stars and wrote a short review.').waitFor();
    await expect(dialog.getByLabel('Proof image').count()).resolves.toBe(0);
    await expectImageLoaded(dialog.getByRole('img', { name: 'Your proof' }));
    await userPage.screenshot({ path: '/tmp/kamai-proof-under-review.png' });
    await dialog.getByRole('button', { name: 'Close' }).click();

    // The reviewer approves it on /admin/review, seeing the image.
    const reviewerPage = await phone();
    await signIn(reviewerPage, reviewer);
    await reviewerPage.goto('/admin/review');
    await reviewerPage.getByRole('heading', { name: 'Proof Review' }).waitFor();
    const submission = reviewerPage.getByRole('article', { name: title });
    await submission.getByText(`Usha Verma · +91 ${user.mobile}`).waitFor();
    await submission.getByText('I gave the app five stars and wrote a short review.').waitFor();
    await expectImageLoaded(submission.getByRole('img', { name: `Proof for ${title}` }));
    await reviewerPage.screenshot({ path: '/tmp/kamai-review-queue.png' });
    await submission.getByRole('button', { name: 'Approve' }).click();
    // Approving moves money: the reviewer confirms the amount and the person first.
    const confirm = reviewerPage.getByRole('dialog', { name: 'Approve this proof?' });
    await confirm.getByRole('button', { name: /^Approve ₹/ }).click();
    await expectToast(reviewerPage, 'Proof Approved');
    await submission.waitFor({ state: 'detached' });

    // The user sees it completed, the credit at home and one unread notification.
    await userPage.reload();
    await expectBadge(taskCard, 'Completed');
    await taskCard.getByText('+₹25.00 earned').waitFor();
    await expect(taskCard.getByRole('link', { name: 'Open App' }).count()).resolves.toBe(0);
    await expect(taskCard.getByRole('button', { name: 'Submit Proof' }).count()).resolves.toBe(0);
    await taskCard.getByRole('button', { name: 'View Proof' }).click();
    await dialog.getByText('Task Completed!').waitFor();
    await dialog.getByText('₹25.00 has been added to your wallet').waitFor();
    await userPage.screenshot({ path: '/tmp/kamai-task-completed.png' });
    await dialog.getByRole('button', { name: 'Close' }).click();

    await userPage.getByRole('link', { name: 'Back to home' }).click();
    await userPage.waitForURL((url) => url.pathname === '/');
    await userPage.reload();
    await userPage.getByTestId('total-rupees').filter({ hasText: '₹25.00' }).waitFor();
    await expect(userPage.getByTestId('unread-count').textContent()).resolves.toBe('1');
    const bell = userPage.getByRole('link', { name: 'Notifications, 1 unread' });
    await userPage.screenshot({ path: '/tmp/kamai-home-credited.png' });
    await bell.click();
    await userPage.waitForURL((url) => url.pathname === '/profile');
  });
});

async function expectImageLoaded(image: Locator): Promise<void> {
  await image.waitFor();
  await image.evaluate((element: HTMLImageElement) =>
    element.complete && element.naturalWidth > 0
      ? undefined
      : new Promise<void>((resolve, reject) => {
          element.addEventListener('load', () => resolve(), { once: true });
          element.addEventListener('error', () => reject(new Error(`image ${element.src} did not load`)), { once: true });
        }),
  );
  await expect(image.evaluate((element: HTMLImageElement) => element.naturalWidth)).resolves.toBe(160);
}

describe('rejection and resubmission', () => {
  it('shows the reviewer’s reason on the card and in the dialog, and takes the proof again', async () => {
    const user = newAccount('Farhan');
    await registerAccount(suite.server.baseUrl, user);
    const title = `Visit our partner website ${user.mobile}`;
    await addTaskByApi({
      title,
      description: 'Open the partner site and browse two pages.',
      rupeeReward: '8',
      taskType: 'website',
      taskUrl: 'https://example.com/partner',
      proofInstructions: 'Screenshot of the second page.',
    });

    const userPage = await phone();
    await signIn(userPage, user);
    await userPage.goto('/tasks/website');
    await userPage.getByRole('heading', { name: 'Website Visit Tasks' }).waitFor();
    await card(userPage, title).getByRole('link', { name: 'Visit Website' }).waitFor();
    await submitProof(userPage, title, 'Visited the partner site.');
    await expectBadge(card(userPage, title), 'Under Review');

    // The reviewer rejects it, and must give a reason.
    const reviewerPage = await phone();
    await signIn(reviewerPage, reviewer);
    await reviewerPage.goto('/admin/review');
    const submission = reviewerPage.getByRole('article', { name: title });
    await submission.getByRole('button', { name: 'Reject' }).click();
    const rejectDialog = reviewerPage.getByRole('dialog', { name: 'Reject proof' });
    await rejectDialog.getByRole('button', { name: 'Reject' }).click();
    await rejectDialog.getByText('Please give a reason for the rejection').waitFor();
    await rejectDialog.getByLabel('Reason', { exact: true }).fill('The screenshot does not show the second page.');
    await rejectDialog.getByRole('button', { name: 'Reject' }).click();
    await expectToast(reviewerPage, 'Proof Rejected');
    await submission.waitFor({ state: 'detached' });

    // The user sees the reason and submits again.
    await userPage.reload();
    const taskCard = card(userPage, title);
    await expectBadge(taskCard, 'Rejected');
    await taskCard.getByTestId('rejection-reason').filter({ hasText: 'The screenshot does not show the second page.' }).waitFor();
    await taskCard.getByRole('button', { name: 'Submit Proof' }).click();
    const dialog = userPage.getByRole('dialog', { name: `Submit Proof - ${title}` });
    await dialog.getByTestId('dialog-rejection-reason').filter({ hasText: 'The screenshot does not show the second page.' }).waitFor();
    await dialog.getByText('Visited the partner site.').waitFor();
    await userPage.screenshot({ path: '/tmp/kamai-rejected-dialog.png' });
    await dialog.getByRole('button', { name: 'Close' }).click();
    await submitProof(userPage, title, 'Visited the partner site and opened the second page.');
    await expectBadge(taskCard, 'Under Review');
    await expect(taskCard.getByTestId('rejection-reason').count()).resolves.toBe(0);
  });
});

describe('choosing the image', () => {
  it('refuses a file over 5MB without uploading, names a file that is not an image, and says so when an upload fails', async () => {
    const user = newAccount('Geeta');
    await registerAccount(suite.server.baseUrl, user);
    const title = `Play Ludo to level 3 ${user.mobile}`;
    await addTaskByApi({ title, description: 'Reach level 3 in Ludo.', rupeeReward: '30', taskType: 'game', taskUrl: 'https://example.com/ludo' });

    const page = await phone();
    const uploads: string[] = [];
    page.on('request', (request) => {
      if (request.url().includes('/api/objects/')) uploads.push(`${request.method()} ${new URL(request.url()).pathname}`);
    });
    await signIn(page, user);
    await page.goto('/tasks/games');
    await page.getByText('Download and play games to earn rewards').waitFor();
    const taskCard = card(page, title);
    await taskCard.getByRole('link', { name: 'Start Now' }).waitFor();
    await taskCard.getByRole('button', { name: 'Submit Proof' }).click();
    const dialog = page.getByRole('dialog', { name: `Submit Proof - ${title}` });

    const oversized = Buffer.alloc(5_242_881);
    PNG_FILE.buffer.copy(oversized);
    await dialog.getByLabel('Proof image').setInputFiles({ name: 'huge.png', mimeType: 'image/png', buffer: oversized });
    await dialog.getByRole('alert').filter({ hasText: 'File size must be less than 5MB' }).waitFor();
    expect(uploads).toEqual([]);
    await page.screenshot({ path: '/tmp/kamai-too-large.png' });

    // A file that calls itself a PNG but is not an image: the storage says so, and so does the dialog.
    await dialog.getByLabel('Proof image').setInputFiles({ name: 'notes.png', mimeType: 'image/png', buffer: Buffer.from('just some notes, not a picture') });
    await dialog.getByRole('alert').filter({ hasText: 'Only PNG, JPEG, WebP or GIF images are allowed' }).waitFor();

    // The storage refuses the PUT: the user is told to try again, and Submit stays disabled.
    await page.route('**/api/objects/put/**', (route) => route.fulfill({ status: 500, body: 'disk full' }));
    await dialog.getByLabel('Description').fill('Reached level 3.');
    await dialog.getByLabel('Proof image').setInputFiles(PNG_FILE);
    await dialog.getByRole('alert').filter({ hasText: 'Upload failed. Please try again.' }).waitFor();
    await expect(dialog.getByRole('button', { name: 'Submit Proof' }).isDisabled()).resolves.toBe(true);

    // A second try goes through.
    await page.unroute('**/api/objects/put/**');
    await dialog.getByLabel('Proof image').setInputFiles(PNG_FILE);
    await expectToast(page, 'Image Uploaded');
    await expect(dialog.getByRole('button', { name: 'Submit Proof' }).isEnabled()).resolves.toBe(true);
    expect(uploads.filter((call) => call === 'POST /api/objects/upload')).toHaveLength(3);
  });
});

describe('task screens and staff guards', () => {
  it('sends /tasks to the categories, counting the tasks as Home and the lists do, with quick tips', async () => {
    const user = newAccount('Nisha');
    await registerAccount(suite.server.baseUrl, user);
    const page = await phone();
    await signIn(page, user);
    const counts = page.getByTestId('category-count');
    await counts.nth(2).waitFor();
    const atHome = await counts.allTextContents();
    await page.goto('/tasks');
    await page.waitForURL((url) => url.pathname === '/tasks/categories');
    await page.getByRole('heading', { name: 'Task Categories' }).waitFor();
    await counts.nth(2).waitFor();
    await expect(counts.allTextContents()).resolves.toEqual(atHome);
    await page.getByText('Complete tasks honestly to avoid rejection').waitFor();
    await page.getByText('Upload clear proof screenshots').waitFor();
    await page.getByText('Check back regularly for new tasks').waitFor();
    await page.screenshot({ path: '/tmp/kamai-categories.png' });
    await page.getByTestId('category-game').click();
    await page.waitForURL((url) => url.pathname === '/tasks/games');
    await page.getByRole('heading', { name: 'Gaming Tasks' }).waitFor();
    // The list holds as many tasks as its card said.
    await page.getByTestId('task-card').first().waitFor();
    await expect(page.getByTestId('task-card').count()).resolves.toBe(Number.parseInt(atHome[2] ?? '', 10));
  });

  it('shows skeletons while a list loads, and the empty state of an empty list', async () => {
    const user = newAccount('Omkar');
    await registerAccount(suite.server.baseUrl, user);
    const page = await phone();
    await signIn(page, user);
    let release: () => void = () => {};
    const held = new Promise<void>((resolve) => (release = resolve));
    await page.route('**/api/tasks', async (route) => {
      await held;
      await route.fulfill({ status: 200, contentType: 'application/json', body: '[]' });
    });
    await page.goto('/tasks/rating');
    await page.getByRole('status', { name: 'Loading tasks' }).waitFor();
    await page.screenshot({ path: '/tmp/kamai-skeletons.png' });
    release();
    await page.getByText('No Rating Tasks Available').waitFor();
    await page.getByText('Check back later for new rating tasks!').waitFor();

    // Home with no tasks at all.
    await page.goto('/');
    await page.getByText('No tasks available right now').waitFor();
    await expect(page.getByTestId('category-count').allTextContents()).resolves.toEqual(['0 tasks', '0 tasks', '0 tasks']);
  });

  it('shows the not-allowed screen to a user without the role, and each staff screen to its role', async () => {
    const user = newAccount('Prakash');
    await registerAccount(suite.server.baseUrl, user);
    const page = await phone();
    const forbidden: string[] = [];
    page.on('response', (response) => {
      if (response.status() === 403) forbidden.push(new URL(response.url()).pathname);
    });
    await signIn(page, user);
    for (const target of ['/admin', '/admin/review']) {
      await page.goto(target);
      await page.getByRole('heading', { name: 'Not allowed' }).waitFor();
      expect(path(page)).toBe(target);
    }
    await page.screenshot({ path: '/tmp/kamai-not-allowed.png' });
    await page.getByRole('link', { name: 'Go to home' }).click();
    await page.getByRole('heading', { name: 'Hello, Prakash' }).waitFor();
    // The screens did not even ask for what the server would refuse.
    expect(forbidden).toEqual([]);

    // A reviewer may review but not manage the catalogue.
    const reviewerPage = await phone();
    await signIn(reviewerPage, reviewer);
    await reviewerPage.goto('/admin');
    await reviewerPage.getByRole('heading', { name: 'Not allowed' }).waitFor();
    await reviewerPage.goto('/admin/review');
    await reviewerPage.getByRole('heading', { name: 'Proof Review' }).waitFor();
  });

  it('edits a task, flags an inactive one, and deletes one on /admin', async () => {
    const title = `Browse the offers page ${uniqueMobile()}`;
    await addTaskByApi({ title, description: 'Browse the offers.', rupeeReward: '6', taskType: 'website' });
    const page = await phone();
    await signIn(page, admin);
    await page.goto('/admin');
    const row = page.getByRole('article', { name: title });
    await row.getByRole('button', { name: `Edit ${title}` }).click();
    const editDialog = page.getByRole('dialog', { name: 'Edit Task' });
    await expect(editDialog.getByLabel('Rupee reward').inputValue()).resolves.toBe('6.00');
    await editDialog.getByLabel('Rupee reward').fill('7.50');
    await editDialog.getByRole('button', { name: 'Save Changes' }).click();
    await expectToast(page, 'Task updated successfully');
    await editDialog.waitFor({ state: 'detached' });
    await row.getByText('₹7.50').waitFor();

    // A task made inactive elsewhere (the API) is flagged, and counted apart.
    const inactiveTitle = `Old survey ${uniqueMobile()}`;
    await addTaskByApi({ title: inactiveTitle, description: 'No longer running.', rupeeReward: '5', taskType: 'rating' });
    const cookie = await apiSession(admin);
    const catalogue = (await (await fetch(`${suite.server.baseUrl}/api/admin/tasks`, { headers: { cookie } })).json()) as Array<Record<string, unknown>>;
    const old = catalogue.find((task) => task.title === inactiveTitle);
    if (!old) throw new Error('the inactive task is missing');
    const { id, createdAt: _createdAt, updatedAt: _updatedAt, ...fields } = old;
    const put = await fetch(`${suite.server.baseUrl}/api/admin/tasks/${String(id)}`, {
      method: 'PUT',
      // A task just added is at revision 0: its ETag is "0".
      headers: { 'Content-Type': 'application/json', cookie, 'If-Match': '"0"', Origin: suite.server.baseUrl },
      body: JSON.stringify({ ...fields, isActive: false }),
    });
    expect(put.status).toBe(200);
    await page.reload();
    await page.getByRole('article', { name: inactiveTitle }).getByText('Inactive', { exact: true }).waitFor();
    const total = Number(await page.getByTestId('total-tasks').textContent());
    const active = Number(await page.getByTestId('active-tasks').textContent());
    expect(total - active).toBeGreaterThanOrEqual(1);
    await page.screenshot({ path: '/tmp/kamai-admin.png', fullPage: true });

    await page.getByRole('article', { name: title }).getByRole('button', { name: `Delete ${title}` }).click();
    const confirm = page.getByRole('dialog', { name: 'Delete task?' });
    await confirm.getByRole('button', { name: 'Delete' }).click();
    await expectToast(page, 'Task deleted successfully');
    await page.getByRole('article', { name: title }).waitFor({ state: 'detached' });
    await expect(page.getByTestId('total-tasks').textContent()).resolves.toBe(String(total - 1));
  });

  it('an edit on a task another admin changed meanwhile is refused, said so, and the task reloaded', async () => {
    const title = `Play the quiz ${uniqueMobile()}`;
    await addTaskByApi({ title, description: 'Play one round.', rupeeReward: '8', taskType: 'game' });
    const page = await phone();
    await signIn(page, admin);
    await page.goto('/admin');
    await page.getByRole('article', { name: title }).getByRole('button', { name: `Edit ${title}` }).click();
    const editDialog = page.getByRole('dialog', { name: 'Edit Task' });
    await expect(editDialog.getByLabel('Rupee reward').inputValue()).resolves.toBe('8.00');

    // Meanwhile another admin (here: the API, with the task's ETag) changes the reward.
    const cookie = await apiSession(admin);
    const catalogue = (await (await fetch(`${suite.server.baseUrl}/api/admin/tasks`, { headers: { cookie } })).json()) as Array<Record<string, unknown>>;
    const listed = catalogue.find((task) => task.title === title);
    if (!listed) throw new Error('the task is missing');
    const { id, createdAt: _createdAt, updatedAt: _updatedAt, ...fields } = listed;
    const one = await fetch(`${suite.server.baseUrl}/api/admin/tasks/${String(id)}`, { headers: { cookie } });
    const put = await fetch(`${suite.server.baseUrl}/api/admin/tasks/${String(id)}`, {
      method: 'PUT',
      headers: { 'Content-Type': 'application/json', cookie, 'If-Match': one.headers.get('etag') ?? '', Origin: suite.server.baseUrl },
      body: JSON.stringify({ ...fields, rupeeReward: '12' }),
    });
    expect(put.status).toBe(200);

    await editDialog.getByLabel('Rupee reward').fill('9.00');
    await editDialog.getByRole('button', { name: 'Save Changes' }).click();
    await editDialog.getByRole('alert').getByText('This task was changed by someone else').waitFor();
    // Reloaded: the other admin's reward, not the overwritten one.
    await expect.poll(() => editDialog.getByLabel('Rupee reward').inputValue()).toBe('12.00');
    const after = (await (await fetch(`${suite.server.baseUrl}/api/admin/tasks/${String(id)}`, { headers: { cookie } })).json()) as { rupeeReward: string };
    expect(after.rupeeReward).toBe('12.00');

    // Saving again, on the reloaded revision, goes through.
    await editDialog.getByLabel('Rupee reward').fill('10.00');
    await editDialog.getByRole('button', { name: 'Save Changes' }).click();
    await expectToast(page, 'Task updated successfully');
    await page.getByRole('article', { name: title }).getByText('₹10.00').waitFor();
  });
});
