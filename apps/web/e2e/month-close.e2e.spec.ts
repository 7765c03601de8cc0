import { istDayOf } from '@kamai/contracts';
import { beforeAll, describe, expect, it } from 'vitest';
import type { Page } from 'playwright-core';
import type { TestAccount } from './harness.ts';
import { doubleClickWhileSlow, expectAccessible, openFinanceScreen, setUpBrowserSuite, staffAccount, toasts, tx } from './helpers.ts';

/**
 * The month close and the tax rules, on the screens: one finance member asks to close last month
 * (English, 360 px), another approves it (Hindi, 320 px), each confirm double-clicked under a held
 * network sending one request. An admin edits a tax rule, which waits for a second admin.
 */

const suite = setUpBrowserSuite();
let rohan: TestAccount;
let meera: TestAccount;
let asha: TestAccount;

beforeAll(async () => {
  [rohan, meera, asha] = await Promise.all([
    staffAccount(suite.server, 'Rohan', 'Gupta', 'finance'),
    staffAccount(suite.server, 'Meera', 'Iyer', 'finance'),
    staffAccount(suite.server, 'Asha', 'Rao', 'admin'),
  ]);
});

/** Last month in India time, as `YYYY-MM` and by name in each language (the screen's own format). */
function lastMonth(): { month: string; en: string; hi: string } {
  const [year, month] = istDayOf(new Date()).split('-').map(Number) as [number, number];
  const index = year * 12 + month - 2;
  const text = `${Math.floor(index / 12)}-${String((index % 12) + 1).padStart(2, '0')}`;
  const name = (locale: string) => new Intl.DateTimeFormat(locale, { month: 'long', year: 'numeric', timeZone: 'UTC' }).format(new Date(`${text}-15T00:00:00Z`));
  return { month: text, en: name('en-IN'), hi: name('hi-IN') };
}

const fitsIn = async (page: Page, width: number) => expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(width);

