import { beforeAll, describe, expect, it } from 'vitest';
import { initialized } from '../../i18n/index.ts';

// The texts arrive from their files once i18next has initialised.
beforeAll(() => initialized);
import { deletionMailto } from './supportEmail.ts';

describe('the pre-filled deletion request', () => {
  it('goes to support with the subject and the signed-in account named', () => {
    const url = new URL(deletionMailto('help@kamai.in', { id: 'u-1', mobile: '9876543210', firstName: 'Asha', lastName: 'Sharma' }));
    expect(url.pathname).toBe('help@kamai.in');
    expect(url.searchParams.get('subject')).toBe('Account Deletion Request');
    const body = url.searchParams.get('body') ?? '';
    expect(body).toContain('Please delete my Kamai account');
    expect(body).toContain('Registered mobile number: 9876543210');
    expect(body).toContain('Full name: Asha Sharma');
    expect(body).toContain('User ID: u-1');
  });

  it('leaves blanks to fill in when signed out', () => {
    const body = new URL(deletionMailto('help@kamai.in', null)).searchParams.get('body') ?? '';
    expect(body).toContain('Registered mobile number: \n');
    expect(body).not.toContain('User ID');
  });
});
