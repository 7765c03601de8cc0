import { type MessageParams, renderText } from './messages.ts';

/**
 * The English texts the server records for a person to read, by the key an event carries (see
 * messages.ts). A module of their own so that code that only fills in texts (the web's first screen)
 * does not carry them.
 */

/** Notification texts, by the key a `NotificationSent` event carries. */
export const NOTIFICATION_TEXTS = {
  task_approved: {
    title: 'Task Approved',
    message: '{amountPaise} has been added to your wallet for "{taskTitle}"',
  },
  proof_rejected: {
    title: 'Proof Rejected',
    message: 'Your proof for "{taskTitle}" was not accepted: {reason}. You can submit it again.',
  },
  wallet_credited: { title: 'Wallet Credited', message: '{amountPaise} was added to your wallet: {reason}' },
  wallet_debited: { title: 'Wallet Debited', message: '{amountPaise} was deducted from your wallet: {reason}' },
  withdrawal_requested: {
    title: 'Withdrawal Requested',
    message: 'Your request to withdraw {amountPaise} to {destination} has been submitted for review. It is processed in 24-48 hours.',
  },
  withdrawal_paid: {
    title: 'Withdrawal Paid',
    message: '{amountPaise} has been sent to {destination}. Transfer reference: {reference}.',
  },
  withdrawal_rejected: {
    title: 'Withdrawal Rejected',
    message: 'Your withdrawal of {amountPaise} was not processed: {reason}. The amount is back in your wallet.',
  },
  withdrawal_failed: {
    title: 'Withdrawal Failed',
    message: 'Your withdrawal of {amountPaise} could not be sent: {reason}. {amountPaise} is back in your wallet.',
  },
  withdrawal_reversed: {
    title: 'Withdrawal Returned',
    message: 'The bank returned your withdrawal of {amountPaise} (transfer reference {reference}): {reason}. {amountPaise} is back in your wallet.',
  },
  kyc_pan_approved: { title: 'Document Approved', message: 'Your PAN Card has been approved.' },
  kyc_voter_id_approved: { title: 'Document Approved', message: 'Your Voter ID has been approved.' },
  kyc_pan_rejected: { title: 'Document Rejected', message: 'Your PAN Card was not accepted: {reason}. Please upload it again.' },
  kyc_voter_id_rejected: { title: 'Document Rejected', message: 'Your Voter ID was not accepted: {reason}. Please upload it again.' },
  kyc_bonus: { title: 'KYC Completed!', message: '{amountPaise} has been added to your wallet' },
  account_suspended: {
    title: 'Account Suspended',
    message: 'Your account has been suspended: {reason}. You can still sign in and see your wallet, but cannot do tasks or withdraw.',
  },
  account_unsuspended: { title: 'Account Restored', message: 'Your account is active again. You can do tasks and withdraw.' },
  deletion_requested: {
    title: 'Account Deletion Requested',
    message: 'We received your request to delete your account. You can cancel it until the cooling-off period ends.',
  },
  deletion_cancelled: { title: 'Account Deletion Cancelled', message: 'Your request to delete your account was cancelled.' },
  proof_needs_changes: {
    title: 'Changes Needed',
    message: 'Your proof for "{taskTitle}" needs a change: {reason}. Send it again within 48 hours.',
  },
  appeal_upheld: { title: 'Appeal Decided', message: 'Your appeal for "{taskTitle}" was not accepted: {reason}.' },
  appeal_overturned: { title: 'Appeal Accepted', message: 'Your appeal for "{taskTitle}" was accepted. {amountPaise} has been added to your wallet.' },
  invite_bonus: { title: 'Invitation Bonus', message: '{amountPaise} has been added to your wallet for an invitation' },
  /** Finance: a balance crossed its warning threshold (docs/month-end.md#balances-that-warn). */
  payout_float_low: {
    title: 'Payout Float Low',
    message: 'The payout float is {amountPaise}, below the warning level of {thresholdPaise}. Fund the payout account before payouts stop.',
  },
  tax_payable_high: {
    title: 'Tax Payable High',
    message: 'Tax withheld and not yet deposited is {amountPaise}, above the warning level of {thresholdPaise}. Deposit it with a challan.',
  },
} as const satisfies Record<string, { title: string; message: string }>;
export type NotificationKey = keyof typeof NOTIFICATION_TEXTS;
export const NOTIFICATION_KEYS = Object.keys(NOTIFICATION_TEXTS) as [NotificationKey, ...NotificationKey[]];

