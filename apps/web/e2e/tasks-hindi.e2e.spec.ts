import { beforeAll, describe, expect, it } from 'vitest';
import type { Locator, Page } from 'playwright-core';
import type { TestAccount } from './harness.ts';
import { expectAccessible, proofByApi, registeredAccount, setUpBrowserSuite, staffAccount, taskByApi, tx } from './helpers.ts';

/**
 * Tasks in the reader's language (issue 37): a task with Hindi texts shows only its Hindi on a Hindi
 * page (list card, proof dialog, review queue, admin list), its time as "4 मिनट"; a task with none
 * shows its English marked lang="en".
 */

const suite = setUpBrowserSuite();
let admin: TestAccount;
let reviewer: TestAccount;
let worker: TestAccount;

const stamp = Date.now();
const english = {
  title: `Read the Kamai savings guide ${stamp}`,
  description: 'Open the guide and read the part about a monthly budget.',
  proofInstructions: 'Screenshot of the budget section.',
};
const hindi = {
  title: `कमाई की बचत गाइड पढ़ें ${stamp}`,
  description: 'गाइड खोलें और मासिक बजट वाला हिस्सा पढ़ें।',
  proofInstructions: 'बजट वाले हिस्से का स्क्रीनशॉट।',
};
const englishOnly = {
  title: `Visit the Kamai help page ${stamp}`,
  description: 'Open the help page and find the FAQ.',
  proofInstructions: 'Screenshot of the FAQ.',
};
let bilingualId = '';

beforeAll(async () => {
  admin = await staffAccount(suite.server, 'Anil', 'Verma', 'admin');
  reviewer = await staffAccount(suite.server, 'Rekha', 'Verma', 'reviewer');
  worker = await registeredAccount(suite.server, 'Usha', 'Das');
  bilingualId = await taskByApi(suite, admin, { ...english, hi: hindi, estimatedMinutes: 4, taskType: 'website', taskUrl: 'https://kamai.in/guide' });
  await taskByApi(suite, admin, { ...englishOnly, estimatedMinutes: 2, taskType: 'website', taskUrl: 'https://kamai.in/help' });
});

async function inHindi(account: TestAccount): Promise<Page> {
  const page = await suite.signedIn(account);
  await page.goto('/profile');
  await page.getByRole('button', { name: 'हिन्दी' }).click();
  await page.getByRole('heading', { name: 'प्रोफ़ाइल', level: 1 }).waitFor();
  return page;
}

/** No English text of the bilingual task anywhere in this part of the page. */
async function expectNoEnglish(where: Locator): Promise<void> {
  const text = await where.innerText();
  for (const line of Object.values(english)) expect(text).not.toContain(line);
}

/** The `lang` of the element holding exactly this text (null: it inherits the page's). */
const langOf = (where: Locator, text: string) => where.getByText(text, { exact: true }).getAttribute('lang');

describe('tasks in Hindi', () => {
  it('a worker reads a task with Hindi texts only in Hindi, and an English-only task marked lang="en"', async () => {
    const page = await inHindi(worker);
    await page.goto('/tasks/website');
    const card = page.getByRole('article', { name: hindi.title });
    await card.waitFor();
    await card.getByText(hindi.description).waitFor();
    await card.getByText(hindi.proofInstructions).waitFor();
    await card.getByText('4 मिनट').waitFor();
    await expectNoEnglish(card);
    expect(await card.locator('[lang="en"]').count()).toBe(0);

    const other = page.getByRole('article', { name: englishOnly.title });
    expect(await langOf(other, englishOnly.title)).toBe('en');
    expect(await langOf(other, englishOnly.description)).toBe('en');
    expect(await langOf(other, englishOnly.proofInstructions)).toBe('en');
    await other.getByText('2 मिनट').waitFor();
    await expectAccessible(page, 'task list with Hindi and English tasks (hi)');

    await card.getByRole('button', { name: tx('hi', 'tasks:card.submitProof') }).click();
    const dialog = page.getByRole('dialog', { name: tx('hi', 'tasks:proof.dialogTitle', { title: hindi.title }).replace(/<\/?task>/g, '') });
    await dialog.waitFor();
    await dialog.getByText(hindi.description).waitFor();
    await dialog.getByText(hindi.proofInstructions).waitFor();
    await dialog.getByText('4 मिनट').waitFor();
    await expectNoEnglish(dialog);
    await dialog.getByRole('button', { name: tx('hi', 'common:close') }).click();

    await other.getByRole('button', { name: tx('hi', 'tasks:card.submitProof') }).click();
    const otherDialog = page.getByRole('dialog', { name: tx('hi', 'tasks:proof.dialogTitle', { title: englishOnly.title }).replace(/<\/?task>/g, '') });
    await otherDialog.waitFor();
    expect(await langOf(otherDialog, englishOnly.title)).toBe('en');
    expect(await langOf(otherDialog, englishOnly.description)).toBe('en');
  });

  it('the review queue and the admin list show the Hindi title to Hindi staff', async () => {
    await proofByApi(suite, worker, bilingualId);
    const review = await inHindi(reviewer);
    await review.goto('/admin/review');
    const submission = review.getByTestId('submission').filter({ has: review.getByRole('heading', { name: hindi.title }) });
    await submission.waitFor();
    await expectNoEnglish(submission);

    const desk = await inHindi(admin);
    await desk.goto('/admin');
    const row = desk.getByRole('article', { name: hindi.title });
    await row.waitFor();
    await row.getByText(hindi.description).waitFor();
    await expectNoEnglish(row);
    // The form edits both languages.
    await row.getByRole('button', { name: tx('hi', 'admin:edit', { title: hindi.title }) }).click();
    const form = desk.getByRole('dialog');
    expect(await form.getByLabel(tx('hi', 'admin:form.titleHi')).inputValue()).toBe(hindi.title);
    expect(await form.getByLabel(tx('hi', 'admin:form.title'), { exact: true }).inputValue()).toBe(english.title);
    expect(await form.getByLabel(tx('hi', 'admin:form.minutes')).inputValue()).toBe('4');
  });
});
