import * as v from 'valibot';

const IsoTime = v.pipe(v.string(), v.isoTimestamp());
const PositivePaise = v.pipe(v.number(), v.integer(), v.minValue(1));
const Day = v.pipe(v.string(), v.regex(/^\d{4}-\d{2}-\d{2}$/));

/**
 * `funding-<id>`: the company's money moved into the payout bank account, as finance records it.
 * Above the approval threshold it waits for a second finance member. A booked funding (recorded
 * without approval, or approved) is one journal transaction platform:bank -> platform:company_funding.
 * The reference is the company's bank's, not a person's.
 */
export const fundingEvents = {
  BankFundingRecorded: v.object({
    fundingId: v.string(),
    amountPaise: PositivePaise,
    /** The incoming transfer's bank reference. */
    reference: v.string(),
    /** The IST day the money arrived. */
    valueDate: Day,
    recordedBy: v.string(),
    recordedAt: IsoTime,
    /** Above the threshold: nothing is booked until BankFundingApproved. */
    approvalRequired: v.boolean(),
  }),
  /** Carries the amount and reference again, so booking needs nothing remembered. */
  BankFundingApproved: v.object({
    fundingId: v.string(),
    amountPaise: PositivePaise,
    reference: v.string(),
    valueDate: Day,
    approvedBy: v.string(),
    approvedAt: IsoTime,
  }),
  BankFundingRejected: v.object({ fundingId: v.string(), rejectedBy: v.string(), rejectedAt: IsoTime }),
  /** A finance member asks to take a booked funding back (booked in error); nothing moves until another approves. */
  BankFundingReversalRequested: v.object({ fundingId: v.string(), reason: v.string(), requestedBy: v.string(), requestedAt: IsoTime }),
  /**
   * A second finance member approved the reversal: one journal transaction back,
   * platform:company_funding -> platform:bank. Carries what it books, as BankFundingApproved does.
   */
  BankFundingReversed: v.object({
    fundingId: v.string(),
    amountPaise: PositivePaise,
    reference: v.string(),
    valueDate: Day,
    reason: v.string(),
    requestedBy: v.string(),
    approvedBy: v.string(),
    reversedAt: IsoTime,
  }),
};