/**
 * Ledger descriptions, by the entry's kind: a `WalletCredited` or `WalletDebited` event carries its
 * kind and the parameters, and its description is this text filled in.
 */
export const LEDGER_TEXTS = {
  task_reward: 'Task completed: {taskTitle}',
  kyc_bonus: 'KYC verification bonus',
  withdrawal: 'Withdrawal to {destination}',
  withdrawal_refund: 'Refund of rejected withdrawal: {reason}',
  adjustment: 'Adjustment: {reason}',
  payout_failed: 'Refund of failed withdrawal: {reason}',
  payout_reversal: 'Refund of reversed withdrawal: {reason}',
  /** Not a wallet entry: the journal's line for a paid withdrawal (payout pending -> bank). */
  withdrawal_paid: 'Withdrawal paid, transfer reference {reference}',
  /** Not a wallet entry: the company's money into the payout account (platform:bank -> platform:company_funding). */
  bank_funding: 'Payout account funded, bank reference {reference}',
  /** Not a wallet entry: a funding taken back by two finance members (platform:company_funding -> platform:bank). */
  bank_funding_reversed: 'Payout account funding reversed, bank reference {reference}',
  referral_bonus: 'Invitation bonus',
  /** Tax withheld from a withdrawal (wallet -> platform:tax_payable), under the rule's code. */
  tax_withheld: 'Tax deducted under {code}',
  /** Withheld tax given back when its withdrawal was rejected, failed or reversed. */
  tax_refund: 'Tax given back under {code}',
  /** Not a wallet entry: withheld tax deposited with the government (platform:tax_payable -> platform:bank). */
  tax_deposit: 'Tax deposited for {quarter}, challan {bsrCode}/{serial} of {date}',
  /** Not a wallet entry: a bank fee on a statement line (expense:bank_charges -> platform:bank). */
  bank_charge: 'Bank charges on the statement of {date}',
  /** Not a wallet entry: a statement difference written off by two finance members. */
  reconciliation_difference: 'Statement difference written off, dated {date}',
} as const satisfies Record<string, string>;
export type LedgerTextKind = keyof typeof LEDGER_TEXTS;

/**
 * Adjustment reasons the app itself writes (a staff member's reason is their own words, sealed, with
 * `reasonCode` REASON_OTHER): the English text is the entry's `params.reason` and `params.reasonCode`
 * names it, so a reader sees it in their language (the web's `messages` namespace, `adjustmentReasons.<code>`).
 */
export const ADJUSTMENT_REASONS = {
  demo_welcome: 'Welcome bonus (demo data)',
} as const satisfies Record<string, string>;
export type AdjustmentReasonCode = keyof typeof ADJUSTMENT_REASONS;

/** What a notification event says, in English: from its key, or the literal text older events kept. */
export function notificationText(data: {
  key?: NotificationKey | undefined;
  params?: MessageParams | undefined;
  title?: string | undefined;
  message?: string | undefined;
}): { title: string; message: string } {
  if (data.key) {
    const texts = NOTIFICATION_TEXTS[data.key];
    return { title: texts.title, message: renderText(texts.message, data.params) };
  }
  return { title: data.title ?? '', message: data.message ?? '' };
}

/** A ledger entry's description, in English: from its kind, or the literal text older events kept. */
export function ledgerText(data: { kind: LedgerTextKind; params?: MessageParams | undefined; description?: string | undefined }): string {
  if (data.description !== undefined) return data.description;
  return renderText(LEDGER_TEXTS[data.kind], data.params);
}
