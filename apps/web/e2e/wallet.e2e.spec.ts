import { describe, expect, it } from 'vitest';
import type { Page } from 'playwright-core';
import { grantRole } from './harness.ts';
import type { TestAccount } from './harness.ts';
import { applyAdjustment, openFinanceScreen, path, registeredAccount, setUpBrowserSuite, toasts } from './helpers.ts';

const suite = setUpBrowserSuite();
const { signedIn } = suite;
const newAccount = (firstName: string, lastName?: string) => registeredAccount(suite.server, firstName, lastName);

/** A finance staff member, granted the role the way an operator does. */
async function newFinanceStaff(): Promise<TestAccount> {
  const staff = await newAccount('Farah', 'Khan');
  grantRole(suite.server, staff.mobile, 'finance');
  return staff;
}


/** Credits a wallet through the finance screen's adjustment form. */
async function creditThroughFinance(finance: Page, mobile: string, amount: string, reason: string): Promise<void> {
  await applyAdjustment(finance, { mobile, amount, reason });
  await toasts(finance).getByText('Adjustment Applied', { exact: true }).waitFor();
  await toasts(finance).getByText(`+91 ${mobile}`, { exact: false }).waitFor();
}

/**
 * The Radix toast region. An open modal dialog hides the rest of the page from the accessibility
 * tree (Radix announces toasts through its own live region), so hidden elements are included.
 */
const withdrawDialog = (on: Page) => on.getByRole('dialog', { name: /^Withdraw to (Bank|UPI)$/ });

async function expectToast(on: Page, title: string, description: string): Promise<void> {
  await toasts(on).getByText(title, { exact: true }).waitFor();
  await toasts(on).getByText(description, { exact: true }).waitFor();
}

async function openWallet(page: Page): Promise<void> {
  await page.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: 'Wallet' }).click();
  await page.getByRole('heading', { name: 'Wallet', exact: true }).waitFor();
}

