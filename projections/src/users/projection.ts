import { DELETED_USER, type Role, isPlaceholder } from '@kamai/contracts';
import { type ColumnsOf, erasedColumns } from '../erasure.ts';
import type { Projection } from '../projection.ts';

/** Where users keeps the fields of the events that fill it. */
const REGISTERED_COLUMNS: ColumnsOf = {
  userId: 'id',
  mobile: 'mobile',
  passwordHash: 'password_hash',
  firstName: 'first_name',
  lastName: 'last_name',
  registeredAt: 'created_at',
};
const PROFILE_COLUMNS: ColumnsOf = {
  firstName: 'first_name',
  lastName: 'last_name',
  email: 'email',
  notificationsEnabled: 'notifications_enabled',
  language: 'language',
  updatedAt: 'updated_at',
};
const PASSWORD_COLUMNS: ColumnsOf = { passwordHash: 'password_hash', changedAt: 'updated_at' };

/**
 * An erased person's row: every column holding a personal field null (as this model reads an erased
 * value), the name shown as DELETED_USER; the id, roles and dates stay for the ledger.
 */
const ERASED_USER = {
  ...Object.fromEntries(
    [
      erasedColumns('UserRegistered', REGISTERED_COLUMNS),
      erasedColumns('ProfileUpdated', PROFILE_COLUMNS),
      erasedColumns('PasswordChanged', PASSWORD_COLUMNS),
    ].flatMap((columns) => Object.keys(columns).map((column) => [column, null])),
  ),
  first_name: DELETED_USER,
  // Not filled from events; a picture of the person all the same.
  profile_image_url: null,
};

/** users: one row per registered user, with profile, roles and the total earned. */
export const usersProjection: Projection = {
  name: 'users',
  // 2: kyc_status follows KycDocumentApproved / KycBonusClaimed. 3: a changed password's hash.
  // 4: the language a person chose (null until they choose).
  // 5: erasure: mobile and password hash may be null (an erased person), erased_at.
  // 6: consent_policy_version (null: asked for consent at the next sign-in).
  version: 6,
  tables: {
    users: {
      columns: `id TEXT PRIMARY KEY, mobile TEXT UNIQUE, password_hash TEXT, first_name TEXT,
        last_name TEXT, email TEXT, profile_image_url TEXT, notifications_enabled INTEGER NOT NULL DEFAULT 1,
        roles TEXT NOT NULL DEFAULT '[]', is_admin INTEGER NOT NULL DEFAULT 0, kyc_status TEXT NOT NULL DEFAULT 'pending', language TEXT,
        created_at TEXT NOT NULL, updated_at TEXT NOT NULL, erased_at TEXT, consent_policy_version TEXT`,
    },
  },
  handles: ['UserRegistered', 'ProfileUpdated', 'PasswordChanged', 'RoleGranted', 'RoleRevoked', 'KycDocumentApproved', 'KycBonusClaimed', 'UserErased', 'ConsentGiven'],
  apply(rows, event) {
    switch (event.type) {
      case 'UserRegistered': {
        const d = event.data;
        // An erased person's events read as placeholders in a rebuild: null, so two of them never
        // collide on the unique mobile.
        rows.insert('users', {
          id: d.userId,
          mobile: plain(d.mobile),
          password_hash: plain(d.passwordHash),
          first_name: plain(d.firstName),
          last_name: plain(d.lastName),
          created_at: d.registeredAt,
          updated_at: d.registeredAt,
          consent_policy_version: d.consentPolicyVersion ?? null,
        });
        return;
      }
      case 'PasswordChanged':
        rows.update('users', { id: userIdOf(event.streamId) }, { set: { password_hash: plain(event.data.passwordHash), updated_at: event.data.changedAt } });
        return;
      case 'ProfileUpdated': {
        const d = event.data;
        rows.update(
          'users',
          { id: userIdOf(event.streamId) },
          {
            set: {
              first_name: d.firstName === undefined ? undefined : plain(d.firstName),
              last_name: d.lastName === undefined ? undefined : plain(d.lastName),
              email: d.email === undefined || d.email === null ? d.email : plain(d.email),
              notifications_enabled: d.notificationsEnabled === undefined ? undefined : d.notificationsEnabled ? 1 : 0,
              language: d.language,
              updated_at: d.updatedAt,
            },
          },
        );
        return;
      }
      case 'RoleGranted':
      case 'RoleRevoked': {
        const id = userIdOf(event.streamId);
        const row = rows.get('users', { id }, ['roles']);
        if (!row) return;
        const current = JSON.parse(row.roles) as Role[];
        const roles =
          event.type === 'RoleGranted'
            ? [...new Set([...current, event.data.role])]
            : current.filter((role) => role !== event.data.role);
        rows.update('users', { id }, { set: { roles: JSON.stringify(roles.sort()), is_admin: roles.includes('admin') ? 1 : 0 } });
        return;
      }
      case 'KycDocumentApproved':
      case 'KycBonusClaimed': {
        // The events say when KYC moves on, so this model never reads another projection's table.
        if (event.type === 'KycDocumentApproved' && !event.data.kycVerified) return;
        const kycStatus = event.type === 'KycBonusClaimed' ? 'bonus_claimed' : 'verified';
        rows.update('users', { id: userIdOf(event.streamId) }, { set: { kyc_status: kycStatus } });
        return;
      }
      case 'ConsentGiven':
        rows.update('users', { id: userIdOf(event.streamId) }, { set: { consent_policy_version: event.data.policyVersion, updated_at: event.data.givenAt } });
        return;
      case 'UserErased':
        rows.update('users', { id: userIdOf(event.streamId) }, { set: { ...ERASED_USER, erased_at: event.data.erasedAt, updated_at: event.data.erasedAt } });
        return;
      default:
        return;
    }
  },
};

/** A personal field's value, or null where it reads as erased (or unreadable: its stored bytes were changed). */
function plain(value: string): string | null {
  return isPlaceholder(value) ? null : value;
}

/** `user-<id>` -> `<id>`. */
export function userIdOf(streamId: string): string {
  return streamId.slice('user-'.length);
}
