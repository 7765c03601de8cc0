import * as v from 'valibot';
import { MESSAGES } from './auth.ts';
import { RupeeAmount, formatPaise, rupees } from './money.ts';
import { REJECT_REASON_MAX_LENGTH } from './tasks.ts';
import { noControlCharacters } from './text.ts';
import { TaxRuleBody, TaxRulesInput } from './tax.ts';
import { refusal } from './refusal.ts';
import { TaxDeductorInput } from './tax-returns.ts';
import { BankFileSettingsBody, BankFileSettingsInput } from './bank-files.ts';

/** A default support e-mail and homepage exist before anyone sets them. */
export const DEFAULT_SETTINGS = { supportEmail: 'support@kamai.in', homepageUrl: 'https://kamai.in' } as const;

/**
 * Limits an admin may tune, with their defaults: the largest task reward, the adjustment above
 * which a second finance member must approve, how long an unused session lives, and the daily
 * upload quota per user.
 */
export const DEFAULT_LIMITS = {
  maxTaskRewardPaise: rupees(500),
  adjustmentApprovalThresholdPaise: rupees(1000),
  /**
   * What one finance member may move alone (adjustments and fundings, credits and debits alike)
   * across all users within FOUR_EYES_WINDOW_HOURS; beyond it a second finance member approves.
   */
  memberDailyAdjustmentLimitPaise: rupees(5000),
  sessionIdleDays: 7,
  uploadsPerDay: 30,
  uploadBytesPerDay: 60 * 1024 * 1024,
  /** A payout batch above this total needs a second finance member's approval before its file. */
  payoutBatchApprovalThresholdPaise: rupees(50000),
  /** A payout processing longer than this many days is late (the finance screen's filter). */
  latePayoutDays: 2,
  /** How long a deletion request waits before an admin may erase the account (0: at once). */
  deletionCoolingOffHours: 48,
  /** A proof nobody decided within this many hours is approved by the system; 0 turns it off. */
  autoApproveAfterHours: 72,
  /** Invitations (docs/invitations.md): the invited person's bonus after their first approved task. */
  inviteeBonusPaise: rupees(25),
  /** The inviter's bonus after the invited person's first paid withdrawal. */
  inviterBonusPaise: rupees(25),
  /** What one inviter may get in invitation bonuses per calendar month (IST). */
  inviterMonthlyCapPaise: rupees(250),
  /** All invitation bonuses ever; once spent, the programme stops. */
  invitationBudgetPaise: rupees(50000),
  /** How far a bank statement line and the payout (or batch, funding) it matches may differ. */
  statementMatchTolerancePaise: 0,
  /** Finance is warned when the payout float (funded − paid − pending payouts) falls below this; 0: off. */
  payoutFloatWarnBelowPaise: 0,
  /** Finance is warned when the tax payable (withheld, not yet deposited) rises above this; 0: off. */
  taxPayableWarnAbovePaise: 0,
} as const;
export type Limits = { -readonly [K in keyof typeof DEFAULT_LIMITS]: number };
export const LIMIT_KEYS = Object.keys(DEFAULT_LIMITS) as Array<keyof Limits>;

/** A canned rejection reason: the same reason in each language the app speaks. */
export interface CannedReason {
  en: string;
  hi: string;
}
/** At most this many canned rejection reasons (the review screen's chips). */
export const CANNED_REASONS_MAX = 10;
/** The canned rejection reasons until an admin sets them. */
export const DEFAULT_CANNED_REASONS: readonly CannedReason[] = [
  { en: 'The screenshot is blurry or cut off', hi: 'स्क्रीनशॉट धुंधला है या कटा हुआ है' },
  { en: 'The screenshot shows a different app or task', hi: 'स्क्रीनशॉट में कोई दूसरा ऐप या काम दिख रहा है' },
  { en: 'The task is not finished in the screenshot', hi: 'स्क्रीनशॉट में काम पूरा नहीं दिख रहा' },
  { en: 'This screenshot was already sent by someone else', hi: 'यह स्क्रीनशॉट पहले ही किसी और ने भेजा है' },
];

/** What the server answers when a limit refuses something (`{maxPaise}`: money, shown as rupees). */
export const LIMIT_TEXTS = {
  rewardAbove: 'Reward can be at most {maxPaise}',
  uploadQuota: 'You have uploaded too much today. Please try again tomorrow.',
} as const;

