import type { Role } from '@kamai/contracts';
import type { Projection } from '../projection.ts';

/** users: one row per registered user, with profile, roles and the total earned. */
export const usersProjection: Projection = {
  name: 'users',
  async apply(db, event) {
    switch (event.type) {
      case 'UserRegistered': {
        const d = event.data;
        await db
          .insertInto('users')
          .values({
            id: d.userId,
            mobile: d.mobile,
            password_hash: d.passwordHash,
            first_name: d.firstName,
            last_name: d.lastName,
            created_at: d.registeredAt,
            updated_at: d.registeredAt,
          })
          .execute();
        return;
      }
      case 'ProfileUpdated': {
        const d = event.data;
        await db
          .updateTable('users')
          .set({
            ...(d.firstName !== undefined && { first_name: d.firstName }),
            ...(d.lastName !== undefined && { last_name: d.lastName }),
            ...(d.email !== undefined && { email: d.email }),
            ...(d.notificationsEnabled !== undefined && { notifications_enabled: d.notificationsEnabled ? 1 : 0 }),
            ...(d.language !== undefined && { language: d.language }),
            updated_at: d.updatedAt,
          })
          .where('id', '=', userIdOf(event.streamId))
          .execute();
        return;
      }
      case 'RoleGranted':
      case 'RoleRevoked': {
        const id = userIdOf(event.streamId);
        const row = await db.selectFrom('users').select('roles').where('id', '=', id).executeTakeFirst();
        if (!row) return;
        const current = JSON.parse(row.roles) as Role[];
        const roles =
          event.type === 'RoleGranted'
            ? [...new Set([...current, event.data.role])]
            : current.filter((role) => role !== event.data.role);
        await db
          .updateTable('users')
          .set({ roles: JSON.stringify(roles.sort()), is_admin: roles.includes('admin') ? 1 : 0 })
          .where('id', '=', id)
          .execute();
        return;
      }
      case 'KycDocumentApproved':
      case 'KycBonusClaimed': {
        // The events say when KYC moves on, so this model never reads another projection's table.
        if (event.type === 'KycDocumentApproved' && !event.data.kycVerified) return;
        const kycStatus = event.type === 'KycBonusClaimed' ? 'bonus_claimed' : 'verified';
        await db.updateTable('users').set({ kyc_status: kycStatus }).where('id', '=', userIdOf(event.streamId)).execute();
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
