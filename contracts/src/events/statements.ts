import * as v from 'valibot';
import { STATEMENT_EXCEPTION_KINDS, STATEMENT_MATCH_KINDS } from '../statements.ts';

const IsoTime = v.pipe(v.string(), v.isoTimestamp());
const PositivePaise = v.pipe(v.number(), v.integer(), v.minValue(1));
const Count = v.pipe(v.number(), v.integer(), v.minValue(0));
const Paise = v.pipe(v.number(), v.integer());

/**
 * On `bank-statement-<runId>`, beside BankStatementReconciled: how each line was matched, the
 * closing balance against the ledger's, and the exceptions the queue opens (each with its own id).
 */
export const bankStatementMatchEvents = {
  BankStatementMatched: v.object({
    runId: v.string(),
    tolerancePaise: Count,
    matches: v.array(v.object({ line: Count, kind: v.picklist(STATEMENT_MATCH_KINDS), target: v.nullable(v.string()), amountPaise: PositivePaise })),
    closingBalancePaise: v.nullable(Paise),
    ledgerBalancePaise: Paise,
    exceptions: v.array(
      v.object({
        exceptionId: v.string(),
        kind: v.picklist(STATEMENT_EXCEPTION_KINDS),
        line: v.nullable(Count),
        date: v.string(),
        amountPaise: PositivePaise,
        reference: v.nullable(v.string()),
      }),
    ),
    matchedAt: IsoTime,
  }),
  /**
   * One bank fee a matched line carried, booked in the journal (expense:bank_charges -> platform:bank)
   * effective on the line's IST day `date`, or (that month closed) on `effectiveDate` in the open
   * month. `target` is the payout or batch the fee sat beside.
   */
  BankFeeBooked: v.object({
    runId: v.string(),
    line: Count,
    date: v.string(),
    effectiveDate: v.string(),
    amountPaise: PositivePaise,
    target: v.nullable(v.string()),
    by: v.string(),
    bookedAt: IsoTime,
  }),
};

/**
 * `statement-exception-<id>`: one exception's resolution. Matched by hand with a note, or written
 * off: one finance member asks (with a note), a different one approves. Notes are free text, sealed.
 */
export const statementExceptionEvents = {
  StatementExceptionMatchedByHand: v.object({ exceptionId: v.string(), by: v.string(), note: v.string(), matchedAt: IsoTime }),
  StatementWriteOffRequested: v.object({ exceptionId: v.string(), by: v.string(), note: v.string(), requestedAt: IsoTime }),
  StatementWrittenOff: v.object({ exceptionId: v.string(), requestedBy: v.string(), approvedBy: v.string(), writtenOffAt: IsoTime }),
  /**
   * Beside StatementWrittenOff: the difference booked in the journal against platform:bank. `out`:
   * the bank holds less than the books (expense:reconciliation_differences -> platform:bank); `in`:
   * more. Effective on the exception's day, or in the open month with `corrects` (the exception's
   * id) when its month is closed.
   */
  StatementDifferenceBooked: v.object({
    exceptionId: v.string(),
    kind: v.picklist(STATEMENT_EXCEPTION_KINDS),
    direction: v.picklist(['out', 'in']),
    amountPaise: PositivePaise,
    effectiveDate: v.string(),
    corrects: v.nullable(v.string()),
    approvedBy: v.string(),
    bookedAt: IsoTime,
  }),
};
