import type { Role, UserBody } from '@kamai/contracts';

/**
 * Whether the user holds any of `roles`. The client only hides what a role cannot use; the server
 * enforces every role. The spec's `isAdmin` flag counts as the admin role.
 */
export function hasRole(user: Pick<UserBody, 'roles' | 'isAdmin'> | null | undefined, ...roles: Role[]): boolean {
  if (!user) return false;
  return roles.some((role) => user.roles.includes(role) || (role === 'admin' && user.isAdmin));
}

/**
 * What each role may use, one place for every screen (the server enforces the same split): admins
 * run the catalogue, settings and the audit list; reviewing proofs needs `reviewer`; paying,
 * rejecting withdrawals and adjusting wallets need `finance`. One person may hold several roles.
 */
const canManageCatalogue = (user: Pick<UserBody, 'roles' | 'isAdmin'> | null | undefined) => hasRole(user, 'admin');
export const canReview = (user: Pick<UserBody, 'roles' | 'isAdmin'> | null | undefined) => hasRole(user, 'reviewer');
export const canHandleMoney = (user: Pick<UserBody, 'roles' | 'isAdmin'> | null | undefined) => hasRole(user, 'finance');
