import * as v from 'valibot';

const IsoTime = v.pipe(v.string(), v.isoTimestamp());

/** The balances finance is warned about (docs/month-end.md#balances-that-warn). */
export const WARNED_BALANCES = ['payout_float', 'tax_payable'] as const;
export type WarnedBalance = (typeof WARNED_BALANCES)[number];

/**
 * `balance-warnings`: each crossing of a balance's threshold, once. Raised when the payout float
 * falls below `payoutFloatWarnBelow` or the tax payable rises above `taxPayableWarnAbove`; cleared
 * when it is back, which arms the next warning. `notify` are the finance members told (ids).
 */
export const balanceWarningEvents = {
  BalanceWarningRaised: v.object({
    warningId: v.string(),
    balance: v.picklist(WARNED_BALANCES),
    amountPaise: v.number(),
    thresholdPaise: v.number(),
    notify: v.array(v.string()),
    raisedAt: IsoTime,
  }),
  BalanceWarningCleared: v.object({
    warningId: v.string(),
    balance: v.picklist(WARNED_BALANCES),
    amountPaise: v.number(),
    thresholdPaise: v.number(),
    clearedAt: IsoTime,
  }),
};
