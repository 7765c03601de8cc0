import * as v from 'valibot';
import { UUID_PATTERN, noControlCharacters } from './text.ts';
import { refusal } from './refusal.ts';

/**
 * Payouts at volume: batches of withdrawals sent to the bank as one bulk-transfer file, the bank's
 * results file read back, and bank statements reconciled against the paid payouts. The CSV layouts
 * are defined here once; docs/payouts.md describes them column by column.
 */

/** The most withdrawals one batch (and so one bank file) holds. */
export const MAX_BATCH_SIZE = 1000;

export const PAYOUT_MESSAGES = {
  withdrawalIds: `Give 1 to ${MAX_BATCH_SIZE} withdrawal ids`,
  notPending: 'Only pending withdrawals can be put in a batch',
  batchNotFound: 'Payout batch not found',
  ownBatch: 'A second finance member must approve this batch',
  notApproved: 'This batch is above the approval threshold: a second finance member must approve it before its file is downloaded',
  alreadyApproved: 'This batch does not need (or already has) an approval',
  csvBody: 'Send the CSV file as the request body (Content-Type: text/csv) with its header row',
  csvColumns: 'The CSV needs the columns {columns}',
  oncePerBatch: 'A withdrawal can be in a batch once',
  unknownWithdrawals: 'No withdrawal request has the id {ids}',
  notPendingIds: 'Not pending: {ids}',
  batchExists: 'This payout batch already exists',
  reconciliationExists: 'This reconciliation is already recorded',
  failedAtBank: 'Failed at the bank',
  statementLine: 'Line {line}: give the date as YYYY-MM-DD or DD-MM-YYYY and amounts in rupees',
  alreadyBatched: 'A withdrawal can be in one open batch only: already in a batch: {ids}',
  withBank: 'This withdrawal is in a payout batch: its result comes from the bank\'s results file',
  notInBatch: 'This withdrawal is not in this batch',
  valueDateLine: 'Line {line}: give the value date as YYYY-MM-DD',
} as const;

/** POST /api/admin/payout-batches */
export const CreatePayoutBatchRequest = v.object({
  withdrawalIds: v.pipe(
    v.array(v.pipe(v.string(refusal('payout.withdrawalIds')), v.trim(), v.toLowerCase(), v.regex(UUID_PATTERN, refusal('payout.withdrawalIds'))), refusal('payout.withdrawalIds')),
    v.minLength(1, refusal('payout.withdrawalIds')),
    v.maxLength(MAX_BATCH_SIZE, refusal('payout.withdrawalIds')),
    v.check((ids) => new Set(ids).size === ids.length, refusal('payout.oncePerBatch')),
  ),
});
export type CreatePayoutBatchRequest = v.InferOutput<typeof CreatePayoutBatchRequest>;

/**
 * `awaiting_approval`: above the threshold, no second approval yet (no file). `ready`: its file can
 * be downloaded. `completed`: every withdrawal in it has a result (paid, failed or reversed).
 */
export const PAYOUT_BATCH_STATUSES = ['awaiting_approval', 'ready', 'completed'] as const;

export const PayoutBatchItemBody = v.object({
  withdrawalId: v.string(),
  userId: v.string(),
  amount: v.string(),
  status: v.string(),
  utr: v.nullable(v.string()),
  reason: v.nullable(v.string()),
});
export type PayoutBatchItemBody = v.InferOutput<typeof PayoutBatchItemBody>;

/** GET /api/admin/payout-batches (newest first) and /:id (with `items`). */
export const PayoutBatchBody = v.object({
  id: v.string(),
  status: v.picklist(PAYOUT_BATCH_STATUSES),
  count: v.number(),
  total: v.string(),
  /** Withdrawals by their state now. */
  counts: v.object({ processing: v.number(), paid: v.number(), failed: v.number(), reversed: v.number() }),
  approvalRequired: v.boolean(),
  createdBy: v.string(),
  createdAt: v.string(),
  approvedBy: v.nullable(v.string()),
  approvedAt: v.nullable(v.string()),
  fileDownloads: v.number(),
  items: v.optional(v.array(PayoutBatchItemBody)),
});
export type PayoutBatchBody = v.InferOutput<typeof PayoutBatchBody>;

/** The bank bulk-transfer file's columns, in order (docs/payouts.md). */
export const BANK_FILE_COLUMNS = ['reference', 'amount', 'mode', 'ifsc', 'account_number', 'beneficiary_name', 'upi_id', 'narration'] as const;
/** The results file's columns (any order; more columns are ignored). */
export const RESULTS_COLUMNS = ['reference', 'amount', 'status', 'utr', 'failure_reason', 'value_date'] as const;
/** Columns a results file may leave out: `value_date` (the bank's value date, an IST day) is the day it is read when absent. */
export const RESULTS_OPTIONAL_COLUMNS: readonly (typeof RESULTS_COLUMNS)[number][] = ['failure_reason', 'value_date'];
/** The results file's statuses. */
export const RESULT_STATUSES = ['SUCCESS', 'FAILED', 'REVERSED'] as const;

