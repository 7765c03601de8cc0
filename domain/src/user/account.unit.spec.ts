import { describe, it } from 'vitest';
import type { UserEvent } from '@kamai/contracts';
import { deciderSpec } from '../testing/spec.ts';
import { type AccountCommand, decideAccount } from './account.ts';
import { userEvolver, type UserState } from './state.ts';

const now = '2026-11-21T10:00:00.000Z';
const spec = deciderSpec<UserState, UserEvent, AccountCommand>(userEvolver, (command, state) =>
  decideAccount(command, state.account),
);
const registered: UserEvent = {
  type: 'UserRegistered',
  data: { userId: 'u1', mobile: '9876543210', passwordHash: 'h', firstName: 'Asha', lastName: 'Rao', registeredAt: now },
};

describe('account decider', () => {
  it('registers a new user', () => {
    spec
      .given([])
      .when({
        type: 'RegisterUser',
        data: { userId: 'u1', mobile: '9876543210', passwordHash: 'h', firstName: 'Asha', lastName: 'Rao' },
        now,
      })
      .then([registered]);
  });

  it('refuses to register the same user twice', () => {
    spec
      .given([registered])
      .when({
        type: 'RegisterUser',
        data: { userId: 'u1', mobile: '9876543210', passwordHash: 'h', firstName: 'Asha', lastName: 'Rao' },
        now,
      })
      .thenFails('conflict');
  });

  it('records only the profile fields that changed', () => {
    spec
      .given([registered])
      .when({ type: 'UpdateProfile', data: { firstName: 'Asha', lastName: 'Iyer', email: 'a@example.in' }, now })
      .then([{ type: 'ProfileUpdated', data: { lastName: 'Iyer', email: 'a@example.in', updatedAt: now } }]);
  });

  it('records a chosen language once, and nothing when it is chosen again', () => {
    const chose: UserEvent = { type: 'ProfileUpdated', data: { language: 'hi', updatedAt: now } };
    spec.given([registered]).when({ type: 'UpdateProfile', data: { language: 'hi' }, now }).then([chose]);
    spec.given([registered, chose]).when({ type: 'UpdateProfile', data: { language: 'hi' }, now }).then([]);
  });

  it('records nothing when nothing changed', () => {
    spec.given([registered]).when({ type: 'UpdateProfile', data: { firstName: 'Asha', notificationsEnabled: true }, now }).then([]);
  });

  it('clears the e-mail with null', () => {
    spec
      .given([registered, { type: 'ProfileUpdated', data: { email: 'a@example.in', updatedAt: now } }])
      .when({ type: 'UpdateProfile', data: { email: null }, now })
      .then([{ type: 'ProfileUpdated', data: { email: null, updatedAt: now } }]);
  });

  it('refuses a profile update for a user that does not exist', () => {
    spec.given([]).when({ type: 'UpdateProfile', data: { firstName: 'Ravi' }, now }).thenFails('not_found');
  });

  it('grants a role once and revokes it', () => {
    spec
      .given([registered])
      .when({ type: 'GrantRole', data: { role: 'reviewer', by: 'cli' }, now })
      .then([{ type: 'RoleGranted', data: { role: 'reviewer', grantedBy: 'cli', grantedAt: now } }]);
    const granted: UserEvent = { type: 'RoleGranted', data: { role: 'reviewer', grantedBy: 'cli', grantedAt: now } };
    spec.given([registered, granted]).when({ type: 'GrantRole', data: { role: 'reviewer', by: 'cli' }, now }).then([]);
    spec
      .given([registered, granted])
      .when({ type: 'RevokeRole', data: { role: 'reviewer', by: 'cli' }, now })
      .then([{ type: 'RoleRevoked', data: { role: 'reviewer', revokedBy: 'cli', revokedAt: now } }]);
  });
});
