import * as v from 'valibot';
import { formatPaise } from './money.ts';
import type { Limits } from './settings.ts';
import { type TaxRule, TaxRuleBody, taxRuleBody } from './tax.ts';
import { refusal } from './refusal.ts';

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
 * changes at once (docs/settings.md).
 */
export const CONTROL_SETTINGS = {
  maxTaskReward: 'maxTaskRewardPaise',
  adjustmentApprovalThreshold: 'adjustmentApprovalThresholdPaise',
  memberDailyAdjustmentLimit: 'memberDailyAdjustmentLimitPaise',
  payoutBatchApprovalThreshold: 'payoutBatchApprovalThresholdPaise',
  autoApproveAfterHours: 'autoApproveAfterHours',
  inviteeBonus: 'inviteeBonusPaise',
  inviterBonus: 'inviterBonusPaise',
  inviterMonthlyCap: 'inviterMonthlyCapPaise',
  invitationBudget: 'invitationBudgetPaise',
} as const satisfies Readonly<Record<string, keyof Limits>>;

/** A control setting by its limit key. */
export type ControlLimitKey = (typeof CONTROL_SETTINGS)[keyof typeof CONTROL_SETTINGS];
/** The limit keys of the control settings. */
export const CONTROL_LIMIT_KEYS: readonly ControlLimitKey[] = Object.values(CONTROL_SETTINGS);
export function isControlLimitKey(key: string): key is ControlLimitKey {
  return (CONTROL_LIMIT_KEYS as readonly string[]).includes(key);
}

/** What the server answers when a control refuses something; spread into the catalogue (`controls.*`). */
export const CONTROL_MESSAGES = {
  conflictOfDuties:
    'You adjusted this user’s wallet in the last 30 days, so another finance member must pay, reject, batch or reverse their withdrawals',
  conflictOfDutiesInBatch:
    'You adjusted the wallet of a user in this batch in the last 30 days, so another finance member must send their withdrawals',
  conflictedWithdrawals: 'Another finance member must send these withdrawals: {ids}',
  settingsRequestNotFound: 'There is no such settings change request',
  ownSettingsRequest: 'You asked for this change, so another admin must approve it',
  settingsRequestDecided: 'This settings change was already approved, rejected or cancelled',
  settingsRequestStatus: 'Status must be pending, approved, rejected, cancelled or all',
  settingsRequestStale: 'The values in force changed after this request was made; ask again with new values',
} as const;

/** Values of control settings by limit key, as the events hold them; `taxRules` is a control setting too. */
export type ControlLimitValues = Partial<Pick<Limits, ControlLimitKey>> & { taxRules?: TaxRule[] };

/** A control setting's value on the wire: rupees as decimal strings, hours as numbers, the tax rules as a list. */
const ControlValueBody = v.union([v.string(), v.number(), v.array(TaxRuleBody)]);

/** Control values as the wire carries them (PUT's names; rupee amounts as decimal strings). */
export function controlValuesBody(values: ControlLimitValues): Record<string, string | number | TaxRuleBody[]> {
  const body: Record<string, string | number | TaxRuleBody[]> = {};
  for (const [wire, key] of Object.entries(CONTROL_SETTINGS)) {
    const value = values[key];
    if (value !== undefined) body[wire] = key.endsWith('Paise') ? formatPaise(value) : value;
  }
  if (values.taxRules !== undefined) body.taxRules = values.taxRules.map(taxRuleBody);
  return body;
}

export const SETTINGS_REQUEST_STATUSES = ['pending', 'approved', 'rejected', 'cancelled'] as const;
export type SettingsRequestStatus = (typeof SETTINGS_REQUEST_STATUSES)[number];

/**
 * A request to change control settings (GET /api/admin/settings/requests, and `request` in the 202
 * of PUT /api/admin/settings). `changes` are the asked values, `current` those in force when asked,
 * both by PUT's names.
 */
export const SettingsChangeRequestBody = v.object({
  id: v.string(),
  status: v.picklist(SETTINGS_REQUEST_STATUSES),
  changes: v.record(v.string(), ControlValueBody),
  current: v.record(v.string(), ControlValueBody),
  requestedBy: v.object({ id: v.string(), name: v.nullable(v.string()) }),
  requestedAt: v.string(),
  decidedBy: v.nullable(v.object({ id: v.string(), name: v.nullable(v.string()) })),
  decidedAt: v.nullable(v.string()),
});
export type SettingsChangeRequestBody = v.InferOutput<typeof SettingsChangeRequestBody>;

/** GET /api/admin/settings/requests: pending ones unless another status (or all) is asked for. */
export const SettingsRequestsQuery = v.object({
  status: v.optional(v.picklist([...SETTINGS_REQUEST_STATUSES, 'all'], refusal('controls.settingsRequestStatus')), 'pending'),
});