/** The limits as the wire carries them: rupee amounts as decimal strings, counts as numbers. */
export function limitsBody(limits: Limits) {
  return {
    maxTaskReward: formatPaise(limits.maxTaskRewardPaise),
    adjustmentApprovalThreshold: formatPaise(limits.adjustmentApprovalThresholdPaise),
    memberDailyAdjustmentLimit: formatPaise(limits.memberDailyAdjustmentLimitPaise),
    sessionIdleDays: limits.sessionIdleDays,
    uploadsPerDay: limits.uploadsPerDay,
    uploadMegabytesPerDay: Math.floor(limits.uploadBytesPerDay / (1024 * 1024)),
    payoutBatchApprovalThreshold: formatPaise(limits.payoutBatchApprovalThresholdPaise),
    latePayoutDays: limits.latePayoutDays,
    deletionCoolingOffHours: limits.deletionCoolingOffHours,
    autoApproveAfterHours: limits.autoApproveAfterHours,
    inviteeBonus: formatPaise(limits.inviteeBonusPaise),
    inviterBonus: formatPaise(limits.inviterBonusPaise),
    inviterMonthlyCap: formatPaise(limits.inviterMonthlyCapPaise),
    invitationBudget: formatPaise(limits.invitationBudgetPaise),
    statementMatchTolerance: formatPaise(limits.statementMatchTolerancePaise),
    payoutFloatWarnBelow: formatPaise(limits.payoutFloatWarnBelowPaise),
    taxPayableWarnAbove: formatPaise(limits.taxPayableWarnAbovePaise),
  };
}

/** GET /api/settings (public: the static pages read it signed out), and PUT /api/admin/settings's answer. */
export const SettingsBody = v.object({
  supportEmail: v.string(),
  homepageUrl: v.string(),
  /** When an admin last changed them; null while the defaults apply. */
  updatedAt: v.nullable(v.string()),
  maxTaskReward: v.string(),
  adjustmentApprovalThreshold: v.string(),
  memberDailyAdjustmentLimit: v.string(),
  sessionIdleDays: v.number(),
  uploadsPerDay: v.number(),
  uploadMegabytesPerDay: v.number(),
  payoutBatchApprovalThreshold: v.string(),
  latePayoutDays: v.number(),
  deletionCoolingOffHours: v.number(),
  autoApproveAfterHours: v.number(),
  inviteeBonus: v.string(),
  inviterBonus: v.string(),
  inviterMonthlyCap: v.string(),
  invitationBudget: v.string(),
  statementMatchTolerance: v.string(),
  cannedReasons: v.array(v.object({ en: v.string(), hi: v.string() })),
  /** The tax rules in force (docs/tax.md): the defaults until finance sets them. */
  taxRules: v.array(TaxRuleBody),
  /** Who deducts the tax (the certificates' and the return's deductor): null until set. */
  taxDeductorTan: v.nullable(v.string()),
  taxDeductorName: v.nullable(v.string()),
  taxDeductorAddress: v.nullable(v.string()),
  /** Balances that warn (docs/month-end.md): "0.00" is off. */
  payoutFloatWarnBelow: v.string(),
  taxPayableWarnAbove: v.string(),
  /** The payout bank file's layout and payer (docs/payouts.md "The bank file"). */
  ...BankFileSettingsBody,
});
export type SettingsBody = v.InferOutput<typeof SettingsBody>;

/** The settings form's refusals. */
export const SETTINGS_MESSAGES = {
  homepage: 'Homepage must be an http or https URL',
  amount: 'Enter an amount in rupees with at most two decimals',
  days: 'Enter a whole number of days from 1 to 30',
  count: 'Enter a whole number',
  hours: 'Enter a whole number of hours from 0 to 720',
  approvalHours: 'Enter a whole number of hours from 0 (off) to 2160',
  cannedReasons: `Give from 1 to ${CANNED_REASONS_MAX} reasons`,
  cannedReason: `Write each reason in English and in Hindi, at most ${REJECT_REASON_MAX_LENGTH} characters`,
} as const;

const cannedReasonText = v.pipe(
  v.string(refusal('settings.cannedReason')),
  v.trim(),
  v.minLength(1, refusal('settings.cannedReason')),
  v.maxLength(REJECT_REASON_MAX_LENGTH, refusal('settings.cannedReason')),
  noControlCharacters(),
);
/** The canned rejection reasons an admin sets (all at once: the list replaces the one in force). */
export const CannedReasonsInput = v.pipe(
  v.array(v.object({ en: cannedReasonText, hi: cannedReasonText }, refusal('settings.cannedReason')), refusal('settings.cannedReasons')),
  v.minLength(1, refusal('settings.cannedReasons')),
  v.maxLength(CANNED_REASONS_MAX, refusal('settings.cannedReasons')),
);

