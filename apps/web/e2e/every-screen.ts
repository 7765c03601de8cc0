import { afterEach, beforeAll, describe, expect, it } from 'vitest';
import type { Page } from 'playwright-core';
import type { TestAccount } from './harness.ts';
import { writePreConsentAccount } from './harness.ts';
import { apiAs, expectAccessible, registeredAccount, setUpBrowserSuite, signIn, staffAccount, submitLogin, testAccount, tx, openSignIn } from './helpers.ts';
import { WEBHOOK_EVENT_KINDS, istDayOf } from '@kamai/contracts';
import { drawPng } from './png.ts';

/**
 * Every screen on a small phone (360×640 and 320×640), in English and in Hindi: nothing wider than the screen,
 * every control inside each card, frame or strip drawn around it,
 * every control a 44×44 CSS px target (WCAG 2.5.5, the app's own rule), and axe clean. The states
 * that matter are built through the API first: unread notifications, a refund note and a failed
 * payout on the wallet, a proof and a KYC document waiting for review, a pending withdrawal.
 */

/**
 * The walk is split by role into files (every-screen-<part>.e2e.spec.ts), each with its own server and
 * browser, so that they run beside each other: one file walking every role took 10 minutes, the long
 * pole of CI. Each file builds the same states below and walks its part of SCREENS.
 */
let suite: ReturnType<typeof setUpBrowserSuite>;

type Language = 'en' | 'hi';
export type Role = 'guest' | 'worker' | 'reviewer' | 'finance' | 'admin' | 'unconsented';
type T = (key: string, params?: Record<string, string | number>) => string;

export interface Screen {
  /** What a failure names. */
  name: string;
  /** Who looks at it: each role has one page, signed in once, reused for all its screens. */
  role: Role;
  path: string;
  /** Brings the screen into the state to measure (opens a dialog, picks a tab) once it has loaded. */
  reach?: (page: Page, t: T) => Promise<void>;
}

