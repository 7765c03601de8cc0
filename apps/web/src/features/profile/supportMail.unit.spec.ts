import { beforeAll, describe, expect, it } from 'vitest';
import { i18n, initialized } from '../../i18n/index.ts';

// The texts arrive from their files once i18next has initialised.
beforeAll(() => initialized);
import { fullNameOf, supportMailto } from './supportMail.ts';

describe('the Help & Support mail draft', () => {
  const user = { id: 'u-123', mobile: '9876543210', firstName: 'Asha', lastName: 'Sharma' };

  it('goes to the support address with the spec subject, and the user id, mobile and name in the body', () => {
    const url = new URL(supportMailto('help@kamai.in', user));
    expect(url.protocol).toBe('mailto:');
    expect(url.pathname).toBe('help@kamai.in');
    expect(url.searchParams.get('subject')).toBe('Help & Support Request');
    const body = url.searchParams.get('body') ?? '';
    expect(body).toContain('User ID: u-123');
    expect(body).toContain('Mobile: 9876543210');
    expect(body).toContain('Name: Asha Sharma');
  });

  it('encodes spaces as %20, never +', () => {
    expect(supportMailto('help@kamai.in', user)).toContain('subject=Help%20%26%20Support%20Request');
  });

  it("names a user without names 'User'", () => {
    expect(fullNameOf({ firstName: null, lastName: null })).toBe('User');
    expect(fullNameOf({ firstName: 'Asha', lastName: null })).toBe('Asha');
  });

  it('is written in the reader’s language', async () => {
    await i18n.changeLanguage('hi');
    try {
      const url = new URL(supportMailto('help@kamai.in', user));
      expect(url.searchParams.get('subject')).toBe('मदद और सहायता का अनुरोध');
      expect(url.searchParams.get('body')).toContain('मोबाइल: 9876543210');
    } finally {
      await i18n.changeLanguage('en');
    }
  });
});
