import { beforeAll, describe, expect, it } from 'vitest';
import { istDayOf } from '@kamai/contracts';
import type { TestAccount } from './harness.ts';
import { expectAccessible, path, registeredAccount, sessionCookie, setUpBrowserSuite, staffAccount, tx } from './helpers.ts';
import { drawPng } from './png.ts';
import { apiAs, sendProof } from './review.ts';

/**
 * The admin's audit log: actions done through the API appear with who did them (name and role),
 * on whom (masked) and the amount; the actor, action and IST date filters narrow the list; a second
 * page comes with "Load more"; the screen passes axe in English and Hindi on a 360 px phone.
 */

const suite = setUpBrowserSuite();
const { signedIn } = suite;

let admin: TestAccount;
let finance: TestAccount;
const CREDITS = 27;

beforeAll(async () => {
  admin = await staffAccount(suite.server, 'Aditi', 'Menon', 'admin');
  finance = await staffAccount(suite.server, 'Farah', 'Khan', 'finance');
});

describe('the audit log', () => {
  it('shows what staff did, narrows by actor, action and date, loads a second page, in English and Hindi', { timeout: 600_000 }, async () => {
    // Finance credits a user 27 times through the API: more than one page of the screen (25).
    const user = await registeredAccount(suite.server, 'Zenobia', 'Quill');
    const cookie = await sessionCookie(suite.server, finance);
    for (let rupees = 1; rupees <= CREDITS; rupees++) {
      const response = await fetch(`${suite.server.baseUrl}/api/admin/adjustments`, {
        method: 'POST',
        headers: { cookie, origin: suite.server.baseUrl, 'content-type': 'application/json' },
        body: JSON.stringify({ mobile: user.mobile, amount: String(rupees), direction: 'credit', reason: 'Survey reward' }),
      });
      expect(response.status).toBe(201);
    }

    // The admin reaches the screen from the staff section of Profile, on a 360 px phone.
    const desk = await signedIn(admin);
    await desk.setViewportSize({ width: 360, height: 640 });
    await desk.goto('/profile');
    await desk.getByRole('region', { name: 'Staff' }).getByRole('link', { name: 'Audit log' }).click();
    await desk.getByRole('heading', { name: 'Audit log', level: 1 }).waitFor();
    expect(path(desk)).toBe('/admin/audit');

    // Newest first: the last credit, by Farah (Finance), for Zenobia with her mobile masked.
    const entries = desk.getByTestId('audit-entry');
    const newest = entries.first();
    await newest.getByRole('heading', { name: 'Wallet credited by adjustment' }).waitFor();
    await newest.getByText('₹27.00', { exact: true }).waitFor();
    await newest.getByText('Farah Khan · Finance', { exact: true }).waitFor();
    const masked = `+91 ${user.mobile.slice(0, 2)}xxxxxx${user.mobile.slice(-2)}`;
    await newest.getByText(`Zenobia Quill · ${masked}`, { exact: true }).waitFor();
    expect(await newest.textContent()).not.toContain(user.mobile);
    await newest.getByText(/ IST$/).waitFor();
    await expectAccessible(desk, '/admin/audit (en)');
    expect(await desk.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(360);

    // By action: only the role grants (made by the CLI before the test).
    await desk.getByLabel('Action', { exact: true }).selectOption({ label: 'Role granted' });
    await desk.getByText('Showing all 2 entries.', { exact: true }).waitFor();
    expect(await entries.getByRole('heading').allTextContents()).toEqual(['Role granted', 'Role granted']);

    // By actor and action: Farah's credits, a page of 25, then the second page.
    await desk.getByLabel('Done by', { exact: true }).selectOption({ label: 'Farah Khan · Finance' });
    await desk.getByLabel('Action', { exact: true }).selectOption({ label: 'Wallet credited by adjustment' });
    await desk.getByText('Showing 25 entries. More are available.', { exact: true }).waitFor();
    // The filters are in the address: a reload (or a shared link) shows the same selection.
    await expect.poll(() => new URL(desk.url()).searchParams.get('action')).toBe('adjustment_credited');
    expect(new URL(desk.url()).searchParams.get('actor')).toMatch(/^[0-9a-f-]{36}$/);
    await desk.reload();
    await desk.getByText('Showing 25 entries. More are available.', { exact: true }).waitFor();
    expect(await desk.getByLabel('Action', { exact: true }).inputValue()).toBe('adjustment_credited');
    await expect.poll(() => desk.getByLabel('Done by', { exact: true }).locator('option:checked').textContent()).toBe('Farah Khan · Finance');
    await expect.poll(() => entries.count()).toBe(25);
    await desk.getByRole('button', { name: 'Load more', exact: true }).click();
    await desk.getByText(`Showing all ${CREDITS} entries.`, { exact: true }).waitFor();
    await expect.poll(() => entries.count()).toBe(CREDITS);
    await entries.last().getByText('₹1.00', { exact: true }).waitFor();
    expect(await desk.getByRole('button', { name: 'Load more', exact: true }).count()).toBe(0);

    // By IST days: nothing from tomorrow on; yesterday to today holds them all.
    const day = 24 * 60 * 60 * 1000;
    await desk.getByLabel('From (IST)', { exact: true }).fill(istDayOf(new Date(Date.now() + day)));
    await desk.getByText('No entries match these filters.', { exact: true }).waitFor();
    await desk.getByLabel('From (IST)', { exact: true }).fill(istDayOf(new Date(Date.now() - day)));
    await desk.getByLabel('To (IST, included)', { exact: true }).fill(istDayOf(new Date()));
    await desk.getByText('Showing 25 entries. More are available.', { exact: true }).waitFor();
    // A range that ends before it starts is refused by the server, in the reader's words.
    await desk.getByLabel('To (IST, included)', { exact: true }).fill(istDayOf(new Date(Date.now() - 2 * day)));
    await desk.getByText('The end date must not be before the start date').waitFor();
    await desk.getByRole('button', { name: 'Clear filters', exact: true }).click();
    await newest.getByText('₹27.00', { exact: true }).waitFor();
    expect(new URL(desk.url()).search).toBe('');

    // In Hindi: the actions and roles in the reader's language, axe-clean at 360 px.
    await desk.goto('/profile');
    await desk.getByRole('button', { name: 'हिन्दी' }).click();
    await desk.waitForFunction(() => document.documentElement.lang === 'hi');
    await desk.goto('/admin/audit');
    await desk.getByRole('heading', { name: 'ऑडिट लॉग', level: 1 }).waitFor();
    await newest.getByRole('heading', { name: 'समायोजन से वॉलेट में जमा' }).waitFor();
    await newest.getByText('Farah Khan · फ़ाइनेंस', { exact: true }).waitFor();
    await expectAccessible(desk, '/admin/audit (hi)');
    expect(await desk.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(360);
  });
});

/**
 * The admin's reviewer figures on a wide screen (the every-screen walker measures the phone cards):
 * a reviewer's approval and rejection in the table, the team's rate, axe in English and Hindi, and
 * a range with no decision, then one ending before it starts. Runs after the audit case: its
 * proofs and role grants would be in that case's list.
 */
describe('reviewer figures', () => {
  it('shows each reviewer in a table with the team rate, in English and Hindi; an empty range and a backwards one', { timeout: 120_000 }, async () => {
    const reviewer = await staffAccount(suite.server, 'Rekha', 'Verma', 'reviewer');
    const worker = await registeredAccount(suite.server, 'Meena', 'Joshi');
    const api = (account: TestAccount, method: string, url: string, body?: unknown) => apiAs(suite.server, account, method, url, body);
    for (const [index, title] of ['Rate the Kamai app', 'Visit the Kamai website'].entries()) {
      const body = { title, description: 'Try it.', rupeeReward: '10', estimatedTime: '2 min', taskType: 'rating', requiresProof: true, isActive: true, iconColor: '#3B82F6' };
      const task = (await (await api(admin, 'POST', '/api/admin/tasks', body)).json()) as { id: string };
      await sendProof(suite.server, worker, task.id, drawPng(24, 16, (x, y) => [index * 120, x * 9, y * 13]));
    }
    const queue = (await (await api(reviewer, 'GET', '/api/admin/submissions?status=submitted')).json()) as Array<{ id: string }>;
    await api(reviewer, 'POST', `/api/admin/submissions/${queue[0]!.id}/approve`, {});
    await api(reviewer, 'POST', `/api/admin/submissions/${queue[1]!.id}/reject`, { reason: 'The screenshot is blurred' });

    // The audit case chose Hindi on the admin's account, and an account's language wins after
    // sign-in: each language is set on the account before the screen is read in it.
    const speak = async (language: 'en' | 'hi') => expect((await api(admin, 'PUT', '/api/profile', { language })).status).toBe(200);
    await speak('en');
    const page = await signedIn(admin);
    await page.setViewportSize({ width: 1280, height: 800 });
    for (const language of ['en', 'hi'] as const) {
      await speak(language);
      await page.evaluate((lang) => localStorage.setItem('kamai.language', lang), language);
      await page.goto('/admin/reviewers');
      const row = page.getByTestId('reviewer-row').filter({ hasText: 'Rekha Verma' });
      await row.waitFor();
      await page.waitForFunction((lang) => document.documentElement.lang === lang, language);
      // Decisions, approved, rejected, changes asked, rejection rate, appeals lost.
      expect((await row.locator('td').allInnerTexts()).slice(0, 6)).toEqual(['2', '1', '1', '0', '50%', '0']);
      await expect.poll(() => page.getByTestId('team-rate').innerText()).toContain('50%');
      await expectAccessible(page, `reviewer figures (${language}, 1280 px)`);
    }

    // A range after today: nothing decided. Then an end before the start: the field says so.
    await page.getByLabel(tx('hi', 'reviewers:range.from')).fill(istDayOf(new Date(Date.now() + 86_400_000)));
    await page.getByText(tx('hi', 'reviewers:empty')).waitFor();
    await page.getByLabel(tx('hi', 'reviewers:range.to')).fill(istDayOf(new Date()));
    await expect.poll(() => page.getByLabel(tx('hi', 'reviewers:range.to')).getAttribute('aria-invalid')).toBe('true');
  });
});
