import { istDayOf } from '@kamai/contracts';
import { beforeAll, describe, expect, it } from 'vitest';
import type { Page } from 'playwright-core';
import type { TestAccount } from './harness.ts';
import { doubleClickWhileSlow, expectAccessible, openFinanceScreen, setUpBrowserSuite, staffAccount, toasts, tx } from './helpers.ts';

/**
 * The statement exceptions queue on the Reconciliation tab: a statement's two lines nothing matched
 * are listed with their age; one is matched by hand with a note (English, 360 px), the other is
 * written off by one finance member and approved by another (Hindi, 320 px). Each confirm sends once.
 */

const suite = setUpBrowserSuite();
let rohan: TestAccount;
let meera: TestAccount;

beforeAll(async () => {
  [rohan, meera] = await Promise.all([staffAccount(suite.server, 'Rohan', 'Gupta', 'finance'), staffAccount(suite.server, 'Meera', 'Iyer', 'finance')]);
});

const fitsIn = async (page: Page, width: number) => expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(width);

describe('statement exceptions', () => {
  it('lists what no line matched with its age; matched by hand with a note, or written off by two members', { timeout: 60_000 }, async () => {
    const today = istDayOf(new Date());
    const threeDaysAgo = istDayOf(new Date(Date.now() - 3 * 86_400_000));
    const csv = ['date,narration,debit,credit,utr', `${threeDaysAgo},NEFT TO UNKNOWN,777.00,,UNKNOWN0001`, `${today},INTEREST,,12.00,INT0001`].join('\r\n');
    const imported = await suite.api(rohan, 'POST', '/api/admin/ledger/bank-statements', new TextEncoder().encode(`${csv}\r\n`), { 'content-type': 'text/csv' });
    expect(imported.status).toBe(201);

    const page = await suite.signedIn(rohan);
    await page.setViewportSize({ width: 360, height: 740 });
    await openFinanceScreen(page);
    await page.getByRole('tab', { name: 'Reconciliation' }).click();
    const item = (p: Page, reference: string) => p.getByTestId('statement-exception').filter({ hasText: reference });
    await item(page, 'UNKNOWN0001').getByText('3 days old', { exact: false }).waitFor();
    await item(page, 'INT0001').getByText('0 days old', { exact: false }).waitFor();
    await expectAccessible(page, 'statement exceptions (en)');
    await fitsIn(page, 360);

    // By hand: a note is required, then one send.
    await item(page, 'INT0001').getByRole('button', { name: 'Match by hand' }).click();
    const matchDialog = page.getByRole('dialog', { name: 'Match this by hand' });
    await matchDialog.getByRole('button', { name: 'Mark matched' }).click();
    await matchDialog.getByText('Write a note of 1 to 300 characters').waitFor();
    await matchDialog.getByLabel('Note').fill('Bank interest, booked by the accountant');
    await expectAccessible(page, 'match dialog (en)');
    const keys = await doubleClickWhileSlow(page, matchDialog, matchDialog.getByRole('button', { name: 'Mark matched' }), /statement-exceptions\//);
    expect(keys).toHaveLength(1);
    await matchDialog.waitFor({ state: 'detached' });
    await toasts(page).getByText('Marked matched').waitFor();
    await item(page, 'INT0001').waitFor({ state: 'detached' });

    // Written off: asked here, approved by another member.
    await item(page, 'UNKNOWN0001').getByRole('button', { name: 'Write off' }).click();
    const ask = page.getByRole('dialog', { name: 'Ask to write this off' });
    await ask.getByLabel('Note').fill('Bank error, refund asked');
    await ask.getByRole('button', { name: 'Ask to write off' }).click();
    await ask.waitFor({ state: 'detached' });
    await item(page, 'UNKNOWN0001').getByText('You asked to write this off: another finance member approves').waitFor();

    const approver = await suite.signedIn(meera);
    await approver.setViewportSize({ width: 320, height: 740 });
    await openFinanceScreen(approver);
    await approver.evaluate(() => localStorage.setItem('kamai.language', 'hi'));
    await approver.reload();
    await approver.getByRole('tab', { name: 'मिलान' }).click();
    const pending = item(approver, 'UNKNOWN0001');
    await pending.getByText('Bank error, refund asked', { exact: false }).waitFor();
    await expectAccessible(approver, 'statement exceptions (hi)');
    await fitsIn(approver, 320);
    await pending.getByRole('button', { name: tx('hi', 'finance:exceptions.approve') }).click();
    const approve = approver.getByRole('dialog', { name: tx('hi', 'finance:exceptions.title.approve') });
    await expectAccessible(approver, 'approve write-off dialog (hi)');
    const approvals = await doubleClickWhileSlow(approver, approve, approve.getByRole('button', { name: tx('hi', 'finance:exceptions.confirm.approve') }), /statement-exceptions\//);
    expect(approvals).toHaveLength(1);
    await approve.waitFor({ state: 'detached' });
    await approver.getByText(tx('hi', 'finance:exceptions.none')).waitFor();
    const open = (await (await suite.api(meera, 'GET', '/api/admin/ledger/statement-exceptions')).json()) as unknown[];
    expect(open).toEqual([]);
  });
});
