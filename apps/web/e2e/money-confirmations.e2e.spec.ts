import { beforeAll, describe, expect, it } from 'vitest';
import type { Locator, Page } from 'playwright-core';
import { istDayOf } from '@kamai/contracts';
import type { TestAccount } from './harness.ts';
import {
  balanceOf,
  expectAccessible,
  openAdjustmentConfirmation,
  openFinanceScreen,
  registeredAccount,
  setUpBrowserSuite,
  staffAccount,
  toasts,
} from './helpers.ts';

/**
 * Finance staff move money only after a confirmation that shows the amount and the person: an
 * adjustment they request, and a withdrawal they mark paid or reject. Cancel sends nothing; confirm
 * moves the money. (Approving a pending adjustment: security.e2e; a KYC document: kyc.e2e; a proof:
 * tasks.e2e.)
 */

const suite = setUpBrowserSuite();
const { signedIn } = suite;

let staff: TestAccount;
/** Funds users: whoever adjusted a wallet does not settle its withdrawals. */
let funder: TestAccount;

beforeAll(async () => {
  staff = await staffAccount(suite.server, 'Farah', 'Khan', 'finance');
  funder = await staffAccount(suite.server, 'Neha', 'Joshi', 'finance');
});

const isFocused = (locator: Locator) => locator.evaluate((element) => element === document.activeElement);

const post = (account: TestAccount, path: string, body: unknown) => suite.api(account, 'POST', path, body);

/** The fonts Chromium actually drew an element's text with (DevTools' "Rendered Fonts"). */
async function platformFonts(page: Page, selector: string): Promise<string[]> {
  const cdp = await page.context().newCDPSession(page);
  try {
    await cdp.send('DOM.enable');
    await cdp.send('CSS.enable');
    const { root } = await cdp.send('DOM.getDocument', { depth: -1 });
    const { nodeId } = await cdp.send('DOM.querySelector', { nodeId: root.nodeId, selector });
    const { fonts } = await cdp.send('CSS.getPlatformFontsForNode', { nodeId });
    return fonts.map((font) => font.familyName);
  } finally {
    await cdp.detach();
  }
}

async function withdrawalStatus(account: TestAccount, id: string): Promise<string> {
  const list = (await (await suite.api(account, 'GET', '/api/withdrawals')).json()) as { id: string; status: string }[];
  return list.find((withdrawal) => withdrawal.id === id)?.status ?? 'missing';
}

describe('requesting an adjustment', () => {
  it('names the person, the amount and the balance first; Cancel sends nothing, confirming moves the money', async () => {
    const user = await registeredAccount(suite.server, 'Asha', 'Rao');
    const finance = await openFinanceScreen(await signedIn(staff));

    // An unknown number is refused at the form: no confirmation for nobody.
    await finance.getByLabel("User's mobile number").fill('6000000000');
    await finance.getByLabel('Amount (₹)').fill('10');
    await finance.getByLabel('Reason').fill('Who is this?');
    await finance.getByRole('button', { name: 'Apply Adjustment' }).click();
    await finance.getByText('No user with this mobile number').first().waitFor();
    await expect(finance.getByRole('dialog').count()).resolves.toBe(0);

    const confirm = await openAdjustmentConfirmation(finance, { mobile: user.mobile, amount: '250', reason: 'Welcome bonus' });
    await confirm.getByText(`Credit ₹250.00 to Asha Rao (+91 ${user.mobile})`).waitFor();
    await confirm.getByText('Welcome bonus').waitFor();
    await confirm.getByText('Balance now').waitFor();
    await confirm.getByText('₹0.00', { exact: true }).waitFor();
    await expectAccessible(finance, 'adjustment confirmation (en)');

    await confirm.getByRole('button', { name: 'Cancel' }).click();
    await confirm.waitFor({ state: 'detached' });
    const apply = finance.getByRole('button', { name: 'Apply Adjustment' });
    await expect.poll(() => isFocused(apply)).toBe(true);
    // The form keeps what was typed, and nothing reached the wallet.
    await expect(finance.getByLabel('Reason').inputValue()).resolves.toBe('Welcome bonus');
    expect(await balanceOf(suite.server, user)).toBe('0.00');

    await apply.click();
    await confirm.getByRole('button', { name: 'Credit ₹250.00' }).click();
    await toasts(finance).getByText('Adjustment Applied', { exact: true }).waitFor();
    await expect.poll(() => balanceOf(suite.server, user)).toBe('250.00');

    // A debit says so, and shows the balance it starts from.
    const debit = await openAdjustmentConfirmation(finance, { mobile: user.mobile, amount: '50', direction: 'debit', reason: 'Duplicate reward' });
    await debit.getByText(`Debit ₹50.00 from Asha Rao (+91 ${user.mobile})`).waitFor();
    await debit.getByText('₹250.00', { exact: true }).waitFor();
    await debit.getByRole('button', { name: 'Debit ₹50.00' }).click();
    await toasts(finance).getByText('Adjustment Applied', { exact: true }).waitFor();
    await expect.poll(() => balanceOf(suite.server, user)).toBe('200.00');

    // A correction dated back a day, naming what it corrects: both shown before it is sent, both booked.
    const yesterday = new Date(Date.now() + 330 * 60_000 - 86_400_000).toISOString().slice(0, 10);
    await finance.getByLabel('Takes effect on (optional)').fill(yesterday);
    await finance.getByLabel('Corrects (optional)').fill('entry-42');
    const correction = await openAdjustmentConfirmation(finance, { mobile: user.mobile, amount: '5', reason: 'Missed reward' });
    await correction.getByText(yesterday, { exact: true }).waitFor();
    await correction.getByText('entry-42', { exact: true }).waitFor();
    await correction.getByRole('button', { name: 'Credit ₹5.00' }).click();
    await toasts(finance).getByText('Adjustment Applied', { exact: true }).waitFor();
    const { id } = (await (await post(staff, '/api/admin/ledger/users/lookup', { mobile: user.mobile })).json()) as { id: string };
    const statement = (await (await suite.api(staff, 'GET', `/api/admin/ledger/users/${id}/statement`)).json()) as { entries: { amount: string; effectiveDate: string; corrects: string | null }[] };
    expect(statement.entries.find((e) => e.amount === '5.00')).toMatchObject({ effectiveDate: yesterday, corrects: 'entry-42' });
  });

  it('asks in Hindi too, axe-clean, in Devanagari', async () => {
    const user = await registeredAccount(suite.server, 'Ravi', 'Verma');
    // A staff member of their own: the language is stored on the account.
    const hindiStaff = await staffAccount(suite.server, 'Kiran', 'Joshi', 'finance');
    const finance = await signedIn(hindiStaff);
    await finance.goto('/profile');
    await finance.getByRole('button', { name: 'हिन्दी' }).click();
    await finance.waitForFunction(() => document.documentElement.lang === 'hi');
    await finance.goto('/admin/finance');
    await finance.getByRole('heading', { level: 1 }).waitFor();
    await finance.getByLabel('उपयोगकर्ता का मोबाइल नंबर').fill(user.mobile);
    await finance.getByLabel('रकम (₹)').fill('75');
    await finance.getByLabel('कारण').fill('त्योहार बोनस');
    await finance.getByRole('button', { name: 'समायोजन लागू करें' }).click();
    const confirm = finance.getByRole('dialog', { name: 'यह समायोजन लागू करें?' });
    await confirm.getByText(`Ravi Verma (+91 ${user.mobile}) के वॉलेट में ₹75.00 जमा करें`).waitFor();
    await expectAccessible(finance, 'adjustment confirmation (hi)');
    await finance.screenshot({ path: '/tmp/kamai-adjustment-confirm-hi.png' });
    // Chromium draws the Hindi title with a Devanagari font, not boxes (scripts/bootstrap.mjs installs one).
    expect(await platformFonts(finance, '[role="dialog"] h2')).toContainEqual(expect.stringMatching(/Devanagari/));
    await confirm.getByRole('button', { name: 'रद्द करें' }).click();
    await confirm.waitFor({ state: 'detached' });
    expect(await balanceOf(suite.server, user)).toBe('0.00');
  });
});

