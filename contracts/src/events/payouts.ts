import * as v from 'valibot';
import { bankStatementMatchEvents } from './statements.ts';

const IsoTime = v.pipe(v.string(), v.isoTimestamp());
const PositivePaise = v.pipe(v.number(), v.integer(), v.minValue(1));
const Count = v.pipe(v.number(), v.integer(), v.minValue(0));

/**
 * `payout-batch-<id>`: withdrawals sent to the bank together. The batch holds ids and amounts only;
 * each withdrawal's own state (processing, paid, failed, reversed) lives on its user's stream.
 */
export const payoutBatchEvents = {
  PayoutBatchCreated: v.object({
    batchId: v.string(),
    items: v.array(v.object({ withdrawalId: v.string(), userId: v.string(), amountPaise: PositivePaise })),
    totalPaise: PositivePaise,
    /** Above the approval threshold when created: the file waits for a second finance member. */
    approvalRequired: v.boolean(),
    createdBy: v.string(),
    createdAt: IsoTime,
  }),
  /** A withdrawal another finance member settled between the batch's check and its marking. */
  PayoutBatchItemDropped: v.object({ batchId: v.string(), withdrawalId: v.string(), droppedAt: IsoTime }),
  PayoutBatchApproved: v.object({ batchId: v.string(), approvedBy: v.string(), approvedAt: IsoTime }),
  /** The bank file was downloaded (an audited act: it holds every account number of the batch). */
  PayoutBatchFileDownloaded: v.object({ batchId: v.string(), by: v.string(), rows: Count, totalPaise: Count, downloadedAt: IsoTime }),
  /** A results file was imported: what it applied, skipped (already so) and refused. */
  PayoutResultsImported: v.object({
    batchId: v.string(),
    by: v.string(),
    applied: Count,
    skipped: Count,
    refused: Count,
    importedAt: IsoTime,
  }),
};

/**
 * `bank-statement-<runId>`: one reconciliation of a bank statement against the paid payouts, kept
 * with its differences. Statement narrations are not kept (they may name people).
 */
export const bankStatementEvents = {
  BankStatementReconciled: v.object({
    runId: v.string(),
    by: v.string(),
    /** The statement's first and last dates (IST days, inclusive). */
    from: v.string(),
    to: v.string(),
    lines: Count,
    missingFromStatement: v.array(v.object({ withdrawalId: v.string(), amountPaise: PositivePaise, utr: v.string(), paidAt: IsoTime })),
    unmatchedDebits: v.array(v.object({ line: Count, date: v.string(), amountPaise: PositivePaise, utr: v.nullable(v.string()) })),
    reconciledAt: IsoTime,
  }),
  ...bankStatementMatchEvents,
};
