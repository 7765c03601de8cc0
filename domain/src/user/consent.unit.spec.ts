import { describe, expect, it } from 'vitest';
import type { UserEvent } from '@kamai/contracts';
import { deciderSpec } from '../testing/spec.ts';
import { type AccountCommand, decideAccount, hasConsented } from './account.ts';
import { userEvolver, type UserState } from './state.ts';

const now = '2026-11-28T10:00:00.000Z';
const spec = deciderSpec<UserState, UserEvent, AccountCommand>(userEvolver, (command, state) => decideAccount(command, state.account));
const data = { userId: 'u1', mobile: '9876543210', passwordHash: 'h', firstName: 'Asha', lastName: 'Rao', registeredAt: now };
/** Registered before consent was asked: no consentPolicyVersion. */
const migrated: UserEvent = { type: 'UserRegistered', data };
const gave: UserEvent = { type: 'ConsentGiven', data: { policyVersion: '2026-11-25', givenAt: now } };
const fold = (events: UserEvent[]) => events.reduce(userEvolver.evolve, userEvolver.initialState());

describe('consent for people registered before it was asked', () => {
  it('records the policy version agreed to', () => {
    spec.given([migrated]).when({ type: 'GiveConsent', data: { policyVersion: '2026-11-25' }, now }).then([gave]);
  });

  it('records nothing when the same version is agreed to again', () => {
    spec.given([migrated, gave]).when({ type: 'GiveConsent', data: { policyVersion: '2026-11-25' }, now }).then([]);
    const registeredWithConsent: UserEvent = { type: 'UserRegistered', data: { ...data, consentPolicyVersion: '2026-11-25' } };
    spec.given([registeredWithConsent]).when({ type: 'GiveConsent', data: { policyVersion: '2026-11-25' }, now }).then([]);
  });

  it('records a newer version agreed to', () => {
    spec
      .given([migrated, gave])
      .when({ type: 'GiveConsent', data: { policyVersion: '2027-01-01' }, now })
      .then([{ type: 'ConsentGiven', data: { policyVersion: '2027-01-01', givenAt: now } }]);
  });

  it('refuses an unknown user', () => {
    spec.given([]).when({ type: 'GiveConsent', data: { policyVersion: '2026-11-25' }, now }).thenFails('not_found');
  });

  it('has a consent record after registering with consent or agreeing later, not before', () => {
    expect(hasConsented(fold([migrated]).account)).toBe(false);
    expect(hasConsented(fold([migrated, gave]).account)).toBe(true);
    expect(hasConsented(fold([{ type: 'UserRegistered', data: { ...data, consentPolicyVersion: '2026-11-25' } }]).account)).toBe(true);
  });
});
