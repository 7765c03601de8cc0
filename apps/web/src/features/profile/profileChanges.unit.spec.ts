import { describe, expect, it } from 'vitest';
import { changedProfileFields } from './profileChanges.ts';

const user = { firstName: 'Asha', lastName: 'Sharma', email: null, notificationsEnabled: true };
const same = { firstName: 'Asha', lastName: 'Sharma', email: null, notificationsEnabled: true };

describe('the profile update sends only what changed', () => {
  it('sends nothing when nothing changed', () => {
    expect(changedProfileFields(user, same)).toEqual({});
    expect(changedProfileFields({ ...user, email: '' }, same)).toEqual({});
  });

  it('sends each changed field alone', () => {
    expect(changedProfileFields(user, { ...same, firstName: 'Aasha' })).toEqual({ firstName: 'Aasha' });
    expect(changedProfileFields(user, { ...same, lastName: 'Verma' })).toEqual({ lastName: 'Verma' });
    expect(changedProfileFields(user, { ...same, email: 'asha@example.in' })).toEqual({ email: 'asha@example.in' });
    expect(changedProfileFields(user, { ...same, notificationsEnabled: false })).toEqual({ notificationsEnabled: false });
  });

  it('sends null to clear a saved e-mail', () => {
    expect(changedProfileFields({ ...user, email: 'asha@example.in' }, same)).toEqual({ email: null });
  });

  it('sends several changes together', () => {
    expect(changedProfileFields(user, { firstName: 'Ravi', lastName: 'Kumar', email: 'r@k.in', notificationsEnabled: false })).toEqual({
      firstName: 'Ravi',
      lastName: 'Kumar',
      email: 'r@k.in',
      notificationsEnabled: false,
    });
  });
});
