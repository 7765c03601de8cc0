import { describe, expect, it } from 'vitest';
import { writePreConsentAccount } from './harness.ts';
import { apiAs, expectAccessible, setUpBrowserSuite, submitLogin, testAccount, openSignIn } from './helpers.ts';

/**
 * Issue 34 item 7: a person registered before consent was asked is asked at their next sign-in,
 * in Hindi and English, before any signed-in screen; "I agree" records it and leads home.
 */

const suite = setUpBrowserSuite();

describe('consent asked at sign-in of people registered before it was asked', () => {
  it('shows the consent screen first (axe clean, en and hi), offers deletion instead, and agreeing leads home', { timeout: 300_000 }, async () => {
    const person = testAccount('Purana', 'Sadasya');
    writePreConsentAccount(suite.server, person);
    const page = await suite.phone();
    await openSignIn(page);
    await submitLogin(page, person);
    await page.getByRole('heading', { name: 'Before you continue' }).waitFor();
    expect(new URL(page.url()).pathname).toBe('/consent');
    await expectAccessible(page, 'consent (en)');
    expect(await page.getByRole('link', { name: 'Delete my account instead' }).getAttribute('href')).toBe('/delete-account');

    // Any signed-in screen leads here while there is no consent record; so does the server refuse money.
    await page.goto('/wallet');
    await page.getByRole('heading', { name: 'Before you continue' }).waitFor();
    await expect(apiAs(suite.server, person, 'POST', '/api/withdrawals', { amount: '100', upiId: 'purana@okaxis' })).rejects.toThrow(/answered 403: .*"consent_required"/);

    await page.evaluate(() => localStorage.setItem('kamai.language', 'hi'));
    await page.reload();
    await page.getByRole('heading', { name: 'आगे बढ़ने से पहले' }).waitFor();
    await expectAccessible(page, 'consent (hi)');
    await page.getByRole('button', { name: 'मैं सहमत हूँ' }).click();
    await page.waitForURL((url) => url.pathname === '/');
    await page.getByRole('heading', { name: /Purana/ }).waitFor();
    const me = (await (await apiAs(suite.server, person, 'GET', '/api/auth/user')).json()) as { consentRequired: boolean };
    expect(me.consentRequired).toBe(false);
  });
});