/** PUT /api/admin/settings: either or both. */
export const SettingsUpdateRequest = v.object({
  supportEmail: v.optional(v.pipe(v.string(refusal('auth.email')), v.trim(), v.maxLength(254, refusal('auth.email')), v.email(refusal('auth.email')))),
  homepageUrl: v.optional(
    v.pipe(
      v.string(refusal('settings.homepage')),
      v.trim(),
      v.maxLength(2000, refusal('settings.homepage')),
      v.url(refusal('settings.homepage')),
      v.check((s) => /^https?:\/\//i.test(s), refusal('settings.homepage')),
    ),
  ),
  maxTaskReward: v.optional(v.pipe(RupeeAmount({ format: refusal('settings.amount') }), v.minValue(1, refusal('settings.amount')))),
  adjustmentApprovalThreshold: v.optional(v.pipe(RupeeAmount({ format: refusal('settings.amount') }), v.minValue(1, refusal('settings.amount')))),
  memberDailyAdjustmentLimit: v.optional(v.pipe(RupeeAmount({ format: refusal('settings.amount') }), v.minValue(1, refusal('settings.amount')))),
  sessionIdleDays: v.optional(v.pipe(v.number(refusal('settings.days')), v.integer(refusal('settings.days')), v.minValue(1, refusal('settings.days')), v.maxValue(30, refusal('settings.days')))),
  uploadsPerDay: v.optional(v.pipe(v.number(refusal('settings.count')), v.integer(refusal('settings.count')), v.minValue(1, refusal('settings.count')), v.maxValue(1000, refusal('settings.count')))),
  uploadMegabytesPerDay: v.optional(
    v.pipe(v.number(refusal('settings.count')), v.integer(refusal('settings.count')), v.minValue(1, refusal('settings.count')), v.maxValue(10_000, refusal('settings.count'))),
  ),
  payoutBatchApprovalThreshold: v.optional(v.pipe(RupeeAmount({ format: refusal('settings.amount') }), v.minValue(1, refusal('settings.amount')))),
  latePayoutDays: v.optional(v.pipe(v.number(refusal('settings.days')), v.integer(refusal('settings.days')), v.minValue(1, refusal('settings.days')), v.maxValue(30, refusal('settings.days')))),
  deletionCoolingOffHours: v.optional(
    v.pipe(v.number(refusal('settings.hours')), v.integer(refusal('settings.hours')), v.minValue(0, refusal('settings.hours')), v.maxValue(720, refusal('settings.hours'))),
  ),
  autoApproveAfterHours: v.optional(
    v.pipe(v.number(refusal('settings.approvalHours')), v.integer(refusal('settings.approvalHours')), v.minValue(0, refusal('settings.approvalHours')), v.maxValue(2160, refusal('settings.approvalHours'))),
  ),
  cannedReasons: v.optional(CannedReasonsInput),
  /** A control setting: the whole list, which replaces the one in force once a second admin approves. */
  taxRules: v.optional(TaxRulesInput),
  inviteeBonus: v.optional(RupeeAmount({ format: refusal('settings.amount') })),
  inviterBonus: v.optional(RupeeAmount({ format: refusal('settings.amount') })),
  inviterMonthlyCap: v.optional(RupeeAmount({ format: refusal('settings.amount') })),
  invitationBudget: v.optional(RupeeAmount({ format: refusal('settings.amount') })),
  statementMatchTolerance: v.optional(RupeeAmount({ format: refusal('settings.amount') })),
  ...TaxDeductorInput,
  /** Plain settings: a warning moves no money (docs/settings.md). "0" turns it off. */
  payoutFloatWarnBelow: v.optional(RupeeAmount({ format: refusal('settings.amount') })),
  taxPayableWarnAbove: v.optional(RupeeAmount({ format: refusal('settings.amount') })),
  ...BankFileSettingsInput,
});

/**
 * When the system decides a proof nobody reviewed: `autoApproveAfterHours` after it came in, or
 * never (null) when auto-approval is off.
 */
export function autoApprovalDue(submittedAt: string, autoApproveAfterHours: number): string | null {
  if (autoApproveAfterHours <= 0) return null;
  return new Date(Date.parse(submittedAt) + autoApproveAfterHours * 60 * 60 * 1000).toISOString();
}

/** The actor recorded for what the system does on its own (auto-approval). */
export const SYSTEM_ACTOR = 'system';
export type SettingsUpdateRequest = v.InferOutput<typeof SettingsUpdateRequest>;