describe('paying or rejecting a withdrawal', () => {
  it('shows the amount, the person and where the money goes; Cancel leaves it pending, confirming pays it', async () => {
    const user = await registeredAccount(suite.server, 'Meena', 'Iyer');
    expect((await post(funder, '/api/admin/adjustments', { mobile: user.mobile, amount: '300', direction: 'credit', reason: 'Test funding' })).status).toBe(201);
    const requested = await post(user, '/api/withdrawals', { amount: 150, upiId: 'meena.iyer@okaxis' });
    expect(requested.status).toBe(201);
    const { id } = (await requested.json()) as { id: string };

    const finance = await openFinanceScreen(await signedIn(staff));
    const card = finance.getByTestId('pending-withdrawal').filter({ hasText: user.mobile });
    await card.waitFor();

    for (const [button, title] of [
      ['Mark Paid', 'Mark as Paid'],
      ['Reject', 'Reject Withdrawal'],
    ] as const) {
      const opener = card.getByRole('button', { name: button });
      await opener.click();
      const dialog = finance.getByRole('dialog', { name: title });
      await dialog.getByText('₹150.00', { exact: true }).waitFor();
      await dialog.getByText('to Meena Iyer', { exact: false }).waitFor();
      await dialog.getByText(`(+91 ${user.mobile})`).waitFor();
      await dialog.getByText('meena.iyer@okaxis').waitFor();
      await expectAccessible(finance, `${title} dialog (en)`);
      await dialog.getByRole('button', { name: 'Cancel' }).click();
      await dialog.waitFor({ state: 'detached' });
      await expect.poll(() => isFocused(opener)).toBe(true);
      expect(await withdrawalStatus(user, id)).toBe('pending');
    }
    expect(await balanceOf(suite.server, user)).toBe('150.00');

    await card.getByRole('button', { name: 'Mark Paid' }).click();
    const pay = finance.getByRole('dialog', { name: 'Mark as Paid' });
    await pay.getByLabel('Transfer reference').fill('UTR2026112300077');
    // The bank's value date, an IST day (yesterday here): sent with the reference.
    await pay.getByLabel('Value date at the bank (optional)').fill(istDayOf(new Date(Date.now() - 86_400_000)));
    await pay.getByRole('button', { name: 'Confirm Paid' }).click();
    await toasts(finance).getByText('Withdrawal Paid', { exact: true }).waitFor();
    await card.waitFor({ state: 'detached' });
    expect(await withdrawalStatus(user, id)).toBe('paid');
  });
});