/** The one list of what is measured. */
export const SCREENS: Screen[] = [
  // Signed out.
  { name: 'login', role: 'guest', path: '/login' },
  { name: 'register', role: 'guest', path: '/register' },
  { name: 'forgot password', role: 'guest', path: '/forgot-password' },
  { name: 'privacy policy', role: 'guest', path: '/privacy-policy' },
  { name: 'delete account', role: 'guest', path: '/delete-account' },
  { name: 'not found', role: 'guest', path: '/no-such-page' },

  // A worker with unread notifications, a failed payout, a refund, a pending withdrawal and KYC under review.
  { name: 'home with unread badge', role: 'worker', path: '/', reach: (page) => page.getByTestId('unread-count').first().waitFor() },
  { name: 'categories', role: 'worker', path: '/tasks/categories' },
  { name: 'all tasks', role: 'worker', path: '/tasks' },
  { name: 'rating tasks', role: 'worker', path: '/tasks/rating' },
  { name: 'games tasks', role: 'worker', path: '/tasks/games' },
  { name: 'website tasks', role: 'worker', path: '/tasks/website' },
  {
    name: 'proof dialog',
    role: 'worker',
    path: '/tasks/rating',
    reach: async (page, t) => {
      await page.getByRole('article', { name: OPEN_TASK }).getByRole('button', { name: t('tasks:card.submitProof') }).click();
      await page.getByRole('dialog').waitFor();
    },
  },
  {
    name: 'wallet with a refund and a returned payout',
    role: 'worker',
    path: '/wallet',
    reach: (page, t) => page.getByTestId('withdrawal-status').getByText(t('wallet:status.reversed'), { exact: true }).first().waitFor(),
  },
  {
    name: 'withdrawal details of a returned payout',
    role: 'worker',
    path: '/wallet',
    reach: async (page, t) => {
      await page
        .getByTestId('activity-row')
        .filter({ has: page.getByTestId('withdrawal-status').getByText(t('wallet:status.reversed'), { exact: true }) })
        .first()
        .getByRole('button')
        .click();
      await page.getByRole('dialog', { name: t('wallet:detail.title') }).waitFor();
    },
  },
  {
    name: 'withdrawal dialog',
    role: 'worker',
    path: '/wallet',
    reach: async (page, t) => {
      await page.getByRole('button', { name: t('wallet:withdrawMoney') }).click();
      await page.getByRole('dialog').waitFor();
    },
  },
  { name: 'KYC under review', role: 'worker', path: '/kyc' },
  { name: 'profile with unread notifications', role: 'worker', path: '/profile' },
  { name: 'change password', role: 'worker', path: '/security/password' },
  { name: 'devices', role: 'worker', path: '/security/devices' },
  // Last for the worker: opening the list reads the notifications.
  {
    name: 'notifications',
    role: 'worker',
    path: '/profile',
    reach: async (page, t) => {
      await page.getByRole('button', { name: new RegExp(`^${t('profile:rows.notifications')}`) }).click();
      await page.getByRole('dialog').getByRole('listitem').first().waitFor();
    },
  },

  // Staff.
  { name: 'review queue', role: 'reviewer', path: '/admin/review' },
  {
    name: 'review queue, all selected',
    role: 'reviewer',
    path: '/admin/review',
    reach: (page, t) => page.getByRole('button', { name: t('review:selectAll') }).click(),
  },
  {
    name: 'reject dialog with its canned reasons',
    role: 'reviewer',
    path: '/admin/review',
    reach: async (page, t) => {
      await page.getByRole('button', { name: t('review:reject'), exact: true }).first().click();
      await page.getByRole('dialog').getByRole('group', { name: t('review:cannedReasons') }).waitFor();
    },
  },
  { name: 'KYC review', role: 'reviewer', path: '/admin/kyc' },
  // The payout float (nothing funded, payouts made) is below the warning level set below: the card warns.
  { name: 'finance queue', role: 'finance', path: '/admin/finance', reach: (page) => page.getByTestId('balances-card').getByRole('status').first().waitFor() },
  ...(['batches', 'history', 'ledger', 'reconciliation', 'months', 'tax'] as const).map(
    (tab): Screen => ({
      name: `finance ${tab}`,
      role: 'finance',
      path: '/admin/finance',
      reach: (page, t) => page.getByRole('tab', { name: t(`finance:tabs.${tab}`) }).click(),
    }),
  ),
  {
    name: 'finance history, returning a paid payout',
    role: 'finance',
    path: '/admin/finance',
    reach: async (page, t) => {
      await page.getByRole('tab', { name: t('finance:tabs.history') }).click();
      await page.getByRole('row').filter({ hasText: 'UTRSWEEP0002' }).getByRole('button', { name: t('finance:reverse.action') }).click();
      await page.getByRole('dialog').waitFor();
    },
  },
  {
    name: 'finance funding confirmation',
    role: 'finance',
    path: '/admin/finance',
    reach: async (page, t) => {
      await page.getByRole('tab', { name: t('finance:tabs.reconciliation') }).click();
      await page.getByLabel(t('finance:funding.amount')).fill('2500');
      await page.getByLabel(t('finance:funding.reference')).fill('NEFT-SWEEP-0001');
      await page.getByLabel(t('finance:funding.date')).fill(istDayOf(new Date()));
      await page.getByRole('button', { name: t('finance:funding.record') }).click();
      await page.getByRole('dialog').waitFor();
    },
  },
  { name: 'admin tasks and the add-task form', role: 'admin', path: '/admin' },
  {
    name: 'admin edit-task dialog',
    role: 'admin',
    path: '/admin',
    reach: async (page, t) => {
      await page.getByRole('button', { name: t('admin:edit', { title: OPEN_TASK }) }).click();
      await page.getByRole('dialog').getByRole('textbox').first().waitFor();
    },
  },
  { name: 'account deletions', role: 'admin', path: '/admin/deletions' },
  { name: 'settings', role: 'admin', path: '/admin/settings' },
  { name: 'audit log', role: 'admin', path: '/admin/audit' },
  { name: 'staff home with queue counts', role: 'reviewer', path: '/' },
  { name: 'staff home of finance', role: 'finance', path: '/' },
  { name: 'webhooks', role: 'admin', path: '/admin/webhooks', reach: (page) => page.getByTestId('webhook-endpoint').first().waitFor() },
  {
    name: 'webhook registration',
    role: 'admin',
    path: '/admin/webhooks',
    reach: async (page, t) => {
      await page.getByRole('button', { name: t('webhooks:register') }).click();
      await page.getByRole('dialog').getByLabel(t('webhooks:url')).waitFor();
    },
  },
  {
    name: 'webhook secret, shown once',
    role: 'admin',
    path: '/admin/webhooks',
    reach: async (page, t) => {
      await page.getByRole('button', { name: t('webhooks:register') }).click();
      await page.getByRole('dialog').getByLabel(t('webhooks:url')).fill('https://bi.example.invalid/kamai');
      await page.getByRole('dialog').getByRole('button', { name: t('webhooks:registerSubmit') }).click();
      await page.getByTestId('webhook-secret').waitFor();
    },
  },
  {
    name: 'webhook delivery log',
    role: 'admin',
    path: '/admin/webhooks',
    reach: async (page, t) => {
      await page.getByRole('button', { name: t('webhooks:log') }).first().click();
      await page.getByTestId('webhook-deliveries').waitFor();
    },
  },
  // The reviewer's decisions in the setup, counted (one approval, one request for changes, two
  // rejections): the card names them with their figures.
  {
    name: 'reviewer figures',
    role: 'admin',
    path: '/admin/reviewers',
    reach: async (page, t) => {
      const card = page.getByTestId('reviewer-card').filter({ hasText: 'Rekha Iyer' });
      await card.waitFor();
      const figure = async (column: string) => (await card.locator('dt', { hasText: new RegExp(`^${t(`reviewers:column.${column}`)}$`) }).locator('xpath=following-sibling::dd[1]').innerText()).trim();
      expect([await figure('decisions'), await figure('approvals'), await figure('rejections'), await figure('rejectionRate')]).toEqual(['4', '1', '2', '50%']);
    },
  },
  // Someone registered before consent was asked: every signed-in screen leads to this one.
  { name: 'consent', role: 'unconsented', path: '/consent' },
  // The alert choices, loaded (their checkboxes are the targets measured).
  {
    name: 'profile alerts outside the app',
    role: 'worker',
    path: '/profile',
    reach: async (page, t) => {
      await page.getByRole('checkbox', { name: t('profile:alerts.kinds.payout_paid') }).waitFor();
      await page.getByTestId('alerts-section').scrollIntoViewIfNeeded();
    },
  },
  // Needs changes and appeals (issue 36): the worker's cards and dialogs, the reviewer's.
  {
    name: 'rating tasks needing changes, appealable and appealed',
    role: 'worker',
    path: '/tasks/rating',
    reach: async (page) => {
      await page.getByTestId('changes-requested').first().waitFor();
      await page.getByTestId('appeal-state').first().waitFor();
      await page.getByTestId('appeal-by').first().waitFor();
    },
  },
  {
    name: 'resubmit proof dialog',
    role: 'worker',
    path: '/tasks/rating',
    reach: async (page, t) => {
      await page.getByRole('article', { name: CHANGES_TASK }).getByRole('button', { name: t('tasks:card.resubmit') }).click();
      await page.getByRole('dialog').getByTestId('changes-requested').waitFor();
    },
  },
  {
    name: 'appeal dialog',
    role: 'worker',
    path: '/tasks/rating',
    reach: async (page, t) => {
      await page.getByRole('article', { name: APPEALABLE_TASK }).getByRole('button', { name: t('tasks:card.appeal'), exact: true }).click();
      await page.getByRole('dialog').getByRole('textbox').waitFor();
    },
  },
  {
    name: 'request changes dialog',
    role: 'reviewer',
    path: '/admin/review',
    reach: async (page, t) => {
      await page.getByRole('button', { name: t('review:requestChanges') }).first().click();
      await page.getByRole('dialog').getByRole('group', { name: t('review:cannedReasons') }).waitFor();
    },
  },
  { name: 'appeals queue', role: 'reviewer', path: '/admin/appeals', reach: (page) => page.getByTestId('appeal').first().waitFor() },
  {
    name: 'appeal decision dialog',
    role: 'reviewer',
    path: '/admin/appeals',
    reach: async (page, t) => {
      await page.getByTestId('appeal').first().getByRole('button', { name: t('review:appeals.overturn') }).click();
      await page.getByRole('dialog').getByRole('textbox').waitFor();
    },
  },
  // The invite card, with its link and share button (docs/invitations.md).
  {
    name: 'profile invite friends',
    role: 'worker',
    path: '/profile',
    reach: async (page) => {
      await page.getByTestId('invite-link').waitFor();
      await page.getByTestId('invite-section').scrollIntoViewIfNeeded();
    },
  },
  { name: 'register by an invite link', role: 'guest', path: '/register?invite=ABCD2345' },
  { name: 'finance invitations', role: 'finance', path: '/admin/invitations' },
];

