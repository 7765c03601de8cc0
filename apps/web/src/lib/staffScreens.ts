import type { Role, StaffQueue, UserBody } from '@kamai/contracts';
import type { ComponentType, SVGProps } from 'react';
import { BriefcaseIcon, GlobeIcon, HistoryIcon, LockIcon, ShieldIcon, StarIcon, TrashIcon, WalletIcon } from '../components/icons.tsx';
import { hasRole } from './roles.ts';

/**
 * Every staff screen, once: where it is, the role that may use it, its name (a key of the `common`
 * namespace) and the queues of GET /api/admin/queues that are worked on there. The staff navigation,
 * the staff Home and Profile's staff rows all read this list, so a new screen is one line here.
 * The server enforces the same roles; this only hides what a role cannot use.
 */
export interface StaffScreen {
  path: string;
  role: Role;
  label: `staff.${string}`;
  Icon: ComponentType<SVGProps<SVGSVGElement>>;
  queues?: readonly StaffQueue[];
}

export const STAFF_SCREENS: readonly StaffScreen[] = [
  { path: '/admin', role: 'admin', label: 'staff.tasks', Icon: BriefcaseIcon },
  { path: '/admin/deletions', role: 'admin', label: 'staff.deletions', Icon: TrashIcon, queues: ['deletionsDue'] },
  { path: '/admin/settings', role: 'admin', label: 'staff.settings', Icon: LockIcon, queues: ['settingsRequests'] },
  { path: '/admin/audit', role: 'admin', label: 'staff.audit', Icon: HistoryIcon },
  { path: '/admin/review', role: 'reviewer', label: 'staff.review', Icon: ShieldIcon, queues: ['proofs'] },
  { path: '/admin/kyc', role: 'reviewer', label: 'staff.kyc', Icon: ShieldIcon, queues: ['kyc'] },
  {
    path: '/admin/finance',
    role: 'finance',
    label: 'staff.finance',
    Icon: WalletIcon,
    queues: ['withdrawalsPending', 'payoutsLate', 'batchesOpen', 'adjustmentsPending'],
  },
  { path: '/admin/webhooks', role: 'admin', label: 'staff.webhooks', Icon: GlobeIcon },
  { path: '/admin/reviewers', role: 'admin', label: 'staff.reviewers', Icon: StarIcon },
  { path: '/admin/appeals', role: 'reviewer', label: 'staff.appeals', Icon: ShieldIcon },
  { path: '/admin/invitations', role: 'finance', label: 'staff.invitations', Icon: WalletIcon },
];

/** The staff screens this user's roles open, in the list's order; none for a user without a role. */
export function staffScreensOf(user: Pick<UserBody, 'roles' | 'isAdmin'> | null | undefined): StaffScreen[] {
  return STAFF_SCREENS.filter((screen) => hasRole(user, screen.role));
}
