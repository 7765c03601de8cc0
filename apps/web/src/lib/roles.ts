import type { Role, UserBody } from '@kamai/contracts';

/**
 * Whether the user holds any of `roles`. The client only hides what a role cannot use; the server
 * enforces every role. The spec's `isAdmin` flag counts as the admin role.
 */
export function hasRole(user: Pick<UserBody, 'roles' | 'isAdmin'> | null | undefined, ...roles: Role[]): boolean {
  if (!user) return false;
  return roles.some((role) => user.roles.includes(role) || (role === 'admin' && user.isAdmin));
}
