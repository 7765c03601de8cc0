import * as v from 'valibot';

const IsoTime = v.pipe(v.string(), v.isoTimestamp());
const Day = v.pipe(v.string(), v.regex(/^\d{4}-\d{2}-\d{2}$/));

/**
 * `tax-deposits-<quarter>`: the tax withheld in a quarter, deposited with the government (a
 * challan). One journal transaction platform:tax_payable -> platform:bank (docs/tax.md).
 */
export const taxDepositEvents = {
  TaxDepositRecorded: v.object({
    depositId: v.string(),
    /** `2026-27-Q3` */
    quarter: v.string(),
    bsrCode: v.string(),
    serial: v.string(),
    /** The IST day it was deposited. */
    depositDate: Day,
    amountPaise: v.pipe(v.number(), v.integer(), v.minValue(1)),
    recordedBy: v.string(),
    recordedAt: IsoTime,
  }),
};

const PaiseAmount = v.pipe(v.number(), v.integer());

/** One financial year's totals under a PAN: the credits the rules count, by kind, and the tax withheld, by rule code. */
export const TaxYearTotals = v.object({
  /** `2026-27` */
  fy: v.string(),
  credited: v.array(v.object({ kind: v.string(), amountPaise: PaiseAmount })),
  withheld: v.array(v.object({ code: v.string(), amountPaise: PaiseAmount })),
});
export type TaxYearTotals = v.InferOutput<typeof TaxYearTotals>;

/**
 * `tax-payee-<keyed hash of the PAN>`: one payee for tax, whichever account proves the PAN. One live
 * account holds it at a time (the first approved); an erased holder gives it back with the year's
 * totals paid under the PAN, which the next holder starts from (docs/tax.md).
 */
export const taxPayeeEvents = {
  TaxPayeeClaimed: v.object({
    userId: v.string(),
    /** The PAN document whose approval claimed it. */
    documentId: v.string(),
    claimedAt: IsoTime,
  }),
  TaxPayeeReleased: v.object({
    userId: v.string(),
    /** The holder's totals as it left (carried ones included): what the next holder starts from. */
    years: v.array(TaxYearTotals),
    releasedAt: IsoTime,
  }),
};
