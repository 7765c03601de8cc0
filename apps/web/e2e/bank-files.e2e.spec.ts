import { readFileSync } from 'node:fs';
import { afterEach, beforeAll, describe, expect, it } from 'vitest';
import type { Locator, Page } from 'playwright-core';
import type { TestAccount } from './harness.ts';
import { apiAs, expectAccessible, openFinanceScreen, registeredAccount, setUpBrowserSuite, staffAccount, tx } from './helpers.ts';

/**
 * The finance screen's bank file download when the chosen template is a bank's: one button per
 * upload (bank transfers, UPI), 44 px tall, in English and Hindi, each downloading its own file.
 */

const suite = setUpBrowserSuite();

let finance: TestAccount;
let admin: TestAccount;

beforeAll(async () => {
  finance = await staffAccount(suite.server, 'Farah', 'Khan', 'finance');
  admin = await staffAccount(suite.server, 'Anil', 'Mehta', 'admin');
  const funder = await staffAccount(suite.server, 'Kiran', 'Bose', 'finance');
  // ₹350 is below the default approval threshold: the batch's files can be downloaded at once.
  const ravi = await registeredAccount(suite.server, 'Ravi', 'Verma');
  await apiAs(suite.server, funder, 'POST', '/api/admin/adjustments', { mobile: ravi.mobile, amount: '900', direction: 'credit', reason: 'Test funding' });
  const ids: string[] = [];
  for (const body of [{ amount: '200.00', bankAccount: { accountNumber: '00123456789', ifsc: 'SBIN0001234', holderName: 'Ravi Verma' } }, { amount: '150.00', upiId: 'ravi.verma@okaxis' }]) {
    ids.push(((await (await apiAs(suite.server, ravi, 'POST', '/api/withdrawals', body)).json()) as { id: string }).id);
  }
  await apiAs(suite.server, finance, 'POST', '/api/admin/payout-batches', { withdrawalIds: ids });
});

afterEach(({ task }) => {
  if (task.result?.state === 'fail') console.error(suite.server.output().slice(-6000));
});

async function download(page: Page, link: Locator): Promise<string> {
  const [file] = await Promise.all([page.waitForEvent('download'), link.click()]);
  return readFileSync((await file.path()) ?? '', 'utf8');
}

describe('bank template files on the finance screen', () => {
  it('offers one 44 px download per upload for a bank template, in English and Hindi', async () => {
    const page = await openFinanceScreen(await suite.signedIn(finance));
    await page.getByRole('tab', { name: 'Batches' }).click();
    const card = page.getByTestId('payout-batch');
    // The generic template: one file.
    await card.getByRole('link', { name: tx('en', 'finance:batches.download') }).waitFor();

    await apiAs(suite.server, admin, 'PUT', '/api/admin/settings', { bankFileTemplate: 'icici', bankDebitAccount: '000405001234', bankPayerIfsc: 'ICIC0000104' });
    await page.reload();
    await page.getByRole('tab', { name: 'Batches' }).click();
    const bank = card.getByRole('link', { name: tx('en', 'finance:batches.downloadKind.bank') });
    const upi = card.getByRole('link', { name: tx('en', 'finance:batches.downloadKind.upi') });
    await bank.waitFor();
    expect(await card.getByRole('link', { name: tx('en', 'finance:batches.download') }).count()).toBe(0);
    for (const link of [bank, upi]) expect((await link.boundingBox())?.height ?? 0).toBeGreaterThanOrEqual(44);
    await expectAccessible(page, 'finance batches with a bank template');

    const bankFile = await download(page, bank);
    expect(bankFile.split('\r\n')[0]).toBe('Transaction Type,Debit Account No,Beneficiary Account No,Beneficiary IFSC,Beneficiary Name,Amount,Currency,Value Date,Customer Reference,Remarks');
    expect(bankFile).toContain('IFC,000405001234,00123456789,SBIN0001234,Ravi Verma,200.00,INR,');
    const upiFile = await download(page, upi);
    expect(upiFile).toContain(',UPI,ravi.verma@okaxis,Ravi Verma,150.00,');

    await page.evaluate(() => localStorage.setItem('kamai.language', 'hi'));
    await page.reload();
    await page.getByRole('tab', { name: tx('hi', 'finance:tabs.batches') }).click();
    await card.getByRole('link', { name: tx('hi', 'finance:batches.downloadKind.upi') }).waitFor();
    await card.getByRole('link', { name: tx('hi', 'finance:batches.downloadKind.bank') }).waitFor();
  });
});