/** Issue 36's states: a proof sent back for changes, a rejection that may be appealed, one appealed. */
const CHANGES_TASK = 'Rate the chai stall';
const APPEALABLE_TASK = 'Rate the tea shop';
const APPEALED_TASK = 'Rate the bus app';

/** A task nobody has done: its proof dialog and its edit dialog are opened. */
const OPEN_TASK = 'Rate a shop near you';
/** The phones measured: a common 360 px Android and the narrowest still sold (320 px). */
const WIDTHS = [360, 320] as const;
const HEIGHT = 640;
const MIN_TARGET = 44;


/**
 * The interactive elements the person can see (inside an open dialog only, when one is open) that
 * break the rules: wider than the screen, or a target under 44×44 whose labels are no bigger.
 * Exempt by rule, not by name: a link inline in a sentence (WCAG 2.5.8's inline exception: its
 * height is the line's), a native control that is visually hidden (1 px; its label is measured),
 * and what is disabled.
 */
export function offenders(page: Page, width: number) {
  return page.evaluate(
    ({ width, min }) => {
      const selector = [
        'a[href]',
        'button',
        'input:not([type=hidden])',
        'select',
        'textarea',
        'summary',
        ...['button', 'tab', 'checkbox', 'radio', 'switch', 'link'].map((role) => `[role=${role}]`),
      ].join(',');
      const dialogs = [...document.querySelectorAll('[role=dialog],[role=alertdialog]')].filter((d) => d.checkVisibility());
      const scope = dialogs.at(-1) ?? document;
      const describe = (element: Element) =>
        `${element.tagName.toLowerCase()}${element.getAttribute('role') ? `[role=${element.getAttribute('role')}]` : ''} "${(
          element.getAttribute('aria-label') ??
          element.textContent ??
          ''
        )
          .trim()
          .slice(0, 40)}"`;
      const isInlineInText = (element: Element) => {
        if (element.tagName !== 'A' || getComputedStyle(element).display !== 'inline') return false;
        const block = element.parentElement;
        return !!block && (block.textContent ?? '').trim().length > (element.textContent ?? '').trim().length;
      };
      // The boxes a person sees around a control: an ancestor drawing a background, a border or a
      // shadow (a card, a field's frame, a tab strip, a dialog). A control must lie inside every one
      // of them: sideways always; up and down only inside the first one that scrolls (what is scrolled
      // out of a dialog is still inside its card). A fixed ancestor (the bottom bar, a dialog) is the
      // last one asked: it does not sit inside what contains it in the document.
      const draws = (style: CSSStyleDeclaration) =>
        style.backgroundColor !== 'rgba(0, 0, 0, 0)' ||
        style.boxShadow !== 'none' ||
        ['Top', 'Right', 'Bottom', 'Left'].some((side) => parseFloat(style.getPropertyValue(`border-${side.toLowerCase()}-width`)) > 0);
      const named = (element: Element) => `${element.tagName.toLowerCase()}.${[...element.classList].slice(0, 4).join('.')}`;
      const outside = (element: Element, box: DOMRect): string | null => {
        if (box.width <= 1 || box.height <= 1) return null;
        let vertical = true;
        for (let ancestor = element.parentElement; ancestor && ancestor !== document.body; ancestor = ancestor.parentElement) {
          const style = getComputedStyle(ancestor);
          // A box that scrolls holds more than it shows, up and down: from here on only sideways counts.
          if (style.overflowY !== 'visible') vertical = false;
          if (draws(style)) {
            const around = ancestor.getBoundingClientRect();
            const sideways = box.left < around.left - 0.5 || box.right > around.right + 0.5;
            const upDown = vertical && (box.top < around.top - 0.5 || box.bottom > around.bottom + 0.5);
            if (sideways || upDown)
              return `${named(ancestor)} (${Math.round(box.left)}..${Math.round(box.right)} × ${Math.round(box.top)}..${Math.round(box.bottom)} in ${Math.round(around.left)}..${Math.round(around.right)} × ${Math.round(around.top)}..${Math.round(around.bottom)})`;
          }
          if (style.position === 'fixed') break;
        }
        return null;
      };
      const problems: string[] = [];
      if (document.documentElement.scrollWidth > width) problems.push(`the page scrolls sideways: ${document.documentElement.scrollWidth} px wide`);
      for (const element of scope.querySelectorAll(selector)) {
        if (!element.checkVisibility({ visibilityProperty: true, opacityProperty: true })) continue;
        if ((element as HTMLButtonElement).disabled || element.closest('[inert]')) continue;
        const box = element.getBoundingClientRect();
        if (box.width <= 1 || box.height <= 1) {
          // Visually hidden native controls: the label that shows is the target.
          if (!(element instanceof HTMLInputElement)) continue;
        }
        if (box.left < -0.5 || box.right > width + 0.5) problems.push(`${describe(element)} sticks out: ${Math.round(box.left)}..${Math.round(box.right)}`);
        const container = outside(element, box);
        if (container) problems.push(`${describe(element)} sticks out of its ${container}`);
        if (isInlineInText(element)) continue;
        const labels = element instanceof HTMLInputElement || element instanceof HTMLSelectElement || element instanceof HTMLTextAreaElement ? [...(element.labels ?? [])] : [];
        const areas = [element, ...labels].map((target) => target.getBoundingClientRect());
        if (!areas.some((area) => area.width >= min - 0.5 && area.height >= min - 0.5))
          problems.push(`${describe(element)} is ${Math.round(box.width)}×${Math.round(box.height)}`);
      }
      return problems;
    },
    { width, min: MIN_TARGET },
  );
}

