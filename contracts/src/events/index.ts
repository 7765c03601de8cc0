export * from './define.ts';
export * from './account.ts';
export * from './ledger.ts';
export * from './tasks.ts';
export * from './withdrawals.ts';
export * from './kyc.ts';
export * from './finance.ts';
export * from './personal.ts';
export * from './all.ts';

/** Stream names, one place. */
export const streams = {
  user: (userId: string) => `user-${userId}`,
  mobile: (mobile: string) => `mobile-${mobile}`,
  session: (sessionId: string) => `session-${sessionId}`,
  passwordReset: (userId: string) => `password-reset-${userId}`,
  task: (taskId: string) => `task-${taskId}`,
  settings: () => 'settings',
  /** A transfer reference, normalised (upper case, no spaces). */
  reference: (reference: string) => `utr-${reference}`,
  idempotency: (hash: string) => `idempotency-${hash}`,
};
export * from './codec.ts';