describe('the wallet, on a phone', () => {
  it('withdraws to a bank account by IFSC; finance pays it; the user sees the notification and the history', async () => {
    const user = await newAccount('Asha');
    const staff = await newFinanceStaff();

    // Finance gives the user ₹250 through the adjustment form.
    const finance = await openFinanceScreen(await signedIn(staff));
    // Credited by one member, paid or rejected by another: whoever credits a user sends none of their withdrawals.
    const creditor = await openFinanceScreen(await signedIn(await newFinanceStaff()));
    await creditThroughFinance(creditor, user.mobile, '250', 'Welcome bonus');

    const page = await signedIn(user);
    await openWallet(page);
    await expect(page.getByTestId('wallet-balance').textContent()).resolves.toBe('₹250.00');
    await page.getByText('Minimum: ₹100.00').waitFor();
    const activity = page.getByRole('list', { name: 'Recent activity' });
    const bonus = activity.getByRole('listitem').filter({ hasText: 'Adjustment: Welcome bonus' });
    await expect(bonus.getByText('Just now').isVisible()).resolves.toBe(true);
    await expect(bonus.getByTestId('amount').textContent()).resolves.toBe('+₹250.00');
    await page.screenshot({ path: '/tmp/wallet.png' });

    // The dialog: defaults, limits and the processing note.
    await page.getByRole('button', { name: 'Withdraw Money' }).click();
    const dialog = withdrawDialog(page);
    await dialog.waitFor();
    await dialog.getByText('Available balance: ₹250.00').waitFor();
    await dialog.getByText('Minimum: ₹100.00 · Maximum: ₹250.00').waitFor();
    await dialog.getByText('Withdrawal requests are processed within 24-48 hours.').waitFor();
    const amount = dialog.getByLabel('Amount (₹)');
    await expect(amount.inputValue()).resolves.toBe('100');
    await expect(amount.getAttribute('min')).resolves.toBe('100');
    await expect(amount.getAttribute('max')).resolves.toBe('250');

    // Below the minimum, and above the balance, are refused before anything is sent.
    await amount.fill('50');
    await dialog.getByRole('button', { name: 'Submit Request' }).click();
    await expectToast(page, 'Invalid Amount', 'Minimum withdrawal amount is ₹100');
    await amount.fill('300');
    await dialog.getByRole('button', { name: 'Submit Request' }).click();
    await expectToast(page, 'Insufficient Balance', "You don't have enough rupees for this withdrawal");

    // A bank account by IFSC: the fields are checked inline first.
    await amount.fill('150');
    await dialog.getByRole('radio', { name: 'Bank account' }).check();
    await dialog.getByLabel('Account number', { exact: true }).fill('12345');
    await dialog.getByLabel('IFSC code').fill('HDFC123');
    await dialog.getByRole('button', { name: 'Submit Request' }).click();
    await dialog.getByText('Account number must be 9 to 18 digits').waitFor();
    await dialog.getByText('Enter a valid IFSC code, e.g. HDFC0001234').waitFor();
    await dialog.getByText("Enter the account holder's name").waitFor();
    await page.screenshot({ path: '/tmp/withdraw-dialog-errors.png' });

    await dialog.getByLabel('Account number', { exact: true }).fill('123456789012');
    // The number typed a second time must match, and cannot be pasted.
    const again = dialog.getByLabel('Account number again');
    await again.fill('123456789013');
    await dialog.getByLabel('IFSC code').fill('hdfc1001234');
    await dialog.getByText('We could not find this IFSC code', { exact: false }).first().waitFor();
    await dialog.getByLabel('IFSC code').fill('hdfc0001234');
    await expect(dialog.getByLabel('IFSC code').inputValue()).resolves.toBe('HDFC0001234');
    // The bank is named offline from the IFSC, and the branch by the server's directory (the harness's fixture).
    await dialog.getByText('HDFC Bank, KANJURMARG, MUMBAI', { exact: true }).waitFor();
    await dialog.getByLabel('Account holder name').fill('Asha Sharma');
    await dialog.getByRole('button', { name: 'Submit Request' }).click();
    await dialog.getByText('The account numbers do not match').waitFor();
    await again.fill('');
    await again.focus();
    await page.evaluate(() => {
      const data = new DataTransfer();
      data.setData('text/plain', '123456789012');
      document.activeElement?.dispatchEvent(new ClipboardEvent('paste', { clipboardData: data, bubbles: true, cancelable: true }));
    });
    await expect(again.inputValue()).resolves.toBe('');
    await again.fill('123456789012');
    await dialog.getByRole('button', { name: 'Submit Request' }).click();
    // A last look before the money leaves: amount, bank, last four digits and holder.
    const confirmStep = dialog.getByTestId('withdraw-confirm');
    await expect(confirmStep.getByText('₹150.00', { exact: false }).first().textContent()).resolves.toContain('₹150.00');
    await confirmStep.getByText('HDFC Bank, KANJURMARG, MUMBAI ••••9012 (Asha Sharma)').waitFor();
    await page.screenshot({ path: '/tmp/withdraw-confirm.png' });
    await confirmStep.getByRole('button', { name: 'Confirm and send' }).click();
    await expectToast(page, 'Withdrawal Requested', 'Your withdrawal request has been submitted for review');
    await dialog.waitFor({ state: 'detached' });
    await page.getByTestId('wallet-balance').getByText('₹100.00').waitFor();
    const hold = activity.getByRole('listitem').filter({ has: page.getByTestId('amount').getByText('-₹150.00') });
    await hold.waitFor();
    // The wallet row carries the request's status.
    await hold.getByTestId('withdrawal-status').getByText('Pending', { exact: true }).waitFor();
    // Next time the saved account is offered, and its confirmation names the branch too.
    await page.getByRole('button', { name: 'Withdraw Money' }).click();
    await expect(dialog.getByRole('radio', { name: /Saved account/ }).isChecked()).resolves.toBe(true);
    await dialog.getByRole('button', { name: 'Submit Request' }).click();
    await confirmStep.getByText('HDFC Bank, KANJURMARG, MUMBAI · A/c XXXXXX9012 · HDFC0001234 (Asha Sharma)').waitFor();
    await confirmStep.getByRole('button', { name: 'Go back and edit' }).click();
    await dialog.getByRole('button', { name: 'Cancel' }).click();
    await dialog.waitFor({ state: 'detached' });

    // Finance sees it, with the full account to pay, and pays it.
    await finance.reload();
    const request = finance.getByTestId('pending-withdrawal').filter({ hasText: user.mobile });
    await request.getByText('Asha Sharma').first().waitFor();
    await request.getByText('₹150.00').waitFor();
    await request.getByText('123456789012').waitFor();
    await request.getByText('HDFC0001234').waitFor();
    await finance.screenshot({ path: '/tmp/finance.png' });
    await request.getByRole('button', { name: 'Mark Paid' }).click();
    const pay = finance.getByRole('dialog', { name: 'Mark as Paid' });
    await pay.getByLabel('Transfer reference').fill('UTR2026112100042');
    await finance.screenshot({ path: '/tmp/finance-pay.png' });
    await pay.getByRole('button', { name: 'Confirm Paid' }).click();
    await toasts(finance).getByText('Withdrawal Paid', { exact: true }).waitFor();
    await request.waitFor({ state: 'detached' });

    // The wallet row says Paid, with the transfer reference, and opens the request's details.
    await page.reload();
    await hold.getByTestId('withdrawal-status').getByText('Paid', { exact: true }).waitFor();
    await hold.getByText('UTR: UTR2026112100042').waitFor();
    // And when the bank sent it (India time).
    await hold.getByTestId('bank-sent-at').getByText(/^Sent by the bank: .+ IST$/).waitFor();
    await hold.getByRole('button').click();
    const sheet = page.getByRole('dialog', { name: 'Withdrawal details' });
    await sheet.getByText('A/c XXXXXX9012 · HDFC0001234').waitFor();
    await sheet.getByRole('button', { name: 'Close' }).click();
    await sheet.waitFor({ state: 'detached' });

    // The user is told, and the history shows it paid.
    await page.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: 'Profile' }).click();
    await page.reload();
    const notificationsRow = page.getByRole('button', { name: /^Notifications/ });
    await notificationsRow.click();
    const notifications = page.getByRole('dialog', { name: /Notifications/ });
    const paid = notifications.getByRole('listitem').filter({ hasText: 'Withdrawal Paid' });
    await paid.getByText('₹150.00 has been sent to A/c XXXXXX9012 · HDFC0001234. Transfer reference: UTR2026112100042.').waitFor();
    await expect(paid.getAttribute('data-type')).resolves.toBe('success');
    await expect(paid.getAttribute('data-read')).resolves.toBe('false');
    await page.screenshot({ path: '/tmp/notifications.png' });
    await notifications.getByRole('button', { name: 'Close' }).click();

    await page.getByRole('button', { name: 'Withdrawal History' }).click();
    const history = page.getByRole('dialog', { name: 'Withdrawal History' });
    const item = history.getByRole('listitem').first();
    await item.getByText('₹150.00').waitFor();
    await item.getByText('Paid', { exact: true }).waitFor();
    await item.getByText('A/c XXXXXX9012 · HDFC0001234').waitFor();
    await item.getByText('UTR2026112100042').waitFor();
    await page.screenshot({ path: '/tmp/withdrawal-history.png' });
  });

  it('offers the saved destination next time; a rejected request comes back to the wallet', async () => {
    const user = await newAccount('Ravi', 'Kumar');
    const staff = await newFinanceStaff();
    const finance = await openFinanceScreen(await signedIn(staff));
    // Credited by one member, paid or rejected by another: whoever credits a user sends none of their withdrawals.
    const creditor = await openFinanceScreen(await signedIn(await newFinanceStaff()));
    await creditThroughFinance(creditor, user.mobile, '300', 'Festival bonus');

    const page = await signedIn(user);
    await openWallet(page);
    await page.getByRole('button', { name: 'Withdraw Money' }).click();
    let dialog = withdrawDialog(page);
    // No saved destination yet: the bank form is offered.
    await expect(dialog.getByRole('radio', { name: 'Bank account' }).isChecked()).resolves.toBe(true);
    await dialog.getByRole('radio', { name: 'UPI ID' }).check();
    await dialog.getByLabel('Amount (₹)').fill('150');
    await dialog.getByRole('textbox', { name: 'UPI ID' }).fill('ravi.kumar@okhdfc');
    await dialog.getByRole('button', { name: 'Submit Request' }).click();
    await dialog.getByTestId('withdraw-confirm').getByText('UPI ravi.kumar@okhdfc').waitFor();
    await dialog.getByRole('button', { name: 'Confirm and send' }).click();
    await expectToast(page, 'Withdrawal Requested', 'Your withdrawal request has been submitted for review');
    await page.getByTestId('wallet-balance').getByText('₹150.00').waitFor();

    // Next time the saved UPI ID is offered first, and the request names no destination.
    await page.getByRole('button', { name: 'Withdraw Money' }).click();
    dialog = withdrawDialog(page);
    const savedChoice = dialog.getByRole('radio', { name: /Saved account/ });
    await savedChoice.waitFor();
    await expect(savedChoice.isChecked()).resolves.toBe(true);
    await dialog.getByText('UPI ra***@okhdfc').waitFor();
    await page.screenshot({ path: '/tmp/withdraw-saved.png' });
    const sent = page.waitForRequest((r) => r.url().endsWith('/api/withdrawals') && r.method() === 'POST');
    await dialog.getByRole('button', { name: 'Submit Request' }).click();
    await dialog.getByTestId('withdraw-confirm').getByText('UPI ra***@okhdfc').waitFor();
    await dialog.getByRole('button', { name: 'Confirm and send' }).click();
    expect((await sent).postDataJSON()).toEqual({ amount: '100.00' });
    await expectToast(page, 'Withdrawal Requested', 'Your withdrawal request has been submitted for review');
    await page.getByTestId('wallet-balance').getByText('₹50.00').waitFor();

    // Finance rejects the older one with a reason: its ₹150 returns.
    await finance.reload();
    const requests = finance.getByTestId('pending-withdrawal').filter({ hasText: user.mobile });
    // Oldest first: the ₹150 to the UPI ID, then the ₹100 to the saved destination.
    await requests.nth(1).getByText('₹100.00').waitFor();
    await expect(requests.count()).resolves.toBe(2);
    await requests.nth(0).getByText('₹150.00').waitFor();
    await requests.nth(0).getByText('ravi.kumar@okhdfc').waitFor();
    await requests.nth(0).getByRole('button', { name: 'Reject' }).click();
    const reject = finance.getByRole('dialog', { name: 'Reject Withdrawal' });
    await reject.getByRole('button', { name: 'Reject Request' }).click();
    await reject.getByText('Give a reason', { exact: false }).first().waitFor();
    await reject.getByLabel('Reason').fill('UPI ID could not be verified');
    await reject.getByRole('button', { name: 'Reject Request' }).click();
    await toasts(finance).getByText('Withdrawal Rejected', { exact: true }).waitFor();
    await expect(finance.getByTestId('pending-withdrawal').filter({ hasText: user.mobile }).count()).resolves.toBe(1);

    await page.reload();
    await page.getByTestId('wallet-balance').getByText('₹200.00').waitFor();
    await page
      .getByRole('list', { name: 'Recent activity' })
      .getByRole('listitem')
      .filter({ hasText: 'Refund of rejected withdrawal: UPI ID could not be verified' })
      .getByTestId('amount')
      .getByText('+₹150.00')
      .waitFor();
  });

  it('disables Withdraw Money under ₹100 and says when there is no activity', async () => {
    const user = await newAccount('Meena');
    const page = await signedIn(user);
    await openWallet(page);
    await expect(page.getByTestId('wallet-balance').textContent()).resolves.toBe('₹0.00');
    await expect(page.getByRole('button', { name: 'Withdraw Money' }).isDisabled()).resolves.toBe(true);
    await page.getByText('No transactions yet').waitFor();
    await page.screenshot({ path: '/tmp/wallet-empty.png' });
  });

  it('shows a skeleton while the activity loads', async () => {
    const user = await newAccount('Divya');
    const page = await signedIn(user);
    let release: () => void = () => {};
    const held = new Promise<void>((resolve) => (release = resolve));
    await page.route('**/api/transactions', async (route) => {
      await held;
      await route.continue();
    });
    await openWallet(page);
    await page.getByRole('status', { name: 'Loading activity' }).waitFor();
    release();
    await page.getByText('No transactions yet').waitFor();
  });

  it('tells a signed-out withdrawal it is logged out, and goes to /login after 500 ms', async () => {
    const user = await newAccount('Kiran');
    const staff = await newFinanceStaff();
    const finance = await openFinanceScreen(await signedIn(staff));
    await creditThroughFinance(finance, user.mobile, '120', 'Referral reward');

    const page = await signedIn(user);
    await openWallet(page);
    await page.getByRole('button', { name: 'Withdraw Money' }).click();
    const dialog = withdrawDialog(page);
    await dialog.getByLabel('Account number', { exact: true }).fill('987654321');
    await dialog.getByLabel('Account number again').fill('987654321');
    await dialog.getByLabel('IFSC code').fill('SBIN0000123');
    // A real SBI branch the server's directory does not list: the bank only, as without a directory.
    await dialog.getByText('State Bank of India. Branch names need an online lookup', { exact: false }).waitFor();
    await dialog.getByLabel('Account holder name').fill('Kiran Sharma');
    await dialog.getByRole('button', { name: 'Submit Request' }).click();
    await dialog.getByTestId('withdraw-confirm').getByText('State Bank of India ••••4321 (Kiran Sharma)').waitFor();
    // The session ends elsewhere (cookie gone): the API answers 401.
    await page.context().clearCookies();
    await dialog.getByRole('button', { name: 'Confirm and send' }).click();
    await expectToast(page, 'Unauthorized', 'You are logged out. Logging in again...');
    // Not at once: the toast shows on the wallet first.
    expect(path(page)).toBe('/wallet');
    await page.waitForURL((url) => url.pathname === '/login');
    await page.getByRole('heading', { name: 'Sign in' }).waitFor();
  });

  it("shows 'Not allowed' at /admin/finance without the finance or admin role", async () => {
    const user = await newAccount('Sunil');
    const page = await signedIn(user);
    await page.goto('/admin/finance');
    await page.getByRole('heading', { name: 'Not allowed' }).waitFor();
    await expect(page.getByRole('heading', { name: 'Pending withdrawals' }).count()).resolves.toBe(0);
  });
});
