import * as v from 'valibot';

const IsoTime = v.pipe(v.string(), v.isoTimestamp());
const Month = v.pipe(v.string(), v.regex(/^\d{4}-\d{2}$/));

/**
 * `ledger-period-<YYYY-MM>`: closing one month of the books (docs/month-end.md). One finance member
 * asks, a different one approves; from then on nothing is posted with an effective day inside it.
 */
export const ledgerPeriodEvents = {
  LedgerPeriodCloseRequested: v.object({ month: Month, requestedBy: v.string(), requestedAt: IsoTime }),
  LedgerPeriodClosed: v.object({ month: Month, requestedBy: v.string(), closedBy: v.string(), closedAt: IsoTime }),
};