/** Why a results row was not applied. */
export const RESULT_REFUSALS = {
  unknown_reference: 'No withdrawal of this batch has this reference',
  amount_differs: 'The amount differs from the withdrawal',
  utr_reused: 'This UTR already paid another withdrawal',
  utr_missing: 'A SUCCESS row needs its UTR',
  bad_status: 'Status must be SUCCESS, FAILED or REVERSED',
  bad_amount: 'The amount is not a rupee amount',
  wrong_state: 'The withdrawal is not in a state this result can change',
  duplicate_row: 'An earlier row of this file already gave this reference a result',
  conflict_of_duties: 'You adjusted this person\'s wallet lately: another finance member must record this result',
} as const;
export type ResultRefusal = keyof typeof RESULT_REFUSALS;

/** POST /api/admin/payout-batches/:id/results */
export const ResultsImportBody = v.object({
  applied: v.number(),
  /** Rows that changed nothing because the withdrawal already had that result (a re-import). */
  skipped: v.number(),
  /** `line`: the row's line in the file (the header is line 1). */
  refused: v.array(v.object({ line: v.number(), reference: v.string(), reason: v.string(), message: v.string() })),
});
export type ResultsImportBody = v.InferOutput<typeof ResultsImportBody>;

/** The bank statement's columns (any order): a debit is money out of the payout account. */
export const STATEMENT_COLUMNS = ['date', 'narration', 'debit', 'credit', 'utr', 'balance'] as const;
/** `reference` is accepted in place of `narration`. */
export const STATEMENT_COLUMN_ALIASES: Readonly<Record<string, (typeof STATEMENT_COLUMNS)[number]>> = { reference: 'narration' };

/** POST /api/admin/ledger/bank-statements and GET (the runs, newest first). */
export const BankStatementRunBody = v.object({
  id: v.string(),
  by: v.string(),
  at: v.string(),
  from: v.string(),
  to: v.string(),
  lines: v.number(),
  /** Payouts paid in the ledger within the statement's dates that the statement does not show. */
  missingFromStatement: v.array(v.object({ withdrawalId: v.string(), amount: v.string(), utr: v.string(), paidAt: v.string() })),
  /** Statement debits that match no paid payout. */
  unmatchedDebits: v.array(v.object({ line: v.number(), date: v.string(), amount: v.string(), utr: v.nullable(v.string()) })),
  /** Sum of both lists' amounts: "0.00" when the statement and the ledger agree. */
  difference: v.string(),
});
export type BankStatementRunBody = v.InferOutput<typeof BankStatementRunBody>;

/** A free-text reason a results file or a finance member gives. */
export const PayoutReason = v.pipe(v.string(), v.trim(), v.maxLength(300), noControlCharacters());

/**
 * RFC 4180 CSV into rows of cells: quoted cells may hold commas, quotes ("") and line breaks; CRLF
 * or LF ends a row; a UTF-8 BOM is dropped; blank lines are skipped. Each row keeps its line number.
 */
export function parseCsv(text: string): { line: number; cells: string[] }[] {
  const rows: { line: number; cells: string[] }[] = [];
  const input = text.startsWith('\uFEFF') ? text.slice(1) : text;
  let cells: string[] = [];
  let cell = '';
  let quoted = false;
  let line = 1;
  let rowLine = 1;
  const endRow = () => {
    cells.push(cell);
    if (cells.length > 1 || cells[0] !== '') rows.push({ line: rowLine, cells });
    cells = [];
    cell = '';
  };
  for (let i = 0; i < input.length; i++) {
    const ch = input[i];
    if (quoted) {
      if (ch === '"') {
        if (input[i + 1] === '"') {
          cell += '"';
          i++;
        } else quoted = false;
      } else {
        if (ch === '\n') line++;
        cell += ch;
      }
    } else if (ch === '"') quoted = true;
    else if (ch === ',') {
      cells.push(cell);
      cell = '';
    } else if (ch === '\r' || ch === '\n') {
      if (ch === '\r' && input[i + 1] === '\n') i++;
      endRow();
      line++;
      rowLine = line;
    } else cell += ch;
  }
  if (cell !== '' || cells.length > 0) endRow();
  return rows;
}

/**
 * A CSV with a header row as records keyed by the lower-cased header names (aliases applied), or
 * the missing required columns.
 */
export function csvRecords<C extends string>(
  text: string,
  required: readonly C[],
  aliases: Readonly<Record<string, C>> = {},
): { records: { line: number; get: (column: C) => string }[] } | { missing: C[] } {
  const [header, ...body] = parseCsv(text);
  const names = (header?.cells ?? []).map((h) => {
    const name = h.trim().toLowerCase().replace(/\s+/g, '_');
    return aliases[name] ?? name;
  });
  const missing = required.filter((c) => !names.includes(c));
  if (!header || missing.length > 0) return { missing: header ? missing : [...required] };
  const index = new Map(names.map((n, i) => [n, i] as const));
  return {
    records: body.map((row) => ({ line: row.line, get: (column: C) => (row.cells[index.get(column) ?? -1] ?? '').trim() })),
  };
}
