import { beforeAll, describe, expect, it } from 'vitest';
import { DEFAULT_CANNED_REASONS } from '@kamai/contracts';
import { reviewText } from './review.ts';
import type { TestAccount } from './harness.ts';
import { balanceOf, expectAccessible, proofByApi, registeredAccount, setUpBrowserSuite, staffAccount, taskByApi } from './helpers.ts';

/**
 * Bulk review on a phone: the reviewer moves through the queue with the keyboard, selects proofs,
 * approves them at once after a confirmation naming the count and the total, and rejects others with
 * a common reason; both languages pass axe.
 */

const suite = setUpBrowserSuite();

const tx = reviewText;

let admin: TestAccount;
let reviewer: TestAccount;

beforeAll(async () => {
  admin = await staffAccount(suite.server, 'Anil', 'Verma', 'admin');
  reviewer = await staffAccount(suite.server, 'Rekha', 'Verma', 'reviewer');
});

/** A worker with a proof under review for `taskId`. */
async function workerWithProof(taskId: string, firstName: string): Promise<TestAccount> {
  const worker = await registeredAccount(suite.server, firstName, 'Das');
  await proofByApi(suite, worker, taskId);
  return worker;
}

describe('bulk review on /admin/review', () => {
  it('selects with the keyboard, approves two at once with the total named, rejects one with a common reason', async () => {
    const title = `Rate the Kamai app ${Date.now()}`;
    const taskId = await taskByApi(suite, admin, { title, rupeeReward: '12.50' });
    const [asha, bina, chetan] = [await workerWithProof(taskId, 'Asha'), await workerWithProof(taskId, 'Bina'), await workerWithProof(taskId, 'Chetan')];

    const page = await suite.signedIn(reviewer);
    await page.goto('/admin/review');
    const t = (key: string, params?: Record<string, string>) => tx('en', key, params);
    await page.getByRole('heading', { name: t('title') }).waitFor();
    const cards = page.getByTestId('submission');
    await expect.poll(() => cards.count()).toBe(3);
    await expectAccessible(page, 'review queue (en)');

    // The first card is current: X selects it, J moves to the second, X selects it too.
    await page.keyboard.press('x');
    await page.getByText(t('selectedCount_one', { count: '1' })).waitFor();
    await page.keyboard.press('j');
    await page.keyboard.press('x');
    await page.getByText(t('selectedCount_other', { count: '2' })).waitFor();

    await page.getByRole('button', { name: t('approveSelected') }).click();
    const dialog = page.getByRole('dialog', { name: t('approveSelectedTitle_other', { count: '2' }) });
    await dialog.getByText(t('approveSelectedQuestion_other', { count: '2', amount: '₹25.00' })).waitFor();
    await expectAccessible(page, 'bulk approve dialog (en)');
    await dialog.getByRole('button', { name: t('approveCount_other', { count: '2', amount: '₹25.00' }) }).click();
    await dialog.waitFor({ state: 'detached' });
    await expect.poll(() => cards.count()).toBe(1);
    expect([await balanceOf(suite.server, asha), await balanceOf(suite.server, bina)]).toEqual(['12.50', '12.50']);

    // The last one: R opens the rejection, a common reason fills it in.
    await page.keyboard.press('r');
    const reject = page.getByRole('dialog', { name: t('rejectTitle') });
    // The canned reasons are a setting; the defaults until an admin sets them.
    const blurry = DEFAULT_CANNED_REASONS[0]!.en;
    await reject.getByRole('button', { name: blurry }).click();
    await expect(reject.getByRole('textbox', { name: t('reason') }).inputValue()).resolves.toBe(blurry);
    await reject.getByRole('button', { name: t('reject') }).click();
    await reject.waitFor({ state: 'detached' });
    await page.getByText(t('caughtUp')).waitFor();
    expect(await balanceOf(suite.server, chetan)).toBe('0.00');
  });

  it('passes axe in Hindi with proofs selected', async () => {
    const title = `Visit the Kamai blog ${Date.now()}`;
    const taskId = await taskByApi(suite, admin, { title, description: 'Read it.', rupeeReward: '5', estimatedTime: '2 min', taskType: 'website', taskUrl: 'https://kamai.in/blog' });
    await workerWithProof(taskId, 'Deepa');
    const page = await suite.signedIn(reviewer);
    await page.goto('/profile');
    await page.getByRole('button', { name: 'हिन्दी' }).click();
    await page.getByRole('heading', { name: 'प्रोफ़ाइल', level: 1 }).waitFor();
    await page.goto('/admin/review');
    const t = (key: string, params?: Record<string, string>) => tx('hi', key, params);
    await page.getByRole('heading', { name: t('title') }).waitFor();
    await page.getByTestId('submission').first().waitFor();
    // Whatever the queue holds (the other test may have left a proof): all of it.
    const count = await page.getByTestId('submission').count();
    const plural = `_${new Intl.PluralRules('hi').select(count)}`;
    await page.getByRole('button', { name: t('selectAll') }).click();
    await expectAccessible(page, 'review queue (hi)');
    await page.getByRole('button', { name: t('rejectSelected') }).click();
    const dialog = page.getByRole('dialog', { name: t(`rejectSelectedTitle${plural}`, { count: String(count) }) });
    await dialog.getByRole('button', { name: t(`rejectCount${plural}`, { count: String(count) }) }).waitFor();
    await expectAccessible(page, 'bulk reject dialog (hi)');
  });
});
