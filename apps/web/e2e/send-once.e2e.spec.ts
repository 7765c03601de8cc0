import { beforeAll, describe, expect, it } from 'vitest';
import type { Page } from 'playwright-core';
import type { TestAccount } from './harness.ts';
import {
  balanceOf,
  doubleClickWhileSlow,
  openAdjustmentConfirmation,
  openFinanceScreen,
  path,
  proofByApi,
  registeredAccount,
  setUpBrowserSuite,
  slowNetwork,
  staffAccount,
  submitLogin,
  taskByApi,
  toasts,
  openSignIn,
} from './helpers.ts';
import { drawPng } from './png.ts';

/**
 * Every button that sends, sends once: double-clicked (or double-tapped) while the network is slow
 * (the request held until the presses are done), it makes one request, with one Idempotency-Key
 * where the action has one, and one effect, and the dialog stays open, busy, until the answer.
 * Dialogs ask before a backdrop tap loses typed input, and Back closes them without leaving the page.
 * A deep link opened signed out returns to its page after sign-in.
 */

const suite = setUpBrowserSuite();
const { signedIn, api } = suite;

let staff: TestAccount;
let colleague: TestAccount;
let admin: TestAccount;
let reviewer: TestAccount;

beforeAll(async () => {
  staff = await staffAccount(suite.server, 'Farah', 'Khan', 'finance');
  colleague = await staffAccount(suite.server, 'Dev', 'Malik', 'finance');
  admin = await staffAccount(suite.server, 'Anil', 'Mehta', 'admin');
  reviewer = await staffAccount(suite.server, 'Rekha', 'Verma', 'reviewer');
  // Four roles through the CLI: each run takes seconds on a busy machine.
}, 300_000);

const KEY = /^[0-9a-f-]{36}$/;

async function pendingWithdrawal(user: TestAccount, amount: string, upiId: string): Promise<string> {
  const answer = await api(user, 'POST', '/api/withdrawals', { amount, upiId });
  expect(answer.status).toBe(201);
  return ((await answer.json()) as { id: string }).id;
}

async function withdrawals(user: TestAccount): Promise<{ id: string; status: string }[]> {
  return (await (await api(user, 'GET', '/api/withdrawals')).json()) as { id: string; status: string }[];
}

/** Funded by the colleague: whoever adjusted a wallet does not settle its withdrawals. */
async function credit(user: TestAccount, amount: string): Promise<void> {
  expect((await api(colleague, 'POST', '/api/admin/adjustments', { mobile: user.mobile, amount, direction: 'credit', reason: 'Test funding' })).status).toBe(201);
}

