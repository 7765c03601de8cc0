import type { Role } from '@kamai/contracts';
import type { Projection } from '../projection.ts';

/** users: one row per registered user, with profile, roles and the total earned. */
export const usersProjection: Projection = {
  name: 'users',
  // 2: kyc_status follows KycDocumentApproved / KycBonusClaimed. 3: a changed password's hash.
  // 4: the language a person chose (null until they choose).
  version: 4,
  tables: {
    users: {
      columns: `id TEXT PRIMARY KEY, mobile TEXT NOT NULL UNIQUE, password_hash TEXT NOT NULL, first_name TEXT,
        last_name TEXT, email TEXT, profile_image_url TEXT, notifications_enabled INTEGER NOT NULL DEFAULT 1,
        roles TEXT NOT NULL DEFAULT '[]', is_admin INTEGER NOT NULL DEFAULT 0, kyc_status TEXT NOT NULL DEFAULT 'pending', language TEXT,
        created_at TEXT NOT NULL, updated_at TEXT NOT NULL`,
    },
  },
  handles: ['UserRegistered', 'ProfileUpdated', 'PasswordChanged', 'RoleGranted', 'RoleRevoked', 'KycDocumentApproved', 'KycBonusClaimed'],
  apply(rows, event) {
    switch (event.type) {
      case 'UserRegistered': {
        const d = event.data;
        rows.insert('users', {
          id: d.userId,
          mobile: d.mobile,
          password_hash: d.passwordHash,
          first_name: d.firstName,
          last_name: d.lastName,
          created_at: d.registeredAt,
          updated_at: d.registeredAt,
        });
        return;
      }
      case 'PasswordChanged':
        rows.update('users', { id: userIdOf(event.streamId) }, { set: { password_hash: event.data.passwordHash, updated_at: event.data.changedAt } });
        return;
      case 'ProfileUpdated': {
        const d = event.data;
        rows.update(
          'users',
          { id: userIdOf(event.streamId) },
          {
            set: {
              first_name: d.firstName,
              last_name: d.lastName,
              email: d.email,
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
      default:
        return;
    }
  },
};

/** `user-<id>` -> `<id>`. */
export function userIdOf(streamId: string): string {
  return streamId.slice('user-'.length);
}
