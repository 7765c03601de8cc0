import * as v from 'valibot';
import { TaxRuleEvent } from '../tax.ts';
import { BANK_FILE_TEMPLATES } from '../bank-file-templates.ts';

const IsoTime = v.pipe(v.string(), v.isoTimestamp());
const PositivePaise = v.pipe(v.number(), v.integer(), v.minValue(1));

/**
 * Where a withdrawal is paid. Kept in full on the user's stream because finance staff need every
 * digit to make the transfer; every screen but the finance queue shows it masked.
 */
export const WithdrawalDestination = v.variant('kind', [
  v.object({ kind: v.literal('bank'), accountNumber: v.string(), ifsc: v.string(), holderName: v.string() }),
  v.object({ kind: v.literal('upi'), upiId: v.string() }),
]);
export type WithdrawalDestination = v.InferOutput<typeof WithdrawalDestination>;

/**
 * Withdrawal events of a `user-<id>` stream. A request is appended together with the ledger debit
 * that holds its amount (kind `withdrawal`, reference = withdrawal id) and a notification, in one
 * append. Paying settles the hold (no further wallet entry; it records the amount paid); rejecting is appended with the refund
 * credit (kind `withdrawal_refund`).
 */
export const withdrawalEvents = {
  WithdrawalRequested: v.object({
    withdrawalId: v.string(),
    amountPaise: PositivePaise,
    destination: WithdrawalDestination,
    requestedAt: IsoTime,
    /**
     * Tax withheld from it at source (docs/tax.md), one entry per rule that charged; each is also a
     * wallet debit of kind `tax_withheld` in the same append. `amountPaise` stays the gross: the
     * bank is paid gross − the taxes. Absent on requests recorded before withholding.
     */
    taxes: v.optional(
      v.array(
        v.object({
          code: v.string(),
          amountPaise: PositivePaise,
          /** What the rate was applied to: the payment, or the financial year's total. */
          basePaise: v.pipe(v.number(), v.integer(), v.minValue(0)),
          rateBasisPoints: v.pipe(v.number(), v.integer(), v.minValue(0), v.maxValue(10_000)),
        }),
      ),
    ),
  }),
  WithdrawalPaid: v.object({
    withdrawalId: v.string(),
    /** The bank or UPI transfer reference (UTR). */
    reference: v.string(),
    /** The staff member who paid it. */
    paidBy: v.string(),
    paidAt: IsoTime,
    /** The amount paid, in paise. Absent on events recorded before it was kept: the request's amount. */
    amountPaise: v.optional(PositivePaise),
    /** The bank's value date (IST day) when it was given; the journal's effective day is paidAt's IST day otherwise. */
    valueDate: v.optional(v.pipe(v.string(), v.regex(/^\d{4}-\d{2}-\d{2}$/))),
  }),
  WithdrawalRejected: v.object({
    withdrawalId: v.string(),
    reason: v.string(),
    /** The canned reason it was (REASON_OTHER when written by hand), plain for statistics: the text itself is sealed. Absent on older events. */
    reasonCode: v.optional(v.string()),
    rejectedBy: v.string(),
    rejectedAt: IsoTime,
  }),
  /** Put into a payout batch: sent to the bank, waiting for its result. Moves no money. */
  WithdrawalProcessing: v.object({
    withdrawalId: v.string(),
    batchId: v.string(),
    by: v.string(),
    processingAt: IsoTime,
  }),
  /**
   * The bank could not pay it (after processing). Appended with the credit that returns the held
   * amount (kind `payout_failed`: payout pending -> available).
   */
  WithdrawalFailed: v.object({
    withdrawalId: v.string(),
    /** The bank's failure reason, as its results file gave it. */
    reason: v.string(),
    by: v.string(),
    failedAt: IsoTime,
  }),
  /**
   * A paid withdrawal the bank returned. Appended with the credit that gives the money back
   * (kind `payout_reversal`: bank -> available).
   */
  WithdrawalReversed: v.object({
    withdrawalId: v.string(),
    reason: v.string(),
    by: v.string(),
    reversedAt: IsoTime,
  }),
};

