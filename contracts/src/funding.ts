import * as v from 'valibot';
import { RupeeAmount } from './money.ts';
import { noControlCharacters } from './text.ts';
import { refusal } from './refusal.ts';

/**
 * Funding of the payout account: the company's money moved into the bank account payouts leave
 * from, booked so `platform:bank` has a real balance. Four eyes above the adjustment threshold.
 */

export const FUNDING_MESSAGES = {
  amount: 'Enter an amount in rupees with at most two decimals',
  amountPositive: 'Amount must be more than zero',
  reference: 'Enter the bank reference of the transfer (1 to 64 characters)',
  date: 'Enter the day the money arrived (YYYY-MM-DD)',
  futureDate: 'The day the money arrived cannot be in the future',
  notFound: 'Funding not found',
  ownFunding: 'Another finance member must approve a funding you recorded',
  status: 'status must be pending, booked, rejected, reversal_requested, reversed or all',
  alreadyApproved: 'This funding was already approved',
  alreadyRejected: 'This funding was already rejected',
  exists: 'This funding is already recorded',
  duplicateReference: 'This bank reference is already recorded for another funding',
  notBooked: 'Only a booked funding can be reversed',
  reversalRequested: 'A reversal of this funding is already waiting for approval',
  noReversal: 'No reversal of this funding is waiting for approval',
  ownReversal: 'Another finance member must approve a reversal you asked for',
  reason: 'Give a reason (1 to 500 characters)',
} as const;

/** `reversal_requested`: booked, and a reversal waits for a second member; `reversed`: taken back. */
export const FUNDING_STATUSES = ['pending', 'booked', 'rejected', 'reversal_requested', 'reversed'] as const;
export type FundingStatus = (typeof FUNDING_STATUSES)[number];

/** POST /api/admin/ledger/funding */
export const FundingRequest = v.object({
  amount: v.pipe(RupeeAmount({ format: refusal('funding.amount'), negative: refusal('funding.amountPositive') }), v.minValue(1, refusal('funding.amountPositive'))),
  reference: v.pipe(
    v.string(refusal('funding.reference')),
    v.trim(),
    v.minLength(1, refusal('funding.reference')),
    v.maxLength(64, refusal('funding.reference')),
    noControlCharacters(),
  ),
  date: v.pipe(
    v.string(refusal('funding.date')),
    v.trim(),
    v.regex(/^\d{4}-\d{2}-\d{2}$/, refusal('funding.date')),
    v.check((s) => !Number.isNaN(Date.parse(s)) && new Date(s).toISOString().slice(0, 10) === s, refusal('funding.date')),
  ),
});
export type FundingRequest = v.InferOutput<typeof FundingRequest>;

/** POST /api/admin/ledger/funding/:id/reverse */
export const FundingReversalRequest = v.object({
  reason: v.pipe(v.string(refusal('funding.reason')), v.trim(), v.minLength(1, refusal('funding.reason')), v.maxLength(500, refusal('funding.reason')), noControlCharacters()),
});
export type FundingReversalRequest = v.InferOutput<typeof FundingReversalRequest>;

/** GET /api/admin/ledger/funding?status= */
export const FundingQuery = v.object({
  status: v.optional(v.picklist([...FUNDING_STATUSES, 'all'], refusal('funding.status')), 'all'),
});

/** A funding as finance sees it (the answer of every funding route; the list is an array of it). */
export const FundingBody = v.strictObject({
  id: v.string(),
  /** Decimal rupees. */
  amount: v.string(),
  reference: v.string(),
  /** The IST day the money arrived. */
  date: v.string(),
  status: v.picklist(FUNDING_STATUSES),
  recordedBy: v.string(),
  recordedAt: v.string(),
  /** Who approved or rejected it; for a funding booked at once, its recorder. */
  decidedBy: v.nullable(v.string()),
  decidedAt: v.nullable(v.string()),
});
export type FundingBody = v.InferOutput<typeof FundingBody>;
