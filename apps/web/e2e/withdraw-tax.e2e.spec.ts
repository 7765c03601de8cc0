import { istDayOf, taxQuarterOfDay } from '@kamai/contracts';
import { describe, expect, it } from 'vitest';
import type { Page } from 'playwright-core';
import { apiAs, applySettings, doubleClickWhileSlow, expectAccessible, openFinanceScreen, registeredAccount, setUpBrowserSuite, staffAccount, toasts, tx } from './helpers.ts';

// Its own server: the tax rule set here (on adjustments, small thresholds) would tax the other wallet specs' withdrawals.
const suite = setUpBrowserSuite();

describe('the withdraw confirmation, when tax is withheld (docs/tax.md)', () => {
  it('shows what goes to the bank and the tax deducted under the rule, before the person confirms', async () => {
    const { server } = suite;
    const [first, second, funder, payer] = await Promise.all([
      staffAccount(server, 'Anil', 'Admin', 'admin'),
      staffAccount(server, 'Bina', 'Admin', 'admin'),
      staffAccount(server, 'Farah', 'Khan', 'finance'),
      staffAccount(server, 'Dev', 'Malik', 'finance'),
    ]);
    const label = 'Section 393 (old 194C)';
    await applySettings(server, first, second, {
      taxRules: [{ code: '393-194C', label, rateWithPan: '1.00', rateWithoutPan: '20.00', perPaymentThreshold: '100.00', perYearThreshold: '100000.00', appliesTo: ['adjustment'] }],
    });
    const user = await registeredAccount(server, 'Ravi', 'Kumar');
    await apiAs(server, funder, 'POST', '/api/admin/adjustments', { mobile: user.mobile, amount: '300', direction: 'credit', reason: 'Festival bonus' });

    const page = await suite.signedIn(user);
    await page.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: 'Wallet' }).click();
    await page.getByRole('button', { name: 'Withdraw Money' }).click();
    const dialog = page.getByRole('dialog', { name: /^Withdraw to (Bank|UPI)$/ });
    await dialog.getByRole('radio', { name: 'UPI ID' }).check();
    await dialog.getByLabel('Amount (₹)').fill('200');
    await dialog.getByRole('textbox', { name: 'UPI ID' }).fill('ravi.kumar@okhdfc');
    await dialog.getByRole('button', { name: 'Submit Request' }).click();
    // No PAN: 20 % of ₹200.
    const line = dialog.getByTestId('withdraw-tax');
    await expect(line.textContent()).resolves.toBe(tx('en', 'wallet:withdraw.taxLine', { net: '₹160.00', tax: '₹40.00', label }));
    await expectAccessible(page, 'withdraw confirmation with tax');
    await dialog.getByRole('button', { name: 'Confirm and send' }).click();
    await page.getByTestId('wallet-balance').getByText('₹100.00').waitFor();
    const list = await (await apiAs(server, user, 'GET', '/api/withdrawals')).json();
    expect(list[0]).toMatchObject({ amount: '200.00', tax: { amount: '40.00', code: '393-194C' }, net: '160.00' });

    // Finance's queue shows what to transfer (the net), with the tax beside it, on the card and in the pay dialog.
    const desk = await openFinanceScreen(await suite.signedIn(payer));
    const card = desk.getByTestId('pending-withdrawal').filter({ hasText: 'Ravi' });
    await card.getByText('₹160.00', { exact: true }).waitFor();
    const taxLine = tx('en', 'finance:queue.taxWithheld', { amount: '₹200.00', tax: '₹40.00', code: '393-194C' });
    await expect(card.getByTestId('tax-withheld').textContent()).resolves.toBe(taxLine);
    await card.getByRole('button', { name: 'Mark Paid' }).click();
    const pay = desk.getByRole('dialog');
    await expect(pay.getByTestId('tax-withheld').textContent()).resolves.toBe(taxLine);
    await expectAccessible(desk, 'finance queue with tax withheld');
  });
});

const fitsIn = async (page: Page, width: number) => expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(width);