/** Values of the control settings, by limit key (paise for money, hours for the approval window). */
const ControlLimitValues = v.object({
  maxTaskRewardPaise: v.optional(v.number()),
  adjustmentApprovalThresholdPaise: v.optional(v.number()),
  memberDailyAdjustmentLimitPaise: v.optional(v.number()),
  payoutBatchApprovalThresholdPaise: v.optional(v.number()),
  autoApproveAfterHours: v.optional(v.number()),
  /** The whole list of tax rules (docs/tax.md); absent on events from before tax rules. */
  taxRules: v.optional(v.array(TaxRuleEvent)),
  inviteeBonusPaise: v.optional(v.number()),
  inviterBonusPaise: v.optional(v.number()),
  inviterMonthlyCapPaise: v.optional(v.number()),
  invitationBudgetPaise: v.optional(v.number()),
});

/** The `settings` stream: support e-mail and homepage. Only the fields that changed are present. */
export const settingsEvents = {
  SettingsUpdated: v.object({
    supportEmail: v.optional(v.string()),
    homepageUrl: v.optional(v.string()),
    maxTaskRewardPaise: v.optional(v.number()),
    adjustmentApprovalThresholdPaise: v.optional(v.number()),
    memberDailyAdjustmentLimitPaise: v.optional(v.number()),
    sessionIdleDays: v.optional(v.number()),
    uploadsPerDay: v.optional(v.number()),
    uploadBytesPerDay: v.optional(v.number()),
    autoApproveAfterHours: v.optional(v.number()),
    payoutBatchApprovalThresholdPaise: v.optional(v.number()),
    latePayoutDays: v.optional(v.number()),
    deletionCoolingOffHours: v.optional(v.number()),
    inviteeBonusPaise: v.optional(v.number()),
    inviterBonusPaise: v.optional(v.number()),
    inviterMonthlyCapPaise: v.optional(v.number()),
    invitationBudgetPaise: v.optional(v.number()),
    statementMatchTolerancePaise: v.optional(v.number()),
    payoutFloatWarnBelowPaise: v.optional(v.number()),
    taxPayableWarnAbovePaise: v.optional(v.number()),
    /** The whole list of canned rejection reasons (it replaces the one in force). */
    cannedReasons: v.optional(v.array(v.object({ en: v.string(), hi: v.string() }))),
    /** The whole list of tax rules (it replaces the one in force): a control setting, so only on approval. */
    taxRules: v.optional(v.array(TaxRuleEvent)),
    /** The tax deductor's details (docs/tax.md), each when it changed. */
    taxDeductorTan: v.optional(v.string()),
    taxDeductorName: v.optional(v.string()),
    taxDeductorAddress: v.optional(v.string()),
    /** The payout bank file's layout and payer (docs/payouts.md); each present only when it changed. */
    bankFileTemplate: v.optional(v.picklist(BANK_FILE_TEMPLATES)),
    bankDebitAccount: v.optional(v.string()),
    bankPayerName: v.optional(v.string()),
    bankPayerIfsc: v.optional(v.string()),
    updatedBy: v.string(),
    updatedAt: IsoTime,
  }),
  /**
   * An admin asked to change control settings: nothing changes until a different admin approves.
   * `basis` holds the values in force when asked, so an approval after they moved is refused.
   */
  SettingsChangeRequested: v.object({
    requestId: v.string(),
    changes: ControlLimitValues,
    basis: ControlLimitValues,
    requestedBy: v.string(),
    requestedAt: IsoTime,
  }),
  /** A second admin approved; appended with the SettingsUpdated that puts the values in force. */
  SettingsChangeApproved: v.object({ requestId: v.string(), approvedBy: v.string(), approvedAt: IsoTime }),
  /** Another admin rejected the request, or its requester cancelled it (`rejectedBy` is then the requester). */
  SettingsChangeRejected: v.object({ requestId: v.string(), rejectedBy: v.string(), rejectedAt: IsoTime }),
};
