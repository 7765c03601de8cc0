import { beforeAll, describe, expect, it } from 'vitest';
import type { TestAccount } from './harness.ts';
import { expectAccessible, path, sessionCookie, setUpBrowserSuite, staffAccount, toasts } from './helpers.ts';

/**
 * The admin Settings screen: one admin asks to raise the adjustment threshold (a control setting)
 * and it is not in force; a second admin approves it on the same screen and it is; a plain setting
 * and the canned rejection reasons change at once. Both languages pass axe at 360 px.
 */

const suite = setUpBrowserSuite();
const { signedIn } = suite;

let asha: TestAccount;
let vikram: TestAccount;

beforeAll(async () => {
  asha = await staffAccount(suite.server, 'Asha', 'Rao', 'admin');
  vikram = await staffAccount(suite.server, 'Vikram', 'Shah', 'admin');
});

/** The settings in force, as the public API reads them. */
async function inForce(): Promise<Record<string, unknown>> {
  const cookie = await sessionCookie(suite.server, asha);
  return (await (await fetch(`${suite.server.baseUrl}/api/settings`, { headers: { cookie } })).json()) as Record<string, unknown>;
}

describe('admin settings', () => {
  it('a threshold change waits for a second admin; a plain setting and the canned reasons change at once', { timeout: 600_000 }, async () => {
    const first = await signedIn(asha);
    await first.setViewportSize({ width: 360, height: 740 });
    await first.goto('/profile');
    await first.getByRole('region', { name: 'Staff' }).getByRole('link', { name: 'Settings' }).click();
    await first.getByRole('heading', { name: 'Settings', level: 1 }).waitFor();
    expect(path(first)).toBe('/admin/settings');
    const threshold = first.getByLabel('Adjustment approval threshold');
    await expect.poll(() => threshold.inputValue()).toBe('1000.00');
    await first.getByText('No control setting change is waiting.').waitFor();
    await expectAccessible(first, '/admin/settings (en)');
    expect(await first.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(360);

    // A control setting and a plain one in one save: the plain one is in force, the other waits.
    await threshold.fill('5000');
    await first.getByLabel('Payout is late after (days)').fill('4');
    await first.getByLabel('Reason 1 in English').fill('Screenshot is blurry');
    // The tax deductor (empty until set) and the bank file's layout, a choice of the server's layouts.
    expect(await first.getByLabel("Tax deductor's TAN").inputValue()).toBe('');
    await first.getByLabel("Tax deductor's TAN").fill('delk12345a');
    await first.getByLabel("Tax deductor's name").fill('Kamai Technologies Pvt Ltd');
    await first.getByLabel('Bank file layout').selectOption({ label: 'ICICI Bank CIB bulk upload' });
    await first.getByLabel('Payout debit account number').fill('000405001234');
    await first.getByRole('button', { name: 'Save settings' }).dblclick();
    await toasts(first).getByText('Change requested').waitFor();
    const request = first.getByTestId('settings-request');
    await request.getByText('Adjustment approval threshold: ₹1,000.00 → ₹5,000.00').waitFor();
    await request.getByText('You asked for this; another admin must approve it.').waitFor();
    expect(await request.getByRole('button', { name: 'Approve' }).count()).toBe(0);
    expect(await request.count()).toBe(1);
    const settings = await inForce();
    expect(settings).toMatchObject({
      adjustmentApprovalThreshold: '1000.00',
      latePayoutDays: 4,
      taxDeductorTan: 'DELK12345A',
      taxDeductorName: 'Kamai Technologies Pvt Ltd',
      taxDeductorAddress: null,
      bankFileTemplate: 'icici',
    });
    expect((settings.cannedReasons as Array<{ en: string }>)[0]?.en).toBe('Screenshot is blurry');
    await expectAccessible(first, '/admin/settings with a request (en)');

    // The second admin approves, in Hindi on a small phone.
    const second = await signedIn(vikram);
    await second.setViewportSize({ width: 360, height: 740 });
    await second.goto('/profile');
    await second.getByRole('button', { name: 'हिन्दी' }).click();
    await second.waitForFunction(() => document.documentElement.lang === 'hi');
    await second.goto('/admin/settings');
    await second.getByRole('heading', { name: 'सेटिंग', level: 1 }).waitFor();
    const pending = second.getByTestId('settings-request');
    await pending.getByText('Asha Rao', { exact: false }).waitFor();
    await expectAccessible(second, '/admin/settings (hi)');
    expect(await second.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(360);
    await pending.getByRole('button', { name: 'मंज़ूर करें' }).click();
    const dialog = second.getByRole('dialog', { name: 'यह बदलाव मंज़ूर करें?' });
    await expectAccessible(second, 'approve dialog (hi)');
    await dialog.getByRole('button', { name: 'मंज़ूर करें' }).dblclick();
    await dialog.waitFor({ state: 'detached' });
    await second.getByText('नियंत्रण सेटिंग का कोई बदलाव प्रतीक्षा में नहीं है।').waitFor();
    await expect.poll(async () => (await inForce()).adjustmentApprovalThreshold).toBe('5000.00');
    await expect.poll(() => second.getByLabel('समायोजन मंज़ूरी की सीमा').inputValue()).toBe('5000.00');
  });
});