describe('a double click on a money action', () => {
  for (const how of ['click', 'tap'] as const) {
    it(`the user's withdrawal (double ${how}): one request, one withdrawal`, async () => {
      const user = await registeredAccount(suite.server, 'Asha', 'Rao');
      await credit(user, '300');
      const page = await signedIn(user);
      await page.goto('/wallet');
      await page.getByRole('button', { name: 'Withdraw Money' }).click();
      const dialog = page.getByRole('dialog', { name: /^Withdraw to (Bank|UPI)$/ });
      await dialog.getByRole('radio', { name: 'UPI ID' }).check();
      await dialog.getByLabel('Amount (₹)').fill('150');
      await dialog.getByRole('textbox', { name: 'UPI ID' }).fill('asha.rao@okaxis');
      await dialog.getByRole('button', { name: 'Submit Request' }).click();
      const keys = await doubleClickWhileSlow(page, dialog, dialog.getByRole('button', { name: 'Confirm and send' }), /^\/api\/withdrawals$/, { how });
      await toasts(page).getByText('Withdrawal Requested', { exact: true }).waitFor();
      await dialog.waitFor({ state: 'detached' });
      expect(keys).toHaveLength(1);
      expect(keys[0]).toMatch(KEY);
      await expect(withdrawals(user)).resolves.toHaveLength(1);
      expect(await balanceOf(suite.server, user)).toBe('150.00');
    });
  }

  it("finance's adjustment: one request, one credit", async () => {
    const user = await registeredAccount(suite.server, 'Ravi', 'Verma');
    const finance = await openFinanceScreen(await signedIn(staff));
    const dialog = await openAdjustmentConfirmation(finance, { mobile: user.mobile, amount: '40', reason: 'Welcome bonus' });
    await doubleClickWhileSlow(finance, dialog, dialog.getByRole('button', { name: 'Credit ₹40.00' }), /^\/api\/admin\/adjustments$/);
    await toasts(finance).getByText('Adjustment Applied', { exact: true }).waitFor();
    await dialog.waitFor({ state: 'detached' });
    expect(await balanceOf(suite.server, user)).toBe('40.00');
  });

  it("a colleague's approval of an adjustment above the limit: one request, one credit", async () => {
    const user = await registeredAccount(suite.server, 'Meera', 'Das');
    expect((await api(staff, 'POST', '/api/admin/adjustments', { mobile: user.mobile, amount: '1500', direction: 'credit', reason: 'Refund' })).status).toBe(202);
    const finance = await openFinanceScreen(await signedIn(colleague));
    const waiting = finance.getByRole('region', { name: 'Adjustments awaiting approval' });
    await waiting.getByText(`Credit ₹1,500.00 to +91 ${user.mobile}`).waitFor();
    await waiting.getByRole('button', { name: 'Approve' }).click();
    const dialog = finance.getByRole('dialog', { name: 'Approve this adjustment?' });
    await doubleClickWhileSlow(finance, dialog, dialog.getByRole('button', { name: 'Approve ₹1,500.00' }), /^\/api\/admin\/adjustments\/[^/]+\/approve$/);
    await finance.getByText('Adjustment approved', { exact: true }).waitFor();
    await expect.poll(() => balanceOf(suite.server, user)).toBe('1500.00');
  });

  it('marking a withdrawal paid, rejecting one, and returning the paid one: one request each', async () => {
    const user = await registeredAccount(suite.server, 'Kiran', 'Joshi');
    await credit(user, '500');
    const paid = await pendingWithdrawal(user, '150.00', 'kiran.joshi@okaxis');
    const rejected = await pendingWithdrawal(user, '200.00', 'kiran.joshi@okaxis');
    const finance = await openFinanceScreen(await signedIn(staff));
    const card = (amount: string) => finance.getByTestId('pending-withdrawal').filter({ hasText: user.mobile }).filter({ hasText: amount });

    await card('₹150.00').getByRole('button', { name: 'Mark Paid' }).click();
    const pay = finance.getByRole('dialog', { name: 'Mark as Paid' });
    await pay.getByLabel('Transfer reference').fill('UTR2026112500001');
    await doubleClickWhileSlow(finance, pay, pay.getByRole('button', { name: 'Confirm Paid' }), /\/paid$/);
    await toasts(finance).getByText('Withdrawal Paid', { exact: true }).waitFor();
    await pay.waitFor({ state: 'detached' });

    await card('₹200.00').getByRole('button', { name: 'Reject' }).click();
    const reject = finance.getByRole('dialog', { name: 'Reject Withdrawal' });
    await reject.getByLabel('Reason').fill('The UPI ID does not match the name');
    await finance.unrouteAll();
    await doubleClickWhileSlow(finance, reject, reject.getByRole('button', { name: 'Reject Request' }), /\/reject$/);
    await reject.waitFor({ state: 'detached' });

    let statuses = Object.fromEntries((await withdrawals(user)).map((w) => [w.id, w.status]));
    expect(statuses).toEqual({ [paid]: 'paid', [rejected]: 'rejected' });
    // 500 − 150 paid; the rejected 200 came back once.
    expect(await balanceOf(suite.server, user)).toBe('350.00');

    // The bank sends the paid one back: marked returned from History, once.
    await finance.unrouteAll();
    await finance.getByRole('tab', { name: 'History' }).click();
    await finance.getByLabel('Status').selectOption({ label: 'Paid' });
    const row = finance.getByRole('row').filter({ hasText: 'UTR2026112500001' });
    await row.getByRole('button', { name: 'Mark returned' }).click();
    const returned = finance.getByRole('dialog', { name: 'Payout Returned by the Bank' });
    await returned.getByText('Transfer reference: UTR2026112500001').waitFor();
    await returned.getByLabel('Reason').fill('Beneficiary account closed');
    await doubleClickWhileSlow(finance, returned, returned.getByRole('button', { name: 'Return to Wallet' }), /\/reverse$/);
    await toasts(finance).getByText('Payout Returned', { exact: true }).waitFor();
    await returned.waitFor({ state: 'detached' });
    // The row leaves the paid list; under all settled it reads as returned, with the bank's reason.
    await row.waitFor({ state: 'detached' });
    await finance.getByLabel('Status').selectOption({ label: 'All settled' });
    const settled = finance.getByRole('row').filter({ hasText: 'UTR2026112500001' });
    await settled.getByRole('cell', { name: 'Returned by the bank' }).waitFor();
    await settled.getByRole('cell', { name: 'Beneficiary account closed' }).waitFor();

    statuses = Object.fromEntries((await withdrawals(user)).map((w) => [w.id, w.status]));
    expect(statuses).toEqual({ [paid]: 'reversed', [rejected]: 'rejected' });
    // The returned 150 came back once.
    expect(await balanceOf(suite.server, user)).toBe('500.00');
  });
});

