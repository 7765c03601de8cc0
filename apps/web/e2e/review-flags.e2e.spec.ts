import { readFileSync } from 'node:fs';
import { beforeAll, describe, expect, it } from 'vitest';
import { grantRole } from './harness.ts';
import type { TestAccount } from './harness.ts';
import { expectAccessible, registeredAccount, sessionCookie, setUpBrowserSuite, waitForRole } from './helpers.ts';

/**
 * The review queue's flags on a phone: two workers send the same screenshot (one resized and
 * re-encoded as JPEG), and the queue says each looks like the other; a proof sent right after Start
 * on a 3-minute task is marked fast; the worker line is there; both languages pass axe.
 */

const suite = setUpBrowserSuite();

type Texts = { [key: string]: string | Texts };

/** A text of the review screen as the locale files have it, with its {{placeholders}} filled in. */
function tx(language: 'en' | 'hi', key: string, params: Record<string, string> = {}): string {
  const texts = JSON.parse(readFileSync(new URL(`../src/locales/${language}/review.json`, import.meta.url), 'utf8')) as Texts;
  const value = key.split('.').reduce<string | Texts | undefined>((node, part) => (typeof node === 'object' ? node[part] : undefined), texts);
  if (typeof value !== 'string') throw new Error(`no text ${language}/${key}`);
  return value.replace(/\{\{(\w+)\}\}/g, (_, name: string) => params[name] ?? '');
}

/** A picture of the committed set the near-duplicate check is measured on. */
const fixture = (name: string) => readFileSync(new URL(`../../../scripts/fixtures/proofs/${name}`, import.meta.url));

let admin: TestAccount;
let reviewer: TestAccount;

async function api(account: TestAccount, method: string, url: string, body?: unknown, headers: Record<string, string> = {}): Promise<Response> {
  const response = await fetch(`${suite.server.baseUrl}${url}`, {
    method,
    headers: { cookie: await sessionCookie(suite.server, account), Origin: suite.server.baseUrl, ...(body === undefined ? {} : { 'Content-Type': 'application/json' }), ...headers },
    body: body === undefined ? undefined : body instanceof Uint8Array ? Buffer.from(body) : JSON.stringify(body),
  });
  if (!response.ok) throw new Error(`${method} ${url} answered ${response.status}: ${await response.text()}`);
  return response;
}

beforeAll(async () => {
  admin = await registeredAccount(suite.server, 'Anil', 'Verma');
  reviewer = await registeredAccount(suite.server, 'Rekha', 'Verma');
  grantRole(suite.server, admin.mobile, 'admin');
  grantRole(suite.server, reviewer.mobile, 'reviewer');
  await waitForRole(suite.server, admin, 'admin');
  await waitForRole(suite.server, reviewer, 'reviewer');
});

async function createTask(title: string): Promise<string> {
  const created = await api(admin, 'POST', '/api/admin/tasks', {
    title,
    description: 'Rate it.',
    rupeeReward: '12.50',
    estimatedTime: '3 min',
    taskType: 'rating',
    requiresProof: true,
    isActive: true,
    iconColor: '#3B82F6',
  });
  return ((await created.json()) as { id: string }).id;
}

/** A worker who sends this picture as proof for the task, tapping Start first when asked. */
async function workerWithProof(taskId: string, firstName: string, picture: string, start = false): Promise<TestAccount> {
  const worker = await registeredAccount(suite.server, firstName, 'Das');
  if (start) await api(worker, 'POST', `/api/tasks/${taskId}/start`);
  const { uploadURL, objectURL } = (await (await api(worker, 'POST', '/api/objects/upload')).json()) as { uploadURL: string; objectURL: string };
  const target = new URL(uploadURL, suite.server.baseUrl);
  await api(worker, 'PUT', target.pathname + target.search, new Uint8Array(fixture(picture)), { 'Content-Type': picture.endsWith('.jpg') ? 'image/jpeg' : 'image/png' });
  await api(worker, 'POST', `/api/tasks/${taskId}/submit-proof`, { proofImageUrl: objectURL, proofDescription: 'Done' });
  return worker;
}

const masked = (mobile: string) => `+91 ${mobile.slice(0, 2)}${'x'.repeat(mobile.length - 4)}${mobile.slice(-2)}`;

describe('flags on /admin/review', () => {
  it('shows a re-used screenshot, fast work and the worker, in English and Hindi', async () => {
    const title = `Rate FreshCart ${Date.now()}`;
    const taskId = await createTask(title);
    const asha = await workerWithProof(taskId, 'Asha', 'shop-1.png', true);
    const bina = await workerWithProof(taskId, 'Bina', 'shop-1.resized-jpeg.jpg');
    await workerWithProof(taskId, 'Chetan', 'game-2.png');

    const page = await suite.signedIn(reviewer);
    await page.goto('/admin/review');
    const t = (key: string, params?: Record<string, string>) => tx('en', key, params);
    await page.getByRole('heading', { name: t('title') }).waitFor();
    const card = (name: string) => page.getByTestId('submission').filter({ hasText: `${name} Das` }).filter({ hasText: title });
    await card('Asha').waitFor();

    await expect.poll(() => card('Asha').getByTestId('similar-proofs').textContent()).toBe(t('flags.similar_one', { count: '1', mobiles: masked(bina.mobile) }));
    expect(await card('Bina').getByTestId('similar-proofs').textContent()).toBe(t('flags.similar_one', { count: '1', mobiles: masked(asha.mobile) }));
    expect(await card('Chetan').getByTestId('similar-proofs').count()).toBe(0);

    // Asha tapped Start and sent at once: fast against 3 minutes. The others never tapped Start.
    expect(await card('Asha').getByTestId('time-to-proof').textContent()).toMatch(/^Done in \d+ s \(fast\)$/);
    expect(await card('Bina').getByTestId('time-to-proof').textContent()).toBe(t('flags.notStarted'));
    expect(await card('Asha').getByTestId('worker').textContent()).toContain(t('flags.noDecisions'));
    await expectAccessible(page, 'review queue with flags (en)');

    await page.goto('/profile');
    await page.getByRole('button', { name: 'हिन्दी' }).click();
    await page.getByRole('heading', { name: 'प्रोफ़ाइल', level: 1 }).waitFor();
    await page.goto('/admin/review');
    const h = (key: string, params?: Record<string, string>) => tx('hi', key, params);
    await page.getByRole('heading', { name: h('title') }).waitFor();
    await card('Asha').waitFor();
    expect(await card('Asha').getByTestId('similar-proofs').textContent()).toBe(h('flags.similar_one', { count: '1', mobiles: masked(bina.mobile) }));
    expect(await card('Asha').getByTestId('time-to-proof').textContent()).toContain('(तेज़)');
    await expectAccessible(page, 'review queue with flags (hi)');
  });
});