describe('tax after it is withheld (docs/tax.md)', () => {
  it('the person sees the year in Profile; finance sees the quarter and records a challan once', { timeout: 90_000 }, async () => {
    const { server } = suite;
    const [first, second, funder, payer] = await Promise.all([
      staffAccount(server, 'Chitra', 'Admin', 'admin'),
      staffAccount(server, 'Deepa', 'Admin', 'admin'),
      staffAccount(server, 'Gita', 'Rao', 'finance'),
      staffAccount(server, 'Hari', 'Nair', 'finance'),
    ]);
    await applySettings(server, first, second, {
      taxRules: [{ code: '393-194C', label: 'Section 393 (old 194C)', rateWithPan: '1.00', rateWithoutPan: '20.00', perPaymentThreshold: '100.00', perYearThreshold: '100000.00', appliesTo: ['adjustment'] }],
    });
    const user = await registeredAccount(server, 'Sita', 'Verma');
    await apiAs(server, funder, 'POST', '/api/admin/adjustments', { mobile: user.mobile, amount: '300', direction: 'credit', reason: 'Festival bonus' });
    await apiAs(server, user, 'POST', '/api/withdrawals', { amount: '200', upiId: 'sita.verma@okaxis' });

    // Profile: the year's withdrawn, tax and net (no PAN: 20 % of ₹200).
    const page = await suite.signedIn(user);
    await page.setViewportSize({ width: 360, height: 740 });
    await page.goto('/profile');
    const year = page.getByTestId('tax-summary');
    const fy = taxQuarterOfDay(istDayOf(new Date())).slice(0, 7);
    await year.getByRole('heading', { name: tx('en', 'profile:taxSummary.year', { fy }) }).waitFor();
    await expect(year.getByRole('definition').allTextContents()).resolves.toEqual(['₹200.00', '₹40.00', '₹160.00']);
    await expectAccessible(page, 'profile with a tax summary');

    // Finance, 360 px: the quarter's deducted and due, then a challan, its confirm double-clicked under a held network.
    const quarter = taxQuarterOfDay(istDayOf(new Date()));
    const before = (await (await apiAs(server, payer, 'GET', `/api/admin/ledger/tax-deposits?quarter=${quarter}`)).json()) as { deducted: string; due: string };
    const desk = await openFinanceScreen(await suite.signedIn(payer));
    await desk.setViewportSize({ width: 360, height: 740 });
    await desk.getByRole('tab', { name: 'Tax' }).click();
    await desk.waitForURL(/tab=tax/);
    const figures = desk.getByTestId('tax-summary');
    await figures.getByText(`₹${Number(before.deducted).toLocaleString('en-IN', { minimumFractionDigits: 2 })}`).first().waitFor();
    await desk.getByText(tx('en', 'finance:tax.noDeposits')).waitFor();
    await expectAccessible(desk, 'finance tax tab (en)');
    await fitsIn(desk, 360);
    const form = desk.getByRole('form', { name: tx('en', 'finance:tax.challanHeading', { quarter }) });
    await form.getByRole('button', { name: tx('en', 'finance:tax.record') }).click();
    // Refused in words before anything is sent.
    await form.getByText(tx('en', 'messages:server.taxReturn.bsrCode')).waitFor();
    await form.getByLabel(tx('en', 'finance:tax.bsrCode')).fill('0510002');
    await form.getByLabel(tx('en', 'finance:tax.serial')).fill('00042');
    await form.getByLabel(tx('en', 'finance:tax.date')).fill(istDayOf(new Date()));
    await form.getByLabel(tx('en', 'finance:tax.amount')).fill('40');
    await form.getByRole('button', { name: tx('en', 'finance:tax.record') }).click();
    const confirm = desk.getByRole('dialog', { name: tx('en', 'finance:tax.confirmTitle', { quarter }) });
    await expectAccessible(desk, 'challan confirmation (en)');
    const keys = await doubleClickWhileSlow(desk, confirm, confirm.getByRole('button', { name: tx('en', 'finance:tax.confirmButton', { amount: '₹40.00' }) }), /\/api\/admin\/ledger\/tax-deposits/);
    expect(keys).toHaveLength(1);
    await confirm.waitFor({ state: 'detached' });
    await toasts(desk).getByText(tx('en', 'finance:tax.recordedTitle')).waitFor();
    await desk.getByTestId('tax-deposit').getByText('₹40.00').waitFor();
    const after = (await (await apiAs(server, payer, 'GET', `/api/admin/ledger/tax-deposits?quarter=${quarter}`)).json()) as { deposited: string; deposits: unknown[] };
    expect(after).toMatchObject({ deposited: '40.00', deposits: [expect.objectContaining({ bsrCode: '0510002', serial: '00042', amount: '40.00' })] });

    // Hindi, 320 px, from the address alone: the tab and its quarter are in it.
    await desk.goto('/profile');
    await desk.getByRole('button', { name: 'हिन्दी' }).click();
    await desk.waitForFunction(() => document.documentElement.lang === 'hi');
    await desk.setViewportSize({ width: 320, height: 740 });
    await desk.goto(`/admin/finance?tab=tax&quarter=${quarter}`);
    await desk.getByRole('tab', { name: tx('hi', 'finance:tabs.tax'), selected: true }).waitFor();
    await desk.getByTestId('tax-deposit').waitFor();
    await expectAccessible(desk, 'finance tax tab (hi)');
    await fitsIn(desk, 320);
  });
});
