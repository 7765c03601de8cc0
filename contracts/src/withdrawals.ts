import * as v from 'valibot';
import { noControlCharacters } from './text.ts';
import { Day } from './days.ts';
import { CorrectsField, PERIOD_MESSAGES } from './periods.ts';
import { Mobile } from './auth.ts';
import { WithdrawalDestination } from './events/withdrawals.ts';
import { type Paise, RupeeAmount, rupees } from './money.ts';
import { TransactionBody } from './wallet.ts';
import { WITHDRAWAL_STATUSES, WITHDRAWAL_STATUS_MESSAGE, WithdrawalStatus } from './withdrawal-status.ts';
import { refusal } from './refusal.ts';

export { WITHDRAWAL_STATUSES, WITHDRAWAL_STATUS_MESSAGE, WithdrawalStatus };

/** The smallest withdrawal, in paise. The domain refuses below it as well. */
export const MIN_WITHDRAWAL_PAISE: Paise = rupees(100);

/**
 * The API answers `message`; the client shows the title above it, chosen by
 * the error code: `validation_failed` on `fields.amount` -> 'Invalid Amount',
 * `insufficient_balance` -> 'Insufficient Balance'.
 */
export const WITHDRAWAL_MESSAGES = {
  amountFormat: 'Enter an amount in rupees with at most two decimals',
  minimum: `Minimum withdrawal amount is ₹${MIN_WITHDRAWAL_PAISE / 100}`,
  insufficient: "You don't have enough rupees for this withdrawal",
  accountNumber: 'Account number must be 9 to 18 digits',
  ifsc: 'Enter a valid IFSC code, e.g. HDFC0001234',
  holderName: "Enter the account holder's name",
  upiId: 'Enter a valid UPI ID, e.g. name@okhdfc',
  oneDestination: 'Choose a bank account or a UPI ID, not both',
  destinationRequired: 'Tell us where to send the money: add a bank account or a UPI ID',
  allTax: 'The tax due, {taxPaise}, takes all of this withdrawal: withdraw more to receive something',
} as const;
/**
 * Why a withdrawal in a state cannot take a finance command (`settled`: decided long enough ago
 * that it left the state the decider keeps).
 */
export const WITHDRAWAL_STATE_MESSAGES = {
  pending: 'This withdrawal request has not been paid or sent to the bank yet',
  processing: 'This withdrawal request is with the bank: wait for its result',
  paid: 'This withdrawal request has already been paid',
  failed: 'This withdrawal request has already failed',
  rejected: 'This withdrawal request has already been rejected',
  reversed: 'This withdrawal request has already been reversed',
  settled: 'This withdrawal request has already been settled',
} as const;
export const IFSC_PATTERN = /^[A-Z]{4}0[A-Z0-9]{6}$/;
export const UPI_ID_PATTERN = /^[a-zA-Z0-9._-]{2,256}@[a-zA-Z][a-zA-Z0-9]{2,64}$/;

export const WithdrawalAmount = v.pipe(
  // A negative or empty amount is simply below the minimum.
  RupeeAmount({ format: refusal('withdrawal.amountFormat'), negative: refusal('withdrawal.minimum'), empty: refusal('withdrawal.amountFormat') }),
  v.minValue(MIN_WITHDRAWAL_PAISE, refusal('withdrawal.minimum')),
);

export const BankAccount = v.object({
  // Spaces and dashes people type for readability are dropped; leading zeros are kept (a string).
  accountNumber: v.pipe(
    v.string(refusal('withdrawal.accountNumber')),
    v.transform((s) => s.replace(/[\s-]/g, '')),
    v.regex(/^\d{9,18}$/, refusal('withdrawal.accountNumber')),
  ),
  ifsc: v.pipe(v.string(refusal('withdrawal.ifsc')), v.trim(), v.toUpperCase(), v.regex(IFSC_PATTERN, refusal('withdrawal.ifsc'))),
  holderName: v.pipe(
    v.string(refusal('withdrawal.holderName')),
    v.trim(),
    v.minLength(2, refusal('withdrawal.holderName')),
    v.maxLength(100, refusal('api.holderNameTooLong')),
    noControlCharacters(),
  ),
});
export type BankAccount = v.InferOutput<typeof BankAccount>;