/** The proofs under review for a task, as the reviewers' queue has them. */
async function proofsOf(taskId: string): Promise<{ id: string; taskId: string }[]> {
  const queue = (await (await api(reviewer, 'GET', '/api/admin/submissions')).json()) as { id: string; taskId: string }[];
  return queue.filter((submission) => submission.taskId === taskId);
}

const PROOF_FILE = { name: 'proof.png', mimeType: 'image/png', buffer: drawPng(120, 80, (x, y) => [20, (x * 2) % 256, (y * 3) % 256]) };

describe('a double press on the other buttons that send', () => {
  for (const how of ['click', 'tap'] as const) {
    it(`the user's proof (double ${how}): one request, one proof under review`, async () => {
      const title = `Rate the Kamai app, ${how} ${Date.now()}`;
      const taskId = await taskByApi(suite, admin, { title, rupeeReward: '12' });
      const user = await registeredAccount(suite.server, 'Usha', 'Verma');
      const page = await signedIn(user);
      await page.goto('/tasks/rating');
      await page.getByRole('article', { name: title }).getByRole('button', { name: 'Submit Proof' }).click();
      const dialog = page.getByRole('dialog', { name: `Submit Proof - ${title}` });
      await dialog.getByLabel('Proof image').setInputFiles(PROOF_FILE);
      await dialog.getByRole('img', { name: 'Chosen proof' }).waitFor();
      await dialog.getByLabel('Your review (the words you wrote)').fill('Easy to use; the app froze once.');
      const submit = dialog.getByRole('button', { name: 'Submit Proof' });
      await expect.poll(() => submit.isEnabled()).toBe(true);
      const keys = await doubleClickWhileSlow(page, dialog, submit, /\/submit-proof$/, { how });
      await toasts(page).getByText('Proof Submitted!', { exact: true }).waitFor();
      await dialog.waitFor({ state: 'detached' });
      expect(keys).toHaveLength(1);
      expect(keys[0]).toMatch(KEY);
      await expect(proofsOf(taskId)).resolves.toHaveLength(1);
    });
  }

  it("the reviewer's approve and reject of one proof: one request each, one credit", async () => {
    const title = `Rate the Kamai blog ${Date.now()}`;
    const taskId = await taskByApi(suite, admin, { title, rupeeReward: '12.50' });
    const [approved, rejected] = [await registeredAccount(suite.server, 'Bina', 'Das'), await registeredAccount(suite.server, 'Chetan', 'Das')];
    await proofByApi(suite, approved, taskId);
    await proofByApi(suite, rejected, taskId);
    const page = await signedIn(reviewer);
    await page.goto('/admin/review');
    const cardOf = (name: string) => page.getByTestId('submission').filter({ hasText: title }).filter({ hasText: name });

    await cardOf('Bina').getByRole('button', { name: 'Approve', exact: true }).click();
    const approve = page.getByRole('dialog', { name: 'Approve this proof?' });
    const approveKeys = await doubleClickWhileSlow(page, approve, approve.getByRole('button', { name: 'Approve ₹12.50' }), /\/approve$/);
    await approve.waitFor({ state: 'detached' });
    expect(approveKeys).toHaveLength(1);
    expect(approveKeys[0]).toMatch(KEY);
    await expect.poll(() => balanceOf(suite.server, approved)).toBe('12.50');

    await cardOf('Chetan').getByRole('button', { name: 'Reject', exact: true }).click();
    const reject = page.getByRole('dialog', { name: 'Reject proof' });
    await reject.getByRole('textbox', { name: 'Reason' }).fill('The screenshot does not show the review');
    await page.unrouteAll({ behavior: 'wait' });
    const rejectKeys = await doubleClickWhileSlow(page, reject, reject.getByRole('button', { name: 'Reject', exact: true }), /\/reject$/);
    await reject.waitFor({ state: 'detached' });
    expect(rejectKeys).toHaveLength(1);
    await expect.poll(() => proofsOf(taskId)).toEqual([]);
    expect(await balanceOf(suite.server, approved)).toBe('12.50');
    expect(await balanceOf(suite.server, rejected)).toBe('0.00');
  });

  it("the reviewer's bulk approve and bulk reject: one request each", async () => {
    const title = `Visit the Kamai offers ${Date.now()}`;
    const taskId = await taskByApi(suite, admin, { title, rupeeReward: '5' });
    const workers = [await registeredAccount(suite.server, 'Deepa', 'Nair'), await registeredAccount(suite.server, 'Esha', 'Nair'), await registeredAccount(suite.server, 'Faiz', 'Nair')];
    for (const worker of workers) await proofByApi(suite, worker, taskId);
    const page = await signedIn(reviewer);
    await page.goto('/admin/review');
    const cardOf = (name: string) => page.getByTestId('submission').filter({ hasText: title }).filter({ hasText: name });
    await cardOf('Faiz').waitFor();
    // Others' proofs may wait in the queue too: select these two by their own boxes.
    for (const name of ['Deepa', 'Esha']) await cardOf(name).getByRole('checkbox').check();
    await page.getByRole('button', { name: 'Approve selected' }).click();
    const approve = page.getByRole('dialog', { name: 'Approve 2 proofs?' });
    const approveKeys = await doubleClickWhileSlow(page, approve, approve.getByRole('button', { name: 'Approve 2 (₹10.00)' }), /^\/api\/admin\/submissions\/bulk$/);
    await approve.waitFor({ state: 'detached' });
    expect(approveKeys).toHaveLength(1);
    expect(approveKeys[0]).toMatch(KEY);
    await expect.poll(() => proofsOf(taskId).then((left) => left.length)).toBe(1);
    expect([await balanceOf(suite.server, workers[0]!), await balanceOf(suite.server, workers[1]!)]).toEqual(['5.00', '5.00']);

    await page.unrouteAll({ behavior: 'wait' });
    await cardOf('Faiz').getByRole('checkbox').check();
    await page.getByRole('button', { name: 'Reject selected' }).click();
    const reject = page.getByRole('dialog', { name: 'Reject 1 proof?' });
    await reject.getByRole('button', { name: 'The screenshot is blurry or cut off' }).click();
    const rejectKeys = await doubleClickWhileSlow(page, reject, reject.getByRole('button', { name: 'Reject 1' }), /^\/api\/admin\/submissions\/bulk$/);
    await reject.waitFor({ state: 'detached' });
    expect(rejectKeys).toHaveLength(1);
    await expect.poll(() => proofsOf(taskId)).toEqual([]);
    expect(await balanceOf(suite.server, workers[2]!)).toBe('0.00');
  });

  it("the admin's Add Task and Edit Task: one request each, one task", async () => {
    const title = `Play the Kamai quiz ${Date.now()}`;
    const page = await signedIn(admin);
    await page.goto('/admin');
    await page.getByRole('heading', { name: 'Admin Panel' }).waitFor();
    const form = page.getByRole('region', { name: 'Add Task' });
    await form.getByLabel('Title', { exact: true }).fill(title);
    await form.getByLabel('Description', { exact: true }).fill('Answer five questions about saving money.');
    await form.getByLabel('Task URL').fill('https://kamai.in/quiz');
    const addKeys = await doubleClickWhileSlow(page, form, form.getByRole('button', { name: 'Add Task' }), /^\/api\/admin\/tasks$/, { backdrop: false });
    await toasts(page).getByText('Task created successfully', { exact: true }).waitFor();
    expect(addKeys).toHaveLength(1);
    const named = async () => ((await (await api(admin, 'GET', '/api/admin/tasks')).json()) as { title: string; rupeeReward: string }[]).filter((task) => task.title === title);
    await expect(named()).resolves.toHaveLength(1);

    await page.unrouteAll({ behavior: 'wait' });
    await page.getByRole('article', { name: title }).getByRole('button', { name: `Edit ${title}` }).click();
    const edit = page.getByRole('dialog', { name: 'Edit Task' });
    await edit.getByLabel('Rupee reward').fill('7.50');
    const editKeys = await doubleClickWhileSlow(page, edit, edit.getByRole('button', { name: 'Save Changes' }), /^\/api\/admin\/tasks\/[^/]+$/);
    await toasts(page).getByText('Task updated successfully', { exact: true }).waitFor();
    await edit.waitFor({ state: 'detached' });
    expect(editKeys).toHaveLength(1);
    await expect(named()).resolves.toEqual([expect.objectContaining({ rupeeReward: '7.50' })]);
  });

  it("the user's KYC document: sent once when both sides are in, a double press meanwhile sends nothing more", async () => {
    const user = await registeredAccount(suite.server, 'Gita', 'Iyer');
    const page = await signedIn(user);
    await page.goto('/kyc');
    const card = page.getByRole('article', { name: 'Voter ID' });
    const network = await slowNetwork(page, /^\/api\/kyc\/documents$/);
    const image = (tint: number) => ({ name: 'side.png', mimeType: 'image/png', buffer: drawPng(171, 108, (x, y) => [(tint * 53 + x) % 256, (tint * 97 + y) % 256, 200]) });
    await card.getByLabel('Voter ID Front image').setInputFiles(image(1));
    await toasts(page).getByText('Image Uploaded', { exact: true }).first().waitFor();
    await card.getByLabel('Voter ID Back image').setInputFiles(image(2));
    await expect.poll(() => network.keys.length).toBe(1);
    // The button is busy while the document is on its way: pressing it twice sends nothing more.
    const submit = card.getByRole('button', { name: 'Submitting...' });
    await submit.dblclick({ force: true });
    const [x, y] = await submit.boundingBox().then((box) => [box!.x + box!.width / 2, box!.y + box!.height / 2] as const);
    await page.touchscreen.tap(x, y);
    network.release();
    await toasts(page).getByText('Document Uploaded', { exact: true }).waitFor();
    await card.getByTestId('kyc-status').filter({ hasText: 'Pending review' }).waitFor();
    expect(network.keys).toHaveLength(1);
    const documents = (await (await api(user, 'GET', '/api/kyc/documents')).json()) as unknown[];
    expect(documents).toHaveLength(1);
  });

  it("the user's deletion request, and the admin's erasure: one request each", async () => {
    expect((await api(admin, 'PUT', '/api/admin/settings', { deletionCoolingOffHours: 0 })).status).toBe(200);
    const user = await registeredAccount(suite.server, 'Zenobia', 'Quill');
    const userId = ((await (await api(user, 'GET', '/api/auth/user')).json()) as { id: string }).id;
    const mine = await signedIn(user);
    await mine.goto('/delete-account');
    await mine.getByLabel('Your password').fill(user.password);
    const panel = mine.getByRole('region', { name: 'Request deletion here' });
    const askKeys = await doubleClickWhileSlow(mine, panel, mine.getByRole('button', { name: 'Request deletion', exact: true }), /^\/api\/profile\/deletion-request$/, { backdrop: false });
    await mine.getByTestId('deletion-pending').waitFor();
    expect(askKeys).toHaveLength(1);

    const desk = await signedIn(admin);
    await desk.goto('/admin/deletions');
    const card = desk.getByTestId('deletion-request').filter({ hasText: userId });
    await card.getByRole('button', { name: 'Erase account' }).click();
    const dialog = desk.getByRole('dialog', { name: 'Erase this account?' });
    const eraseKeys = await doubleClickWhileSlow(desk, dialog, dialog.getByRole('button', { name: 'Erase for good' }), /\/erase$/);
    await toasts(desk).getByText('Account Erased', { exact: true }).waitFor();
    await dialog.waitFor({ state: 'detached' });
    expect(eraseKeys).toHaveLength(1);
    expect(eraseKeys[0]).toMatch(KEY);
    await expect.poll(() => card.count()).toBe(0);
  });

  it("the admin's webhook registration and deletion: one request each, one endpoint", async () => {
    const desk = await signedIn(admin);
    await desk.goto('/admin/webhooks');
    await desk.getByRole('button', { name: 'Register an endpoint' }).click();
    const register = desk.getByRole('dialog', { name: 'Register an endpoint' });
    await register.getByLabel('Endpoint URL').fill('https://ledger.example.invalid/once');
    const registerKeys = await doubleClickWhileSlow(desk, register, register.getByRole('button', { name: 'Register', exact: true }), /^\/api\/admin\/webhooks$/);
    expect(registerKeys).toHaveLength(1);
    await desk.getByTestId('webhook-secret').waitFor();
    const listed = async () => ((await (await api(admin, 'GET', '/api/admin/webhooks')).json()) as Array<{ url: string }>).filter((e) => e.url === 'https://ledger.example.invalid/once');
    expect(await listed()).toHaveLength(1);
    await desk.getByRole('dialog').getByRole('button', { name: 'Done' }).click();

    const card = desk.getByTestId('webhook-endpoint').filter({ hasText: 'https://ledger.example.invalid/once' });
    await card.getByRole('button', { name: 'Delete' }).click();
    const remove = desk.getByRole('dialog', { name: 'Delete this endpoint?' });
    const deleteKeys = await doubleClickWhileSlow(desk, remove, remove.getByRole('button', { name: 'Delete endpoint' }), /^\/api\/admin\/webhooks\/[^/]+$/);
    expect(deleteKeys).toHaveLength(1);
    await remove.waitFor({ state: 'detached' });
    expect(await listed()).toHaveLength(0);
  });
});

