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
};

/**
 * `statement-exception-<id>`: one exception's resolution. Matched by hand with a note, or written
 * off: one finance member asks (with a note), a different one approves. Notes are free text, sealed.
 */
export const statementExceptionEvents = {
  StatementExceptionMatchedByHand: v.object({ exceptionId: v.string(), by: v.string(), note: v.string(), matchedAt: IsoTime }),
  StatementWriteOffRequested: v.object({ exceptionId: v.string(), by: v.string(), note: v.string(), requestedAt: IsoTime }),
  StatementWrittenOff: v.object({ exceptionId: v.string(), requestedBy: v.string(), approvedBy: v.string(), writtenOffAt: IsoTime }),
};
