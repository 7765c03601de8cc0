import { describe, expect, it } from 'vitest';
import { apiAs, applySettings, expectAccessible, openFinanceScreen, registeredAccount, setUpBrowserSuite, staffAccount, tx } from './helpers.ts';

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
