export * from './define.ts';
export * from './account.ts';
export * from './ledger.ts';
export * from './tasks.ts';
export * from './withdrawals.ts';
export * from './kyc.ts';
export * from './erasure.ts';
export * from './finance.ts';
export * from './payouts.ts';
export * from './funding.ts';
export * from './push.ts';
export * from './personal.ts';
export * from './privacy.ts';
export * from './workflows.ts';
export * from './webhooks.ts';
export * from './periods.ts';
export * from './balance-warnings.ts';
export * from './statements.ts';
export * from './tax.ts';
export * from './all.ts';

/** Stream names, one place. */
export const streams = {
  user: (userId: string) => `user-${userId}`,
  /** A mobile number's reservation, named by a keyed hash of the number (never the number itself). */
  mobile: (mobileHash: string) => `mobile-${mobileHash}`,
  session: (sessionId: string) => `session-${sessionId}`,
  passwordReset: (userId: string) => `password-reset-${userId}`,
  task: (taskId: string) => `task-${taskId}`,
  settings: () => 'settings',
  /** A transfer reference, normalised (upper case, no spaces). */
  reference: (reference: string) => `utr-${reference}`,
  idempotency: (hash: string) => `idempotency-${hash}`,
  /** What one finance member moved alone across all users, for the per-member daily limit. */
  staffLimits: (memberId: string) => `staff-limits-${memberId}`,
  payoutBatch: (batchId: string) => `payout-batch-${batchId}`,
  bankStatement: (runId: string) => `bank-statement-${runId}`,
  /** A funding of the payout account (its id is random, never the bank reference). */
  funding: (fundingId: string) => `funding-${fundingId}`,
  /** The log's sealing marker (PersonalDataSealed). */
  privacy: () => 'privacy',
  /** An operation across several streams (docs/workflows.md). */
  workflow: (workflowId: string) => `workflow-${workflowId}`,
  /** A webhook endpoint registered by an admin (docs/api.md#webhooks). */
  webhook: (endpointId: string) => `webhook-${endpointId}`,
  /** One month of the books, `2026-10` (docs/month-end.md). */
  ledgerPeriod: (month: string) => `ledger-period-${month}`,
  /** An invite code, held for one person (docs/invitations.md). */
  inviteCode: (code: string) => `invite-code-${code}`,
  /** An invitation, named by the person invited (one inviter each). */
  invitation: (inviteeId: string) => `invitation-${inviteeId}`,
  /** Every invitation bonus counted against the budget and the inviters' monthly caps. */
  invitationProgramme: () => 'invitation-programme',
  /** One exception of a bank statement's matching (docs/payouts.md#statement-matching). */
  statementException: (exceptionId: string) => `statement-exception-${exceptionId}`,
  /** The tax deposits (challans) of one quarter, `2026-27-Q3` (docs/tax.md). */
  taxDeposits: (quarter: string) => `tax-deposits-${quarter}`,
  /** Each crossing of a balance's warning threshold (docs/month-end.md#balances-that-warn). */
  balanceWarnings: () => 'balance-warnings',
  /** One payee for tax: a PAN, named by a keyed hash of it (never the PAN itself; docs/tax.md). */
  taxPayee: (panHash: string) => `tax-payee-${panHash}`,
};
export * from './codec.ts';