/** The screen has loaded: its heading shows, the network is quiet and no skeleton or spinner is left. */
async function settled(page: Page): Promise<void> {
  await page.locator('h1').first().waitFor();
  await page.waitForLoadState('networkidle');
  await page.waitForFunction(() => document.querySelectorAll('.animate-pulse, .animate-spin').length === 0);
}

/** What is wrong with one screen in one language: every finding, so that one run lists them all. */
async function measure(page: Page, screen: Screen, language: Language, width: number): Promise<string[]> {
  const t: T = (key, params) => tx(language, key, params);
  const what = `${screen.name} (${language}, ${width} px)`;
  const failed = (error: unknown) => `${what}: ${error instanceof Error ? error.message.split('\n')[0] : String(error)}`;
  try {
    await page.goto(screen.path);
    await page.waitForFunction((lang) => document.documentElement.lang === lang, language);
    await settled(page);
    if (screen.reach) {
      await screen.reach(page, t);
      await settled(page);
    }
  } catch (error) {
    return [`${failed(error)} (the state was not reached)`];
  }
  const findings = (await offenders(page, width)).map((problem) => `${what}: ${problem}`);
  try {
    await expectAccessible(page, what);
  } catch (error) {
    // The assertion's actual value is axe's report: each rule with the elements it names.
    const report = (error as { actual?: unknown }).actual;
    findings.push(`axe on ${what}: ${Array.isArray(report) ? report.join('; ') : String(error)}`);
  }
  return findings;
}

