import type { Projection } from './projection.ts';
import { sessionsProjection } from './sessions/projection.ts';
import { usersProjection } from './users/projection.ts';
import { walletProjection } from './wallet/projection.ts';
import { notificationsProjection } from './notifications/projection.ts';
import { withdrawalsProjection } from './withdrawals/projection.ts';
import { settingsProjection } from './settings/projection.ts';
import { tasksProjection } from './tasks/projection.ts';
import { userTasksProjection } from './user-tasks/projection.ts';
import { kycProjection } from './kyc/projection.ts';
import { journalProjection } from './journal/projection.ts';
import { auditProjection } from './audit/projection.ts';

export * from './schema.ts';
export * from './db.ts';
export * from './hot-reads.ts';
export * from './projection.ts';
export * from './runner.ts';
export * from './rebuild.ts';
export * from './users/projection.ts';
export * from './users/queries.ts';
export * from './sessions/projection.ts';
export * from './sessions/queries.ts';
export * from './wallet/projection.ts';
export * from './wallet/queries.ts';
export * from './notifications/projection.ts';
export * from './notifications/queries.ts';
export * from './withdrawals/schema.ts';
export * from './withdrawals/projection.ts';
export * from './withdrawals/queries.ts';
export * from './settings/projection.ts';
export * from './settings/queries.ts';
export * from './tasks/schema.ts';
export * from './tasks/projection.ts';
export * from './tasks/queries.ts';
export * from './user-tasks/projection.ts';
export * from './user-tasks/queries.ts';
export * from './kyc/schema.ts';
export * from './kyc/projection.ts';
export * from './kyc/queries.ts';
export * from './journal/schema.ts';
export * from './journal/accounts.ts';
export * from './journal/projection.ts';
export * from './journal/queries.ts';
export * from './audit/schema.ts';
export * from './audit/projection.ts';
export * from './audit/queries.ts';

/** Every read model, in the order they apply each event. */
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
  // Last: it reads the withdrawal rows the projections above have written for the same event.
  auditProjection,
];
