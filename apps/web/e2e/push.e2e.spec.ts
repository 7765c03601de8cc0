import { describe, expect, it } from 'vitest';
import { expectAccessible, proofByApi, registeredAccount, setUpBrowserSuite, staffAccount, taskByApi, tx } from './helpers.ts';

const suite = setUpBrowserSuite();

describe('alerts outside the app, in Chromium', () => {
  it('offers alerts only after a first approval, and the service worker shows a pushed alert and tells the page', async () => {
    const worker = await registeredAccount(suite.server, 'Meena');
    const page = await suite.signedIn(worker);
    const t = (key: string) => tx('en', key);

    // A first visit: no question about alerts.
    await page.getByRole('heading', { name: /Meena/ }).waitFor();
    await expect(page.getByTestId('alerts-prompt').count()).resolves.toBe(0);

    // Work approved: the offer appears on Home; "Not now" puts it away for good on this browser.
    const admin = await staffAccount(suite.server, 'Anil', 'Admin', 'admin');
    const reviewer = await staffAccount(suite.server, 'Rita', 'Review', 'reviewer');
    const taskId = await taskByApi(suite, admin, { title: 'Rate the corner shop' });
    await proofByApi(suite, worker, taskId);
    const queue = (await (await suite.api(reviewer, 'GET', '/api/admin/submissions?status=submitted')).json()) as { id: string }[];
    for (const submission of queue) {
      const approved = await suite.api(reviewer, 'POST', `/api/admin/submissions/${submission.id}/approve`);
      expect(approved.status).toBe(200);
    }
    await page.reload();
    const prompt = page.getByTestId('alerts-prompt');
    await prompt.getByRole('heading', { name: t('profile:alerts.prompt.title') }).waitFor();
    await expectAccessible(page, 'home with the alerts offer');
    await prompt.getByRole('button', { name: t('profile:alerts.prompt.later') }).click();
    await prompt.waitFor({ state: 'detached' });
    await page.reload();
    await page.getByRole('heading', { name: /Meena/ }).waitFor();
    await expect(page.getByTestId('alerts-prompt').count()).resolves.toBe(0);

    // The service worker receives a push (delivered through the DevTools protocol, as a push service would).
    await page.context().grantPermissions(['notifications'], { origin: suite.server.baseUrl });
    await page.evaluate(async () => {
      await navigator.serviceWorker.ready;
    });
    await page.reload();
    await page.evaluate(() => {
      const seen: unknown[] = [];
      (window as unknown as { pushes: unknown[] }).pushes = seen;
      navigator.serviceWorker.addEventListener('message', (event) => seen.push(event.data));
    });
    const cdp = await page.context().newCDPSession(page);
    const registrationId = new Promise<string>((resolve) => {
      cdp.on('ServiceWorker.workerRegistrationUpdated', ({ registrations }) => {
        const ours = registrations.find((r) => r.scopeURL.startsWith(suite.server.baseUrl) && !r.isDeleted);
        if (ours) resolve(ours.registrationId);
      });
    });
    await cdp.send('ServiceWorker.enable');
    const alert = { alert: 'payout_paid', title: 'Withdrawal paid', body: '₹150.00 sent to your bank. Reference (UTR): UTR1', url: '/wallet', tag: 'event-1' };
    await cdp.send('ServiceWorker.deliverPushMessage', { origin: suite.server.baseUrl, registrationId: await registrationId, data: JSON.stringify(alert) });

    await page.waitForFunction(() => ((window as unknown as { pushes?: unknown[] }).pushes ?? []).length > 0);
    await expect(page.evaluate(() => (window as unknown as { pushes: unknown[] }).pushes)).resolves.toEqual([{ type: 'kamai-push', alert }]);
    const shown = await page.evaluate(async () => {
      const registration = await navigator.serviceWorker.ready;
      return (await registration.getNotifications()).map((n) => ({ title: n.title, body: n.body, tag: n.tag }));
    });
    expect(shown).toEqual([{ title: 'Withdrawal paid', body: alert.body, tag: 'event-1' }]);
  });

  // In Hindi (English is measured by the every-screen walker): the labels are the catalogue's.
  for (const language of ['hi'] as const) {
    it(`lets a person choose the alerts they get on Profile (${language})`, async () => {
      const t = (key: string) => tx(language, key);
      const worker = await registeredAccount(suite.server, 'Kavya');
      // Signed in first: with Hindi already on the profile, the app may switch before Home's English greeting shows.
      const page = await suite.signedIn(worker);
      if (language === 'hi') expect((await suite.api(worker, 'PUT', '/api/profile', { language: 'hi' })).status).toBe(200);
      await page.goto('/profile');
      const section = page.getByTestId('alerts-section');
      await section.getByRole('heading', { name: t('profile:alerts.heading') }).waitFor();
      const approvedBox = section.getByRole('checkbox', { name: t('profile:alerts.kinds.proof_approved') });
      // Every kind is on until the person chooses (once the choices have loaded).
      await page.waitForFunction(() => document.querySelectorAll('[data-testid="alerts-section"] input[type=checkbox]:checked').length === 7);
      await expect(approvedBox.isChecked()).resolves.toBe(true);
      await expectAccessible(page, `profile alerts (${language})`);

      const sent: unknown[] = [];
      page.on('request', (request) => {
        if (request.url().endsWith('/api/push/alerts') && request.method() === 'PUT') sent.push(request.postDataJSON());
      });
      await approvedBox.click();
      await page.waitForFunction(
        () => [...document.querySelectorAll<HTMLInputElement>('[data-testid="alerts-section"] input[type=checkbox]')].filter((box) => box.checked).length === 6,
      );
      expect(sent).toHaveLength(1);
      const chosen = (await (await suite.api(worker, 'GET', '/api/push/alerts')).json()) as { alerts: string[] };
      expect(chosen.alerts).not.toContain('proof_approved');
      expect(chosen.alerts).toContain('payout_paid');
      // Read back after a reload, once the choices have loaded (a money alert is still on).
      await page.reload();
      await page.waitForFunction(() => document.querySelectorAll('[data-testid="alerts-section"] input[type=checkbox]:checked').length > 0);
      await expect(section.getByRole('checkbox', { name: t('profile:alerts.kinds.proof_approved') }).isChecked()).resolves.toBe(false);
    });
  }
});