// ---- The states, built through the API ----

let admin: TestAccount;
let reviewer: TestAccount;
/** Credits the worker; the other finance member (`payer`) settles the worker's withdrawals. */
let funder: TestAccount;
let payer: TestAccount;
let worker: TestAccount;
/** Registered before consent was asked: signed in, on the consent screen. */
let unconsented: TestAccount;

const api = (account: TestAccount, method: string, url: string, body?: unknown, headers?: Record<string, string>) => apiAs(suite.server, account, method, url, body, headers);

const idOf = async (response: Promise<Response>) => ((await (await response).json()) as { id: string }).id;

let drawn = 0;
/** An uploaded image of the worker's, different each time (the server refuses repeats). */
async function upload(account: TestAccount, purpose: 'proof' | 'kyc' = 'proof'): Promise<string> {
  const { uploadURL, objectURL } = (await (await api(account, 'POST', '/api/objects/upload', { purpose })).json()) as { uploadURL: string; objectURL: string };
  drawn += 1;
  const target = new URL(uploadURL, suite.server.baseUrl);
  await api(account, 'PUT', target.pathname + target.search, drawPng(32, 20, (x, y) => [(drawn * 47) % 256, x * 7, y * 11]), { 'Content-Type': 'image/png' });
  return objectURL;
}

