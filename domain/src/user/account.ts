import { msg } from '@kamai/contracts';
import type { Role, EventsOf, accountEvents } from '@kamai/contracts';
import { DomainError, assertNever } from '../errors.ts';

export type AccountEvent = EventsOf<typeof accountEvents>;

export interface AccountState {
  registered: boolean;
  userId: string | null;
  mobile: string | null;
  firstName: string | null;
  lastName: string | null;
  email: string | null;
  notificationsEnabled: boolean;
  language: string | null;
  roles: Role[];
  /** Suspended by an admin: may sign in and read, not earn or withdraw. */
  suspended: boolean;
  /** The privacy policy version the person agreed to; null for someone registered before consent was asked. */
  consentPolicyVersion: string | null;
}

export const initialAccountState = (): AccountState => ({
  registered: false,
  userId: null,
  mobile: null,
  firstName: null,
  lastName: null,
  email: null,
  notificationsEnabled: true,
  language: null,
  roles: [],
  suspended: false,
  consentPolicyVersion: null,
});

export function evolveAccount(state: AccountState, event: AccountEvent): AccountState {
  switch (event.type) {
    case 'UserRegistered':
      return {
        ...state,
        registered: true,
        userId: event.data.userId,
        mobile: event.data.mobile,
        firstName: event.data.firstName,
        lastName: event.data.lastName,
        consentPolicyVersion: event.data.consentPolicyVersion ?? null,
      };
    case 'ProfileUpdated': {
      const { firstName, lastName, email, notificationsEnabled, language } = event.data;
      return {
        ...state,
        firstName: firstName ?? state.firstName,
        lastName: lastName ?? state.lastName,
        email: email === undefined ? state.email : email,
        notificationsEnabled: notificationsEnabled ?? state.notificationsEnabled,
        language: language ?? state.language,
      };
    }
    case 'RoleGranted':
      return state.roles.includes(event.data.role) ? state : { ...state, roles: [...state.roles, event.data.role] };
    case 'RoleRevoked':
      return { ...state, roles: state.roles.filter((role) => role !== event.data.role) };
    case 'AccountSuspended':
      return { ...state, suspended: true };
    case 'AccountUnsuspended':
      return { ...state, suspended: false };
    case 'ConsentGiven':
      return { ...state, consentPolicyVersion: event.data.policyVersion };
    default:
      return assertNever(event);
  }
}

/** 403 `account_suspended` for what a suspended account may not do: earn (proof, start) or withdraw. */
export function assertNotSuspended(state: AccountState) {
  if (state.suspended) throw new DomainError('forbidden', msg('suspension.suspended'), undefined, 'account_suspended');
}

/** Whether the person has a consent record: registered with consent, or agreed later (ConsentGiven). */
export function hasConsented(state: AccountState): boolean {
  return state.consentPolicyVersion !== null;
}

export type AccountCommand =
  | {
      type: 'RegisterUser';
      data: { userId: string; mobile: string; passwordHash: string; firstName: string; lastName: string; consentPolicyVersion?: string };
      now: string;
    }
  | {
      type: 'UpdateProfile';
      data: { firstName?: string; lastName?: string; email?: string | null; notificationsEnabled?: boolean; language?: string };
      now: string;
    }
  | { type: 'GrantRole'; data: { role: Role; by: string }; now: string }
  | { type: 'RevokeRole'; data: { role: Role; by: string }; now: string }
  | { type: 'GiveConsent'; data: { policyVersion: string }; now: string };

export function decideAccount(command: AccountCommand, state: AccountState): AccountEvent[] {
  if (command.type !== 'RegisterUser' && !state.registered) {
    throw new DomainError('not_found', msg('api.noSuchUser'));
  }
  switch (command.type) {
    case 'RegisterUser':
      if (state.registered) throw new DomainError('conflict', msg('api.accountExists'));
      return [{ type: 'UserRegistered', data: { ...command.data, registeredAt: command.now } }];
    case 'UpdateProfile': {
      // Only what really changed becomes an event; nothing changed means no event at all.
      const changes: Extract<AccountEvent, { type: 'ProfileUpdated' }>['data'] = { updatedAt: command.now };
      const d = command.data;
      if (d.firstName !== undefined && d.firstName !== state.firstName) changes.firstName = d.firstName;
      if (d.lastName !== undefined && d.lastName !== state.lastName) changes.lastName = d.lastName;
      if (d.email !== undefined && d.email !== state.email) changes.email = d.email;
      if (d.notificationsEnabled !== undefined && d.notificationsEnabled !== state.notificationsEnabled) {
        changes.notificationsEnabled = d.notificationsEnabled;
      }
      if (d.language !== undefined && d.language !== state.language) changes.language = d.language;
      return Object.keys(changes).length > 1 ? [{ type: 'ProfileUpdated', data: changes }] : [];
    }
    case 'GrantRole':
      if (state.roles.includes(command.data.role)) return [];
      return [{ type: 'RoleGranted', data: { role: command.data.role, grantedBy: command.data.by, grantedAt: command.now } }];
    case 'RevokeRole':
      if (!state.roles.includes(command.data.role)) return [];
      return [{ type: 'RoleRevoked', data: { role: command.data.role, revokedBy: command.data.by, revokedAt: command.now } }];
    case 'GiveConsent':
      // Agreeing again to the version already agreed to records nothing (a double tap, a retry).
      if (state.consentPolicyVersion === command.data.policyVersion) return [];
      return [{ type: 'ConsentGiven', data: { policyVersion: command.data.policyVersion, givenAt: command.now } }];
    default:
      return assertNever(command);
  }
}