export const UpiId = v.pipe(v.string(refusal('withdrawal.upiId')), v.trim(), v.regex(UPI_ID_PATTERN, refusal('withdrawal.upiId')));

/**
 * POST /api/withdrawals: `{ amount, bankAccount: { accountNumber, ifsc, holderName } }` or
 * `{ amount, upiId }`; with neither, the user's last destination is used. Output amount in paise.
 */
export const WithdrawalRequest = v.pipe(
  v.object({
    amount: WithdrawalAmount,
    bankAccount: v.nullish(BankAccount),
    upiId: v.nullish(UpiId),
  }),
  v.forward(
    v.partialCheck([['bankAccount'], ['upiId']], (input) => !(input.bankAccount && input.upiId), refusal('withdrawal.oneDestination')),
    ['upiId'],
  ),
);
export type WithdrawalRequest = v.InferOutput<typeof WithdrawalRequest>;

/** The request's destination, or undefined when it names none (then the saved one is used). */
export function destinationOf(request: WithdrawalRequest): WithdrawalDestination | undefined {
  if (request.bankAccount) return { kind: 'bank', ...request.bankAccount };
  if (request.upiId) return { kind: 'upi', upiId: request.upiId };
  return undefined;
}


/** One withdrawal request as the user sees it (POST and GET /api/withdrawals), destination masked. */
export const WithdrawalBody = v.object({
  id: v.string(),
  userId: v.string(),
  /** Decimal string with two places, e.g. "100.00". */
  amount: v.string(),
  status: WithdrawalStatus,
  /** Masked for display: 'A/c XXXXXX4321 · HDFC0001234' or 'UPI ra***@okhdfc'. */
  destination: v.string(),
  destinationKind: v.picklist(['bank', 'upi']),
  requestedAt: v.string(),
  /** When it was paid, failed, rejected or reversed; null while pending or processing. */
  processedAt: v.nullable(v.string()),
  /** The transfer reference of a paid request. */
  reference: v.nullable(v.string()),
  /** Why a rejected request was refused, a payout failed or was reversed. */
  reason: v.nullable(v.string()),
  /** The payout batch it was sent in, once processing. */
  batchId: v.optional(v.nullable(v.string())),
  /**
   * Tax withheld at source from it (docs/tax.md), null when none: its amount in rupees and the
   * rule's code (codes joined by " + " when several rules charged).
   */
  tax: v.nullable(v.object({ amount: v.string(), code: v.string() })),
  /** What the bank is paid: amount − tax. */
  net: v.string(),
});
export type WithdrawalBody = v.InferOutput<typeof WithdrawalBody>;

/** GET /api/withdrawals/quote?amount=: what a withdrawal of that amount would be charged now (docs/tax.md). */
export const WithdrawalQuoteQuery = v.object({ amount: WithdrawalAmount });
export const WithdrawalQuoteBody = v.object({
  amount: v.string(),
  /** Null when no rule charges it; `label` is the rules' labels, for "tax deducted under …". */
  tax: v.nullable(v.object({ amount: v.string(), code: v.string(), label: v.string() })),
  net: v.string(),
});
export type WithdrawalQuoteBody = v.InferOutput<typeof WithdrawalQuoteBody>;

/** The destination the withdraw dialog offers (GET /api/withdrawals/destination), masked. */
export const SavedDestination = v.variant('kind', [
  v.object({
    kind: v.literal('bank'),
    label: v.string(),
    holderName: v.string(),
    ifsc: v.string(),
    accountLast4: v.string(),
  }),
  v.object({ kind: v.literal('upi'), label: v.string() }),
]);
export type SavedDestination = v.InferOutput<typeof SavedDestination>;
export const SavedDestinationBody = v.object({ destination: v.nullable(SavedDestination) });
export type SavedDestinationBody = v.InferOutput<typeof SavedDestinationBody>;

/** GET /api/ifsc/:code: a branch from the server's offline directory (Razorpay's IFSC.csv). */
export const IfscBranchBody = v.object({
  ifsc: v.string(),
  bank: v.string(),
  branch: v.string(),
  city: v.string(),
  state: v.string(),
});
export type IfscBranchBody = v.InferOutput<typeof IfscBranchBody>;
/** The path parameter of GET /api/ifsc/:code: uppercased, then the IFSC shape. */
export const IfscParam = v.object({
  code: v.pipe(v.string(refusal('withdrawal.ifsc')), v.trim(), v.toUpperCase(), v.regex(IFSC_PATTERN, refusal('withdrawal.ifsc'))),
});