const task = (title: string, taskType: string) =>
  idOf(api(admin, 'POST', '/api/admin/tasks', { title, description: 'Try it and tell us.', rupeeReward: '12.50', estimatedTime: '3 min', taskType, requiresProof: true, isActive: true, iconColor: '#3B82F6' }));

/** A withdrawal the payer rejects: the amount comes back with a note, and an unread notification. */
async function refundedWithdrawal(amount: string): Promise<void> {
  const id = await idOf(api(worker, 'POST', '/api/withdrawals', { amount, upiId: 'asha.rao@okaxis' }));
  await api(payer, 'POST', `/api/admin/withdrawals/${id}/reject`, { reason: 'UPI ID not found' });
}

async function buildStates(): Promise<void> {
  [admin, reviewer, funder, payer, worker] = await Promise.all([
    staffAccount(suite.server, 'Anil', 'Mehta', 'admin'),
    staffAccount(suite.server, 'Rekha', 'Iyer', 'reviewer'),
    staffAccount(suite.server, 'Kiran', 'Bose', 'finance'),
    staffAccount(suite.server, 'Dev', 'Malik', 'finance'),
    registeredAccount(suite.server, 'Asha', 'Rao'),
  ]);
  unconsented = testAccount('Purana', 'Sadasya');
  writePreConsentAccount(suite.server, unconsented);

  // A finance tool's endpoint, registered first: the events below fill its delivery log (its host
  // never resolves, so they stay pending with their error).
  await api(admin, 'POST', '/api/admin/webhooks', { url: 'https://books.example.invalid/kamai', events: [...WEBHOOK_EVENT_KINDS] });

  // A task of each kind; one rating task proved (in the review queue), one left open.
  const proved = await task('Rate the Kamai app', 'rating');
  await task(OPEN_TASK, 'rating');
  const played = await task('Play Ludo for five minutes', 'game');
  await task('Visit the Kamai website', 'website');
  await api(worker, 'POST', `/api/tasks/${proved}/submit-proof`, { proofImageUrl: await upload(worker), proofDescription: 'Rated five stars.' });
  // One proof approved, for the reviewer figures.
  const approved = await idOf(api(worker, 'POST', `/api/tasks/${played}/submit-proof`, { proofImageUrl: await upload(worker), proofDescription: 'Played a round.' }));
  await api(reviewer, 'POST', `/api/admin/submissions/${approved}/approve`, {});

  // Sent back for changes, rejected (appealable) and rejected then appealed, each by the reviewer.
  const turnedDown = async (title: string, decision: 'request-changes' | 'reject') => {
    const id = await task(title, 'rating');
    await api(worker, 'POST', `/api/tasks/${id}/submit-proof`, { proofImageUrl: await upload(worker), proofDescription: 'Rated four stars.' });
    const mine = (await (await api(worker, 'GET', '/api/user-tasks')).json()) as { taskId: string; submissionId: string }[];
    const { submissionId } = mine.find((t) => t.taskId === id)!;
    await api(reviewer, 'POST', `/api/admin/submissions/${submissionId}/${decision}`, { reason: 'The screenshot does not show your review' });
    return submissionId;
  };
  await turnedDown(CHANGES_TASK, 'request-changes');
  await turnedDown(APPEALABLE_TASK, 'reject');
  await api(worker, 'POST', `/api/submissions/${await turnedDown(APPEALED_TASK, 'reject')}/appeal`, { note: 'My review is at the top of the screenshot' });

  // A KYC document under review.
  await api(worker, 'POST', '/api/kyc/documents', { documentType: 'voter_id', frontImageUrl: await upload(worker, 'kyc'), backImageUrl: await upload(worker, 'kyc') });

  // Money: credited by one finance member, settled by the other. One payout paid and then failed
  // (returned by the bank), one paid, one refunded, one waiting in the finance queue.
  await api(funder, 'POST', '/api/admin/adjustments', { mobile: worker.mobile, amount: '1000', direction: 'credit', reason: 'Welcome bonus' });
  const paid = await idOf(api(worker, 'POST', '/api/withdrawals', { amount: '100.00', upiId: 'asha.rao@okaxis' }));
  await api(payer, 'POST', `/api/admin/withdrawals/${paid}/paid`, { reference: 'UTRSWEEP0001' });
  await api(payer, 'POST', `/api/admin/withdrawals/${paid}/reverse`, { reason: 'Account closed' });
  // One paid and kept: finance's History offers to mark it returned.
  const kept = await idOf(api(worker, 'POST', '/api/withdrawals', { amount: '100.00', upiId: 'asha.rao@okaxis' }));
  await api(payer, 'POST', `/api/admin/withdrawals/${kept}/paid`, { reference: 'UTRSWEEP0002' });
  await refundedWithdrawal('100.00');
  await api(worker, 'POST', '/api/withdrawals', { amount: '100.00', upiId: 'asha.rao@okaxis' });
  // A warning level the float is below: finance's home shows the balance's warning (a plain setting).
  await api(admin, 'PUT', '/api/admin/settings', { payoutFloatWarnBelow: '5000.00' });
}


