import { readFileSync } from 'node:fs';
import { maskMobile } from '@kamai/contracts';
import { beforeAll, describe, expect, it } from 'vitest';
import { apiAs, reviewStaff, reviewText, sendProof } from './review.ts';
import type { TestAccount } from './harness.ts';
import { expectAccessible, registeredAccount, setUpBrowserSuite } from './helpers.ts';

/**
 * The review queue's flags on a phone: two workers send the same screenshot (one resized and
 * re-encoded as JPEG), and the queue says each looks like the other; a proof sent right after Start
 * on a 3-minute task is marked fast; the worker line is there; both languages pass axe.
 */

const suite = setUpBrowserSuite();

const tx = reviewText;

/** A picture of the committed set the near-duplicate check is measured on. */
const fixture = (name: string) => readFileSync(new URL(`../../../scripts/fixtures/proofs/${name}`, import.meta.url));

let admin: TestAccount;
let reviewer: TestAccount;

const api = (account: TestAccount, method: string, url: string, body?: unknown, headers?: Record<string, string>) =>
  apiAs(suite.server, account, method, url, body, headers);

beforeAll(async () => {
  ({ admin, reviewer } = await reviewStaff(suite.server));
});

async function createTask(title: string): Promise<string> {
  const created = await api(admin, 'POST', '/api/admin/tasks', {
    title,
    description: 'Rate the shop and send a screenshot.',
    rupeeReward: '8',
    // Three minutes: a proof within 45 s of Start is fast.
    estimatedTime: '3 min',
    taskType: 'rating',
  });
  return ((await created.json()) as { id: string }).id;
}

/** A worker who sends this picture as proof for the task, tapping Start first when asked. */
async function workerWithProof(taskId: string, firstName: string, picture: string, start = false): Promise<TestAccount> {
  const worker = await registeredAccount(suite.server, firstName, 'Das');
  if (start) await api(worker, 'POST', `/api/tasks/${taskId}/start`);
  await sendProof(suite.server, worker, taskId, new Uint8Array(fixture(picture)), picture.endsWith('.jpg') ? 'image/jpeg' : 'image/png');
  return worker;
}

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

    await expect.poll(() => card('Asha').getByTestId('similar-proofs').textContent()).toBe(t('flags.similar_one', { count: '1', mobiles: maskMobile(bina.mobile) }));
    expect(await card('Bina').getByTestId('similar-proofs').textContent()).toBe(t('flags.similar_one', { count: '1', mobiles: maskMobile(asha.mobile) }));
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
    expect(await card('Asha').getByTestId('similar-proofs').textContent()).toBe(h('flags.similar_one', { count: '1', mobiles: maskMobile(bina.mobile) }));
    expect(await card('Asha').getByTestId('time-to-proof').textContent()).toContain('(तेज़)');
    await expectAccessible(page, 'review queue with flags (hi)');
  });
});