describe('dialogs on a phone', () => {
  it('asks before a backdrop tap or Back loses typed input, and Back closes the dialog, not the page', async () => {
    const user = await registeredAccount(suite.server, 'Sunil', 'Rao');
    await credit(user, '300');
    const page = await signedIn(user);
    await page.goto('/wallet');
    await page.getByRole('heading', { name: 'Wallet', exact: true }).waitFor();
    await page.getByRole('button', { name: 'Withdraw Money' }).click();
    const dialog = page.getByRole('dialog', { name: /^Withdraw to (Bank|UPI)$/ });
    await dialog.getByRole('radio', { name: 'UPI ID' }).check();
    await dialog.getByRole('textbox', { name: 'UPI ID' }).fill('sunil@okaxis');

    // The backdrop asks first; "no" keeps what was typed.
    const asked: string[] = [];
    page.once('dialog', (question) => {
      asked.push(question.message());
      void question.dismiss();
    });
    await page.mouse.click(4, page.viewportSize()!.height - 4);
    await expect.poll(() => asked).toEqual(['Close and lose what you typed?']);
    await expect(dialog.getByRole('textbox', { name: 'UPI ID' }).inputValue()).resolves.toBe('sunil@okaxis');

    // Back (Android's way to dismiss) asks the same question; "no" keeps the dialog and what was typed.
    page.once('dialog', (question) => {
      asked.push(question.message());
      void question.dismiss();
    });
    await page.evaluate(() => history.back());
    await expect.poll(() => asked).toEqual(['Close and lose what you typed?', 'Close and lose what you typed?']);
    await expect(dialog.getByRole('textbox', { name: 'UPI ID' }).inputValue()).resolves.toBe('sunil@okaxis');
    await expect(page.evaluate(() => (history.state as { dialog?: string } | null)?.dialog)).resolves.toEqual(expect.any(String));

    // "Yes": Back closes the dialog and stays on the wallet.
    page.once('dialog', (question) => void question.accept());
    await page.evaluate(() => history.back());
    await dialog.waitFor({ state: 'detached' });
    expect(new URL(page.url()).pathname).toBe('/wallet');
    await page.getByRole('heading', { name: 'Wallet', exact: true }).waitFor();

    // Closed by its button, the dialog takes its history entry with it: Back then leaves the wallet.
    await page.getByRole('button', { name: 'Withdraw Money' }).click();
    await dialog.waitFor();
    await dialog.getByRole('button', { name: 'Cancel' }).click();
    await dialog.waitFor({ state: 'detached' });
    await page.goBack();
    await expect.poll(() => new URL(page.url()).pathname).toBe('/');
  });
});

describe('a deep link opened signed out', () => {
  it('returns to its page after sign-in; a redirect off the app is dropped', async () => {
    const user = await registeredAccount(suite.server, 'Nisha', 'Patel');
    const page = await suite.phone();
    await page.goto('/tasks/rating');
    // Waits for the page's own conditions (the sign-in answer can take seconds on a busy machine).
    await page.waitForURL((url) => url.pathname === '/login');
    expect(new URL(page.url()).searchParams.get('redirect')).toBe('/tasks/rating');
    await submitLogin(page, user);
    await page.waitForURL((url) => url.pathname === '/tasks/rating');
    await page.getByRole('heading', { level: 1 }).waitFor();

    const other = await suite.phone();
    await openSignIn(other, '/login?redirect=%2F%2Fevil.example%2Fphish');
    await submitLogin(other, user);
    await other.getByRole('heading', { name: 'Hello, Nisha' }).waitFor();
    expect(new URL(other.url()).origin).toBe(suite.server.baseUrl);
    expect(path(other)).toBe('/');
  });
});