const accountOf = (role: Exclude<Role, 'guest'>): TestAccount => ({ worker, reviewer, finance: payer, admin, unconsented })[role];

/** Switches the app's language on this device (kept across navigations), as the switch on Profile does. */
async function chooseLanguage(page: Page, language: Language): Promise<void> {
  // Both places the app keeps it: the server draws /login's form in the cookie's language.
  await page.evaluate((lang) => {
    localStorage.setItem('kamai.language', lang);
    document.cookie = `kamai_lang=${lang}; path=/`;
  }, language);
}

/** One file's part of the walk: a role's screens, or those of them `screens` keeps. */
export interface Part {
  role: Role;
  screens?: (screen: Screen) => boolean;
}

/**
 * Registers one spec file's walk: its own server and browser, the states built through the API, and
 * one test per part (a role's page, signed in once, walks its screens in both languages at both widths).
 */
export function walkScreens(parts: Part[]): void {
  suite = setUpBrowserSuite();
  // Six files build their states at once on a loaded machine: 120 s was nearly used up at a load of 23.
  beforeAll(buildStates, 240_000);
  // A failed test shows what the server said meanwhile.
  afterEach(({ task: test }) => {
    if (test.result?.state === 'fail') console.error(suite.server.output().slice(-4000));
  });
  describe('every screen at 360 and 320 px, in English and Hindi: inside the screen and its cards, 44 px targets, axe clean', () => {
    for (const { role, screens: keep = () => true } of parts) {
      const screens = SCREENS.filter((s) => s.role === role && keep(s));
      it(`${role} screens (${screens.length})`, async () => {
        const page = await suite.phone();
        await page.setViewportSize({ width: WIDTHS[0], height: HEIGHT });
        if (role === 'guest') await openSignIn(page);
        else if (role === 'unconsented') {
          await openSignIn(page);
          await submitLogin(page, unconsented);
          await page.waitForURL((url) => url.pathname === '/consent');
        } else await signIn(page, accountOf(role));
        const findings: string[] = [];
        for (const language of ['en', 'hi'] as const) {
          await chooseLanguage(page, language);
          for (const width of WIDTHS) {
            await page.setViewportSize({ width, height: HEIGHT });
            // The worker's notifications screen reads them: each run gets a fresh unread one.
            if (screens.some((s) => s.name === 'notifications') && !(language === 'en' && width === WIDTHS[0])) await refundedWithdrawal('100.00');
            for (const screen of screens) findings.push(...(await measure(page, screen, language, width)));
          }
        }
        expect(findings).toEqual([]);
      }, 1_200_000);
    }
  });
}

/** The worker's task screens (Home and the task lists with their dialogs): the worker's walk is split in two. */
export const isTaskScreen = (screen: Screen): boolean => screen.path === '/' || screen.path.startsWith('/tasks');
