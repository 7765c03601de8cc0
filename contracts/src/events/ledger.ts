import * as v from 'valibot';
import { MessageParams } from '../messages.ts';
import { NOTIFICATION_KEYS } from '../recorded-texts.ts';

const IsoTime = v.pipe(v.string(), v.isoTimestamp());
const PositivePaise = v.pipe(v.number(), v.integer(), v.minValue(1));
/** An IST day `YYYY-MM-DD`. */
const IstDay = v.pipe(v.string(), v.regex(/^\d{4}-\d{2}-\d{2}$/));

/**
 * An entry's accounting facts beside its recorded time (docs/month-end.md): the IST day it takes
 * effect when that is not the day it was recorded (an adjustment's `effectiveDate`), and the
 * transaction, entry or funding a correction corrects. Absent on older events and on entries that
 * take effect the day they are recorded.
 */
const Accounting = {
  effectiveDate: v.optional(IstDay),
  corrects: v.optional(v.string()),
};

/** Why money came in. */
export const CREDIT_KINDS = ['task_reward', 'kyc_bonus', 'withdrawal_refund', 'adjustment', 'payout_failed', 'payout_reversal', 'referral_bonus', 'tax_refund'] as const;
/** Credits that give back a withdrawal's amount (rejected, failed at the bank, reversed after paying, and the tax withheld from it): they undo "withdrawn". */
export const WITHDRAWAL_RETURN_KINDS: ReadonlySet<string> = new Set<(typeof CREDIT_KINDS)[number]>(['withdrawal_refund', 'payout_failed', 'payout_reversal', 'tax_refund']);
/** The credits that count as earnings (the user body's totalEarned, the transactions' `earned` type). */
export const EARNING_KINDS: ReadonlySet<string> = new Set<(typeof CREDIT_KINDS)[number]>(['task_reward', 'kyc_bonus', 'referral_bonus']);

/** Why money went out. */
export const DEBIT_KINDS = ['withdrawal', 'adjustment', 'tax_withheld'] as const;
/** Debits that are part of a withdrawal: its hold (what the bank is paid) and the tax withheld from it (docs/tax.md). */
export const WITHDRAWAL_DEBIT_KINDS: ReadonlySet<string> = new Set<(typeof DEBIT_KINDS)[number]>(['withdrawal', 'tax_withheld']);

/**
 * The ledger, on the user's stream: every rupee that moves is one of these two events, in paise,
 * naming what caused it. The balance is their sum and never goes below zero.
 */
export const ledgerEvents = {
  WalletCredited: v.object({
    entryId: v.string(),
    amountPaise: PositivePaise,
    kind: v.picklist(CREDIT_KINDS),
    /** The text of events recorded before texts became keys; newer ones carry `params` (see LEDGER_TEXTS). */
    description: v.optional(v.string()),
    /** The facts its description is made of (task title, reason, destination), by LEDGER_TEXTS' names. */
    params: v.optional(MessageParams),
    /** The task a reward was for. */
    taskId: v.optional(v.string()),
    /** What caused it: a submission id, a withdrawal id, an adjustment's reason code. */
    reference: v.optional(v.string()),
    /** The staff member who caused it, for reviews and adjustments. */
    by: v.optional(v.string()),
    creditedAt: IsoTime,
    ...Accounting,
  }),
  WalletDebited: v.object({
    entryId: v.string(),
    amountPaise: PositivePaise,
    kind: v.picklist(DEBIT_KINDS),
    description: v.optional(v.string()),
    params: v.optional(MessageParams),
    reference: v.optional(v.string()),
    by: v.optional(v.string()),
    debitedAt: IsoTime,
    ...Accounting,
  }),
};

/** The spec's notification types; anything but the first three shows the info icon. */
export const NOTIFICATION_KINDS = ['success', 'warning', 'error', 'info'] as const;

/** In-app notifications, on the user's stream. */
export const notificationEvents = {
  NotificationSent: v.object({
    notificationId: v.string(),
    /** What it says: a key of NOTIFICATION_TEXTS and its parameters, rendered in the reader's language. */
    key: v.optional(v.picklist(NOTIFICATION_KEYS)),
    params: v.optional(MessageParams),
    /** The literal texts of notifications recorded before texts became keys. */
    title: v.optional(v.string()),
    message: v.optional(v.string()),
    kind: v.picklist(NOTIFICATION_KINDS),
    sentAt: IsoTime,
  }),
  NotificationRead: v.object({ notificationId: v.string(), readAt: IsoTime }),
  /** Marks read every notification sent before it. */
  AllNotificationsRead: v.object({ readAt: IsoTime }),
  NotificationDeleted: v.object({ notificationId: v.string(), deletedAt: IsoTime }),
};

/**
 * Adjustments above the approval threshold, on the user's stream: requested by one finance member,
 * they move money only when a different one approves (the approval is appended with the ledger
 * entry, whose entryId is the adjustment id), or never when rejected.
 */
export const adjustmentEvents = {
  AdjustmentRequested: v.object({
    adjustmentId: v.string(),
    amountPaise: PositivePaise,
    direction: v.picklist(['credit', 'debit']),
    reason: v.string(),
    /** The canned reason it was (REASON_OTHER when written by hand), plain for statistics: the text itself is sealed. Absent on older events. */
    reasonCode: v.optional(v.string()),
    requestedBy: v.string(),
    requestedAt: IsoTime,
    /** Carried to the entry its approval moves. */
    ...Accounting,
  }),
  AdjustmentApproved: v.object({ adjustmentId: v.string(), approvedBy: v.string(), approvedAt: IsoTime }),
  AdjustmentRejected: v.object({ adjustmentId: v.string(), rejectedBy: v.string(), rejectedAt: IsoTime }),
};
