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
