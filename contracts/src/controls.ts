/**
 * Money controls against one insider: how far one finance member may adjust a user's wallet alone,
 * who may then touch that user's withdrawals, and which settings take a second admin to change.
 */

/** Adjustments by one finance member to one user within this many hours add up against the approval threshold. */
export const FOUR_EYES_WINDOW_HOURS = 24;

/** A finance member who adjusted a user's wallet handles none of that user's withdrawals for this many days. */
export const CONFLICT_OF_DUTIES_DAYS = 30;

/**
 * The control settings: a change to one is a request that a different admin approves, and nothing
 * changes until then. Wire name (PUT /api/admin/settings) -> the limit it sets. Any other setting
 * changes at once. A name whose limit this build does not have is ignored.
 */
export const CONTROL_SETTINGS: Readonly<Record<string, string>> = {
  maxTaskReward: 'maxTaskRewardPaise',
  adjustmentApprovalThreshold: 'adjustmentApprovalThresholdPaise',
  payoutBatchApprovalThreshold: 'payoutBatchApprovalThresholdPaise',
  autoApproveAfterHours: 'autoApproveAfterHours',
};

/** The limit keys of the control settings. */
export const CONTROL_LIMIT_KEYS: ReadonlySet<string> = new Set(Object.values(CONTROL_SETTINGS));

/** What the server answers when a control refuses something; spread into the catalogue (`controls.*`). */
export const CONTROL_MESSAGES = {
  conflictOfDuties:
    'You adjusted this user’s wallet in the last 30 days, so another finance member must pay, reject, batch or reverse their withdrawals',
  conflictOfDutiesInBatch:
    'You adjusted the wallet of a user in this batch in the last 30 days, so another finance member must send their withdrawals',
  conflictedWithdrawals: 'Another finance member must send these withdrawals: {ids}',
} as const;
