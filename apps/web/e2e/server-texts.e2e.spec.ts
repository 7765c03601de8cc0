/**
 * The server's texts (the `messages` namespace and the English catalogue that maps a form's refusal
 * to its key) are not in the first download. A Hindi reader who fails to sign in before they have
 * arrived must still never see an English sentence or a raw key: the error lines and the toast show
 * Hindi from their first frame. The texts' files are held back until the form has failed, so the
 * test covers the moment before they arrive, not only the usual case where they came long before.
 */
import { describe, expect, it } from 'vitest';
import { registerAccount } from './harness.ts';
import { setUpBrowserSuite, testAccount, toasts, tx } from './helpers.ts';

const suite = setUpBrowserSuite();

/** Every text the page ever showed in a field's error line or in the toast region, in order. */
const RECORD_SHOWN_TEXTS = `
  globalThis.shownTexts = [];
  new MutationObserver(() => {
    for (const element of document.querySelectorAll('[id$="-error"], [role="region"] li')) {
      const text = element.textContent ?? '';
      if (globalThis.shownTexts.at(-1) !== text) globalThis.shownTexts.push(text);
    }
  }).observe(document, { childList: true, subtree: true, characterData: true });
`;

describe('server texts in Hindi on the sign-in screen', () => {
  it('shows form and server refusals in Hindi from their first frame, the texts loading only when needed', async () => {
    const account = testAccount('Kavita');
    await registerAccount(suite.server.baseUrl, account);
    const page = await suite.phone();
    await page.addInitScript(`localStorage.setItem('kamai.language', 'hi');`);
    await page.addInitScript(RECORD_SHOWN_TEXTS);

    // The server texts' chunks (the catalogue's and the namespace's: both named messages-*) wait.
    let release: () => void = () => {};
    const released = new Promise<void>((resolve) => (release = resolve));
    const held: string[] = [];
    await page.route(/\/assets\/messages-[^/]*\.js$/, async (route) => {
      held.push(route.request().url());
      await released;
      await route.continue();
    });

    await page.goto('/');
    await page.getByRole('heading', { name: tx('hi', 'auth:login.heading'), level: 1 }).waitFor();
    const mobile = page.getByLabel(tx('hi', 'common:fields.mobile'));
    const password = page.getByLabel(tx('hi', 'common:fields.password'), { exact: true });
    await mobile.fill('987654321');
    await password.fill('abc');
    await page.getByRole('button', { name: tx('hi', 'auth:login.submit') }).click();

    // Refused without the server: the field is marked at once, its line waits for the Hindi text.
    await expect.poll(() => mobile.getAttribute('aria-invalid')).toBe('true');
    await expect.poll(() => held.length).toBeGreaterThan(0);
    await expect(page.locator(`#${await mobile.getAttribute('id')}-error`).textContent()).resolves.toBe('');

    release();
    await page.getByText(tx('hi', 'messages:server.auth.mobile')).waitFor();
    await page.getByText(tx('hi', 'messages:server.auth.password')).waitFor();

    // Refused by the server: the toast says why in Hindi.
    await mobile.fill(account.mobile);
    await password.fill('not-the-password');
    await page.getByRole('button', { name: tx('hi', 'auth:login.submit') }).click();
    await toasts(page).getByText(tx('hi', 'auth:login.failed'), { exact: true }).waitFor();
    await toasts(page).getByText(tx('hi', 'messages:server.api.badCredentials')).waitFor();

    const shown = (await page.evaluate('globalThis.shownTexts')) as string[];
    const english = ['Mobile number must be 10 digits', 'Password must be at least 6 characters', 'Invalid mobile number or password', 'Login Failed'];
    expect(shown.filter((text) => english.some((sentence) => text.includes(sentence)) || /server\.|auth\./.test(text))).toEqual([]);
    expect(shown).toContain(tx('hi', 'messages:server.auth.mobile'));
  });
});
