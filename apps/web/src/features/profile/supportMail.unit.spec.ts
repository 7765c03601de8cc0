import { describe, expect, it } from 'vitest';
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
});
