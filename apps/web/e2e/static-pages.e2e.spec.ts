import { describe, expect, it } from 'vitest';
import { expectTitle, path, registeredAccount, setUpBrowserSuite, signIn } from './helpers.ts';

const suite = setUpBrowserSuite();

/** The spec's sections of the privacy policy, in order. */
const PRIVACY_SECTIONS = [
  '1. Introduction',
  '2. Information We Collect',
  '3. How We Use Your Information',
  '4. Sharing Your Information',
  '5. Data Security',
  '6. Data Retention',
  '7. Your Rights',
  '8. Cookies',
  '9. Third-Party Links',
  "10. Children's Privacy (Under 18)",
  '11. International Data Transfers',
  '12. Changes to This Policy',
  '13. Contact Us',
];

describe('the static pages, signed out', () => {
  it('shows the privacy policy with every section, the support mailbox and Indian law', async () => {
    const page = await suite.phone();
    await page.goto('/privacy-policy');
    await page.getByRole('heading', { name: 'Privacy Policy', level: 1 }).waitFor();
    expect(path(page)).toBe('/privacy-policy');
    await expectTitle(page, 'Privacy Policy | Kamai');
    await expect(page.getByRole('heading', { level: 2 }).allTextContents()).resolves.toEqual(PRIVACY_SECTIONS);

    // The support address comes from GET /api/settings (the default until an admin sets one).
    const settings = (await (await fetch(`${suite.server.baseUrl}/api/settings`)).json()) as { supportEmail: string };
    const mailLinks = page.getByRole('link', { name: settings.supportEmail });
    await expect(mailLinks.first().getAttribute('href')).resolves.toBe(`mailto:${settings.supportEmail}`);
    const contact = page.getByRole('region', { name: '13. Contact Us' });
    await contact.getByRole('link', { name: settings.supportEmail }).waitFor();
    await contact.getByText('governed by the laws of India', { exact: false }).waitFor();
    await page
      .getByRole('region', { name: "10. Children's Privacy (Under 18)" })
      .getByText('only for people aged 18 or older', { exact: false })
      .waitFor();
    await page.getByText('Digital Personal Data Protection Act, 2023', { exact: false }).first().waitFor();
    await page.screenshot({ path: '/tmp/privacy-policy.png' });

    // No sign-in was needed, and the page leads back home (the login screen, signed out).
    await page.getByRole('link', { name: 'Back to home' }).click();
    await page.getByRole('heading', { name: 'Sign in' }).waitFor();
    expect(path(page)).toBe('/');
  });

  it('shows the account deletion steps and opens a pre-filled deletion request', async () => {
    const page = await suite.phone();
    await page.goto('/delete-account');
    await page.getByRole('heading', { name: 'Delete Account', level: 1 }).waitFor();
    expect(path(page)).toBe('/delete-account');
    await expectTitle(page, 'Delete Account | Kamai');

    await page.getByRole('note').getByText('Deletion is permanent').waitFor();
    await expect(page.getByRole('heading', { level: 2 }).allTextContents()).resolves.toEqual([
      'What is deleted',
      'How it works',
      'What we must keep',
      'Ready to go ahead?',
    ]);
    const steps = page.getByRole('region', { name: 'How it works' }).getByRole('listitem');
    await expect(steps.count()).resolves.toBe(4);
    await steps.nth(0).getByText('Send us your request by e-mail').waitFor();
    await steps.nth(1).getByText('We verify your identity').waitFor();
    await steps.nth(2).getByText('typically takes 3-7 business days', { exact: false }).waitFor();
    await steps.nth(3).getByText('You get a confirmation e-mail').waitFor();
    await page.getByRole('region', { name: 'What we must keep' }).getByText('Indian law requires us', { exact: false }).waitFor();

    const request = page.getByRole('link', { name: 'Request Account Deletion' });
    const mail = new URL((await request.getAttribute('href')) ?? '');
    expect(mail.protocol).toBe('mailto:');
    expect(mail.pathname).toBe('support@kamai.in');
    expect(mail.searchParams.get('subject')).toBe('Account Deletion Request');
    expect(mail.searchParams.get('body')).toContain('Please delete my Kamai account');
    await page.screenshot({ path: '/tmp/delete-account.png', fullPage: true });

    await page.getByRole('link', { name: 'Read our Privacy Policy' }).click();
    await page.getByRole('heading', { name: 'Privacy Policy', level: 1 }).waitFor();
    expect(path(page)).toBe('/privacy-policy');
    await page.goBack();
    await page.getByRole('link', { name: 'Go to home' }).click();
    await page.getByRole('heading', { name: 'Sign in' }).waitFor();
    expect(path(page)).toBe('/');
  });

  it('fills the deletion request with the account when signed in', async () => {
    const account = await registeredAccount(suite.server, 'Pooja', 'Nair');
    const page = await suite.phone();
    await signIn(page, account);

    await page.goto('/delete-account');
    const request = page.getByRole('link', { name: 'Request Account Deletion' });
    await expect
      .poll(async () => new URL((await request.getAttribute('href')) ?? 'mailto:x').searchParams.get('body'))
      .toContain(`Registered mobile number: ${account.mobile}`);
    const body = new URL((await request.getAttribute('href')) ?? '').searchParams.get('body') ?? '';
    expect(body).toContain('Full name: Pooja Nair');
  });
});
