import type { Projection } from './projection.ts';
import { auditProjection } from './audit/projection.ts';
import { deletionsProjection } from './deletions/projection.ts';
import { journalProjection } from './journal/projection.ts';
import { kycProjection } from './kyc/projection.ts';
import { notificationsProjection } from './notifications/projection.ts';
import { payoutsProjection } from './payouts/projection.ts';
import { sessionsProjection } from './sessions/projection.ts';
import { settingsProjection } from './settings/projection.ts';
import { tasksProjection } from './tasks/projection.ts';
import { userTasksProjection } from './user-tasks/projection.ts';
import { usersProjection } from './users/projection.ts';
import { walletProjection } from './wallet/projection.ts';
import { withdrawalsProjection } from './withdrawals/projection.ts';
import { workflowsProjection } from './workflows/projection.ts';
import { webhooksProjection } from './webhooks/projection.ts';
import { reviewerStatsProjection } from './reviewer-stats/projection.ts';
import { invitationsProjection } from './invitations/projection.ts';
import { statementsProjection } from './statements/projection.ts';

/**
 * Every read model, in the order they apply each event. A new read model is one folder (projection,
 * table types, queries) and one line here.
 */
export const allProjections: readonly Projection[] = [
  usersProjection,
  sessionsProjection,
  walletProjection,
  notificationsProjection,
  withdrawalsProjection,
  settingsProjection,
  tasksProjection,
  userTasksProjection,
  kycProjection,
  journalProjection,
  auditProjection,
  payoutsProjection,
  deletionsProjection,
  workflowsProjection,
  webhooksProjection,
  reviewerStatsProjection,
  invitationsProjection,
  statementsProjection,
];

/** The projections with these names, in registry order; an unknown name throws, naming the known ones. */
export function projectionsNamed(names: readonly string[], from: readonly Projection[] = allProjections): Projection[] {
  for (const name of names) {
    if (!from.some((p) => p.name === name)) throw new Error(`no read model named ${name}; known: ${from.map((p) => p.name).join(', ')}`);
  }
  return from.filter((p) => names.includes(p.name));
}