describe('month close', () => {
  it('one finance member asks, another approves; each confirm sends once', { timeout: 60_000 }, async () => {
    const last = lastMonth();
    const asker = await suite.signedIn(rohan);
    await asker.setViewportSize({ width: 360, height: 740 });
    await openFinanceScreen(asker);
    await asker.getByRole('tab', { name: 'Month close' }).click();
    const row = (page: Page, name: string) => page.getByTestId('ledger-period').filter({ hasText: name });
    await row(asker, last.en).getByText('Open', { exact: true }).waitFor();
    // The current month cannot be closed yet: no button on its row.
    expect(await asker.getByTestId('ledger-period').first().getByRole('button').count()).toBe(0);
    await expectAccessible(asker, 'month close (en)');
    await fitsIn(asker, 360);

    await row(asker, last.en).getByRole('button', { name: `Close ${last.en}` }).click();
    const ask = asker.getByRole('dialog', { name: `Close ${last.en}?` });
    await expectAccessible(asker, 'close dialog (en)');
    const keys = await doubleClickWhileSlow(asker, ask, ask.getByRole('button', { name: 'Ask to close' }), /\/api\/admin\/ledger\/periods\//);
    expect(keys).toHaveLength(1);
    expect(keys[0]).not.toBe('');
    await ask.waitFor({ state: 'detached' });
    await toasts(asker).getByText(`Closing ${last.en} waits for another finance member`).waitFor();
    await row(asker, last.en).getByText('You asked; another finance member must approve').waitFor();

    const approver = await suite.signedIn(meera);
    await approver.setViewportSize({ width: 320, height: 740 });
    await approver.goto('/profile');
    await approver.getByRole('button', { name: 'हिन्दी' }).click();
    await approver.waitForFunction(() => document.documentElement.lang === 'hi');
    await approver.goto('/admin/finance?tab=months');
    const pending = row(approver, last.hi);
    await pending.getByText('Rohan Gupta', { exact: false }).waitFor();
    await expectAccessible(approver, 'month close (hi)');
    await fitsIn(approver, 320);
    await pending.getByRole('button', { name: tx('hi', 'finance:months.approve', { month: last.hi }) }).click();
    const approve = approver.getByRole('dialog', { name: tx('hi', 'finance:months.approveTitle', { month: last.hi }) });
    await expectAccessible(approver, 'approve dialog (hi)');
    const approvals = await doubleClickWhileSlow(approver, approve, approve.getByRole('button', { name: tx('hi', 'finance:months.approveButton') }), /\/api\/admin\/ledger\/periods\//);
    expect(approvals).toHaveLength(1);
    await approve.waitFor({ state: 'detached' });
    await pending.getByText('Meera Iyer', { exact: false }).waitFor();
    expect(await pending.getByRole('button').count()).toBe(0);
    const answer = (await (await suite.api(meera, 'GET', '/api/admin/ledger/periods')).json()) as Array<{ month: string; status: string }>;
    expect(answer.find((p) => p.month === last.month)?.status).toBe('closed');
  });
  it('a funding approved while the screen showed it waiting: the refusal is shown in the dialog, which stays open', { timeout: 60_000 }, async () => {
    // Over the approval threshold (₹1,000), so it waits for a second member.
    const recorded = await suite.api(rohan, 'POST', '/api/admin/ledger/funding', { amount: '1500.00', reference: 'NEFT-STALE-0001', date: istDayOf(new Date()) });
    expect(recorded.status).toBe(202);
    const { id } = (await recorded.json()) as { id: string };
    const page = await suite.signedIn(meera);
    await page.goto('/profile');
    await page.getByRole('button', { name: 'English' }).click();
    await page.waitForFunction(() => document.documentElement.lang === 'en');
    await page.setViewportSize({ width: 360, height: 740 });
    await openFinanceScreen(page);
    await page.getByRole('tab', { name: 'Reconciliation' }).click();
    const approveButton = page.getByTestId('pending-funding').filter({ hasText: 'NEFT-STALE-0001' }).getByRole('button', { name: 'Approve' });
    await approveButton.waitFor();
    // Approved behind the screen's back (another tab).
    expect((await suite.api(meera, 'POST', `/api/admin/ledger/funding/${id}/approve`)).status).toBe(200);

    await approveButton.click();
    const dialog = page.getByRole('dialog', { name: 'Approve this funding?' });
    await dialog.getByRole('button', { name: 'Approve ₹1,500.00' }).click();
    await dialog.getByRole('alert').getByText('This funding was already approved').waitFor();
    expect(await dialog.isVisible()).toBe(true);
    await expectAccessible(page, 'funding approval refused (en)');
    await dialog.getByRole('button', { name: 'Cancel' }).click();
    await dialog.waitFor({ state: 'detached' });
  });
});

describe('tax rules on the settings screen', () => {
  it('an edited rule is a request for a second admin; a wrong rate is refused under its field', { timeout: 60_000 }, async () => {
    const page = await suite.signedIn(asha);
    await page.setViewportSize({ width: 360, height: 740 });
    await page.goto('/admin/settings');
    const rule = page.getByTestId('tax-rule');
    const rate = rule.getByLabel('Rule 1: rate with PAN (%)');
    await expect.poll(() => rate.inputValue()).toBe('1.00');
    await expectAccessible(page, 'settings with tax rules (en)');
    await fitsIn(page, 360);

    await rate.fill('one');
    await page.getByRole('button', { name: 'Save settings' }).click();
    await rule.getByText('Enter a rate in percent from 0 to 100 with at most two decimals, e.g. 1.00').waitFor();

    await rate.fill('2');
    await rule.getByRole('checkbox', { name: 'Referral bonuses' }).check();
    await page.getByRole('button', { name: 'Save settings' }).click();
    await toasts(page).getByText('Change requested').waitFor();
    await page.getByTestId('settings-request').getByText('393-194C 1.00 % / 20.00 % → 393-194C 2.00 % / 20.00 %', { exact: false }).waitFor();
    const inForce = (await (await suite.api(asha, 'GET', '/api/settings')).json()) as { taxRules: Array<{ rateWithPan: string }> };
    expect(inForce.taxRules[0]?.rateWithPan).toBe('1.00');
    const requests = (await (await suite.api(asha, 'GET', '/api/admin/settings/requests')).json()) as Array<{ changes: { taxRules?: Array<{ rateWithPan: string; appliesTo: string[] }> } }>;
    expect(requests[0]?.changes.taxRules).toEqual([expect.objectContaining({ rateWithPan: '2.00', appliesTo: ['task_reward', 'referral_bonus'] })]);
  });
});