// ---- Finance: processing withdrawals, manual adjustments ----

/** GET /api/admin/withdrawals?status=pending|paid|rejected|all (default pending). */
export const WithdrawalQueueQuery = v.object({
  status: v.optional(v.picklist([...WITHDRAWAL_STATUSES, 'all'], refusal('api.statusFilter')), 'pending'),
});

/** A withdrawal as finance staff see it: who asked, and the full destination to pay. */
export const FinanceWithdrawalBody = v.object({
  ...WithdrawalBody.entries,
  user: v.object({ id: v.string(), name: v.string(), mobile: v.string() }),
  /** Unmasked: staff need every digit to make the transfer. */
  payTo: WithdrawalDestination,
  /** The staff member who paid or rejected it. */
  processedBy: v.nullable(v.string()),
  /** Their name, for the history and its CSV. */
  processedByName: v.nullable(v.string()),
});
export type FinanceWithdrawalBody = v.InferOutput<typeof FinanceWithdrawalBody>;

export const MarkWithdrawalPaidRequest = v.object({
  reference: v.pipe(
    v.string(refusal('api.transferReferenceRequired')),
    v.trim(),
    v.regex(/^[A-Za-z0-9][A-Za-z0-9 ./_-]{3,63}$/, refusal('api.transferReference')),
  ),
  /**
   * The bank's value date (IST day `YYYY-MM-DD`, not in the future): the payout's effective day in
   * the books (docs/month-end.md); the day it is recorded when absent or empty. In a closed month: 409.
   */
  valueDate: v.optional(v.union([v.pipe(v.literal(''), v.transform(() => undefined)), Day(refusal('period.valueDate'))], refusal('period.valueDate'))),
});
export type MarkWithdrawalPaidRequest = v.InferOutput<typeof MarkWithdrawalPaidRequest>;

const Reason = v.pipe(
  v.string(refusal('api.reasonRequired')),
  v.trim(),
  v.minLength(3, refusal('api.reasonTooShort')),
  v.maxLength(300, refusal('api.reasonUnder300')),
  noControlCharacters(),
);

export const RejectWithdrawalRequest = v.object({ reason: Reason });
export type RejectWithdrawalRequest = v.InferOutput<typeof RejectWithdrawalRequest>;
/** POST /api/admin/withdrawals/:id/reverse: the bank returned a paid withdrawal. */
export const ReverseWithdrawalRequest = v.object({ reason: Reason });
export type ReverseWithdrawalRequest = v.InferOutput<typeof ReverseWithdrawalRequest>;

/** POST /api/admin/adjustments: a manual ledger entry on the wallet of the user with this mobile. */
export const AdjustmentRequest = v.object({
  mobile: Mobile,
  amount: v.pipe(
    RupeeAmount({ format: refusal('withdrawal.amountFormat'), negative: refusal('api.amountAboveZero') }),
    v.minValue(1, refusal('api.amountAboveZero')),
  ),
  direction: v.picklist(['credit', 'debit'], refusal('api.directionFilter')),
  reason: Reason,
  /**
   * The IST day it takes effect (docs/month-end.md); today when absent. A day inside a closed month
   * is refused (409 `period_closed`): a correction goes into an open month. An empty field (a form
   * left blank) is today too.
   */
  effectiveDate: v.optional(
    v.union([v.pipe(v.literal(''), v.transform(() => undefined)), Day(refusal('period.effectiveDate'))], refusal('period.effectiveDate')),
  ),
  /**
   * What it corrects (a transaction, entry or funding id), kept on its journal entry: a correction of
   * a closed month goes into an open one naming what it corrects. Empty is none.
   */
  corrects: v.optional(v.union([v.pipe(v.literal(''), v.transform(() => undefined)), CorrectsField], refusal('period.corrects'))),
});
export type AdjustmentRequest = v.InferOutput<typeof AdjustmentRequest>;

export const AdjustmentBody = v.object({
  userId: v.string(),
  mobile: v.string(),
  transaction: TransactionBody,
  /** The wallet balance after the adjustment. */
  balance: v.string(),
});
export type AdjustmentBody = v.InferOutput<typeof AdjustmentBody>;
