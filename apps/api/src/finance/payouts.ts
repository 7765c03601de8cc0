import { randomUUID } from 'node:crypto';
import {
  BANK_FILE_COLUMNS,
  type BankStatementRunBody,
  CreatePayoutBatchRequest,
  PAYOUT_MESSAGES,
  RESULTS_COLUMNS,
  RESULT_REFUSALS,
  RESULT_STATUSES,
  type ResultRefusal,
  type ResultsImportBody,
  STATEMENT_COLUMN_ALIASES,
  WithdrawalDestination,
  csvRecords,
  istDay,
  parseRupees,
  streams,
  msg,
} from '@kamai/contracts';
import { DomainError, type PayoutBatchState, assertNoConflictOfDuties, bankStatementDecider, type UserCommand, normaliseReference, payoutBatchDecider, payoutFileAllowed, userDecider } from '@kamai/domain';
import {
  findPayoutBatch,
  listBankStatementRuns,
  listPayoutBatches,
  paidPayoutsBetween,
  payoutBatchWithdrawals,
  toBankStatementRunBody,
} from '@kamai/projections';
import { type Context, Hono } from 'hono';
import * as v from 'valibot';
import { commandId } from '../commands/keyed.ts';
import { requireUser } from '../auth/sessions.ts';
import { handleCommand, loadStream } from '../commands/handle.ts';
import { withdrawalAsFinanceSees } from './withdrawal-lookup.ts';
import type { AppDeps, AppEnv } from '../deps.ts';
import { ApiError, forbidden, notFound } from '../http/errors.ts';
import { UUID_PATTERN, idParam, withRole } from '../http/guards.ts';
import { validate } from '../http/validate.ts';
import { loadLimits } from '../settings/limits.ts';
import { toCsv } from './csv.ts';
import { caughtUp, csvResponse } from './ledger-routes.ts';
import { withReservedReference } from './references.ts';

const financeStaff = withRole('finance');
const batchId = idParam('id', UUID_PATTERN, msg('payout.batchNotFound'));
const DEFAULT_FAILURE = PAYOUT_MESSAGES.failedAtBank;

/** A CSV request body: `text/csv` only, so a JSON body sent by mistake is refused, not half-read. */
async function csvBody(c: Context<AppEnv>): Promise<string> {
  const type = (c.req.header('content-type') ?? '').split(';')[0]?.trim().toLowerCase();
  if (type !== 'text/csv') throw new ApiError(415, 'unsupported_media_type', msg('payout.csvBody'));
  return c.req.text();
}

const missingColumns = (missing: readonly string[]) => {
  const message = msg('payout.csvColumns', { columns: missing.join(', ') });
  return new ApiError(400, 'validation_failed', message, { body: message });
};

async function loadBatch(deps: AppDeps, id: string): Promise<PayoutBatchState> {
  const { state } = await loadStream(deps.store, streams.payoutBatch(id), payoutBatchDecider);
  if (!state.created) throw notFound(msg('payout.batchNotFound'));
  // A copy: the loaded state is the command cache's, which later commands move on.
  return { ...state, items: new Map(state.items) };
}

/** Runs a command on a withdrawal's user stream; answers the position, or the DomainError that refused it. */
async function onUserStream(deps: AppDeps, userId: string, actor: string, command: UserCommand): Promise<number | DomainError> {
  try {
    return (await handleCommand(deps.store, streams.user(userId), userDecider, command, { actor })).position;
  } catch (err) {
    if (err instanceof DomainError) return err;
    throw err;
  }
}

/** A withdrawal's state as its own stream has it now (or the caught-up read model, once settled and gone from it). */
const withdrawalNow = (deps: AppDeps, userId: string, withdrawalId: string) => withdrawalAsFinanceSees(deps, withdrawalId, userId);

type Outcome = 'applied' | 'skipped' | ResultRefusal;

/** Thrown inside a reserved reference's pay so that the reservation is released. */
class NotPaid extends Error {
  constructor(readonly outcome: Outcome) {
    super(outcome);
  }
}

/**
 * Applies one result row to its withdrawal, on the user's stream. A withdrawal already in the
 * row's result is skipped (a re-import, or a second finance member importing the same file at once:
 * the stream's revision lets one of them append, the other then finds it done).
 */
async function applyResult(
  deps: AppDeps,
  by: string,
  item: { withdrawalId: string; userId: string },
  result: (typeof RESULT_STATUSES)[number],
  utr: string,
  reason: string,
  positions: number[],
): Promise<Outcome> {
  const { withdrawalId, userId } = item;
  const now = () => deps.now().toISOString();
  const current = await withdrawalNow(deps, userId, withdrawalId);
  if (!current) return 'unknown_reference';
  const paidWith = (state: typeof current | undefined) =>
    state?.status === 'paid' && state.reference !== null && normaliseReference(state.reference) === normaliseReference(utr);
  switch (result) {
    case 'SUCCESS': {
      if (!utr) return 'utr_missing';
      if (paidWith(current)) return 'skipped';
      if (current.status !== 'processing') return 'wrong_state';
      try {
        return await withReservedReference(deps, { reference: utr, withdrawalId, by }, async () => {
          const done = await onUserStream(deps, userId, by, {
            type: 'MarkWithdrawalPaid',
            data: { withdrawalId, reference: utr, by, notificationId: randomUUID() },
            now: now(),
          });
          if (typeof done === 'number') {
            positions.push(done);
            return 'applied' as const;
          }
          if (paidWith(await withdrawalNow(deps, userId, withdrawalId))) return 'skipped' as const;
          throw new NotPaid('wrong_state');
        });
      } catch (err) {
        if (err instanceof NotPaid) return err.outcome;
        if (err instanceof ApiError && err.code === 'duplicate_reference') return 'utr_reused';
        throw err;
      }
    }
    case 'FAILED':
    case 'REVERSED': {
      const failed = result === 'FAILED';
      const target = failed ? 'failed' : 'reversed';
      if (current.status === target) return 'skipped';
      if (current.status !== (failed ? 'processing' : 'paid')) return 'wrong_state';
      const data = { withdrawalId, reason, by, entryId: randomUUID(), notificationId: randomUUID() };
      const done = await onUserStream(deps, userId, by, failed ? { type: 'FailWithdrawal', data, now: now() } : { type: 'ReverseWithdrawal', data, now: now() });
      if (typeof done === 'number') {
        positions.push(done);
        return 'applied';
      }
      return (await withdrawalNow(deps, userId, withdrawalId))?.status === target ? 'skipped' : 'wrong_state';
    }
    default:
      return 'bad_status';
  }
}

/** The bank file's row of one withdrawal (columns: BANK_FILE_COLUMNS). */
function bankFileRow(withdrawalId: string, amountPaise: number, destinationJson: string): (string | null)[] {
  const destination = v.parse(WithdrawalDestination, JSON.parse(destinationJson));
  const amount = (amountPaise / 100).toFixed(2);
  const narration = `KAMAI ${withdrawalId.slice(0, 8)}`;
  return destination.kind === 'bank'
    ? [withdrawalId, amount, amountPaise > 20_000_000 ? 'RTGS' : 'IMPS', destination.ifsc, destination.accountNumber, destination.holderName, null, narration]
    : [withdrawalId, amount, 'UPI', null, null, null, destination.upiId, narration];
}

/** A statement's date: 2026-11-30, 30-11-2026 or 30/11/2026; null for anything else. */
function statementDate(text: string): string | null {
  const iso = /^(\d{4})-(\d{2})-(\d{2})$/.exec(text);
  const indian = /^(\d{2})[-/](\d{2})[-/](\d{4})$/.exec(text);
  const date = iso ? `${iso[1]}-${iso[2]}-${iso[3]}` : indian ? `${indian[3]}-${indian[2]}-${indian[1]}` : null;
  return date && !Number.isNaN(Date.parse(date)) ? date : null;
}

/**
 * Payout batches: withdrawals sent to the bank as one bulk-transfer file, approved by a second
 * finance member above the threshold, and the bank's results read back.
 */
export const payoutRoutes = new Hono<AppEnv>()
  .post('/api/admin/payout-batches', financeStaff, validate('json', CreatePayoutBatchRequest), async (c) => {
    const deps = c.var.deps;
    const staff = requireUser(c);
    const { withdrawalIds } = c.req.valid('json');
    await caughtUp(deps);
    const rows = await deps.db
      .selectFrom('withdrawal_requests')
      .select(['id', 'user_id', 'amount_paise', 'status'])
      .where('id', 'in', withdrawalIds)
      .execute();
    const byId = new Map(rows.map((r) => [r.id, r]));
    const unknown = withdrawalIds.filter((id) => !byId.has(id));
    if (unknown.length > 0) throw new ApiError(404, 'not_found', msg('api.withdrawalNotFound'), { withdrawalIds: msg('payout.unknownWithdrawals', { ids: unknown.join(', ') }) });
    const notPending = rows.filter((r) => r.status !== 'pending').map((r) => r.id);
    if (notPending.length > 0) throw new ApiError(409, 'conflict', msg('payout.notPending'), { withdrawalIds: msg('payout.notPendingIds', { ids: notPending.join(', ') }) });
    if (rows.some((r) => r.user_id === staff.id)) throw forbidden(msg('api.ownWithdrawal'));
    // Whoever adjusted one of these users lately sends none of their withdrawals: refused whole, before
    // anything is recorded (the per-withdrawal check on the user stream would only drop them quietly).
    const conflicted: string[] = [];
    for (const id of withdrawalIds) {
      const row = byId.get(id)!;
      const { state } = await loadStream(deps.store, streams.user(row.user_id), userDecider);
      try {
        assertNoConflictOfDuties(state.adjustments, staff.id, deps.now().toISOString());
      } catch (err) {
        if (!(err instanceof DomainError)) throw err;
        conflicted.push(row.id);
      }
    }
    if (conflicted.length > 0) {
      throw new ApiError(403, 'conflict_of_duties', msg('controls.conflictOfDutiesInBatch'), { withdrawalIds: msg('controls.conflictedWithdrawals', { ids: conflicted.join(', ') }) });
    }
    const items = withdrawalIds.map((id) => {
      const row = byId.get(id)!;
      return { withdrawalId: id, userId: row.user_id, amountPaise: row.amount_paise };
    });
    const { payoutBatchApprovalThresholdPaise } = await loadLimits(deps.store);
    // Under an Idempotency-Key a retry names the same batch, and finds it.
    const id = commandId();
    const created = await handleCommand(
      deps.store,
      streams.payoutBatch(id),
      payoutBatchDecider,
      { type: 'CreatePayoutBatch', data: { batchId: id, items, by: staff.id, approvalThresholdPaise: payoutBatchApprovalThresholdPaise }, now: deps.now().toISOString() },
      { actor: staff.id },
    );
    let position = created.position;
    for (const item of items) {
      const marked = await onUserStream(deps, item.userId, staff.id, {
        type: 'MarkWithdrawalProcessing',
        data: { withdrawalId: item.withdrawalId, batchId: id, by: staff.id },
        now: deps.now().toISOString(),
      });
      if (typeof marked === 'number') {
        position = Math.max(position, marked);
        continue;
      }
      // Settled by someone else since the check above: it leaves the batch, which stays right.
      const dropped = await handleCommand(
        deps.store,
        streams.payoutBatch(id),
        payoutBatchDecider,
        { type: 'DropPayoutBatchItem', data: { batchId: id, withdrawalId: item.withdrawalId }, now: deps.now().toISOString() },
        { actor: staff.id },
      );
      position = Math.max(position, dropped.position);
    }
    await deps.runner.waitFor(position);
    return c.json(await findPayoutBatch(deps.db, id), 201);
  })
  .get('/api/admin/payout-batches', financeStaff, async (c) => {
    await caughtUp(c.var.deps);
    return c.json(await listPayoutBatches(c.var.deps.db));
  })
  .get('/api/admin/payout-batches/:id', financeStaff, batchId, async (c) => {
    await caughtUp(c.var.deps);
    const found = await findPayoutBatch(c.var.deps.db, c.req.param('id').toLowerCase());
    if (!found) throw notFound(msg('payout.batchNotFound'));
    return c.json(found);
  })
  .post('/api/admin/payout-batches/:id/approve', financeStaff, batchId, async (c) => {
    const deps = c.var.deps;
    const staff = requireUser(c);
    const id = c.req.param('id').toLowerCase();
    await loadBatch(deps, id);
    const { position } = await handleCommand(
      deps.store,
      streams.payoutBatch(id),
      payoutBatchDecider,
      { type: 'ApprovePayoutBatch', data: { batchId: id, by: staff.id }, now: deps.now().toISOString() },
      { actor: staff.id },
    );
    await deps.runner.waitFor(position);
    return c.json(await findPayoutBatch(deps.db, id));
  })
  .get('/api/admin/payout-batches/:id/file', financeStaff, batchId, async (c) => {
    const deps = c.var.deps;
    const staff = requireUser(c);
    const id = c.req.param('id').toLowerCase();
    const batch = await loadBatch(deps, id);
    if (!payoutFileAllowed(batch)) throw new ApiError(409, 'batch_not_approved', msg('payout.notApproved'));
    await caughtUp(deps);
    // Only what still waits for the bank: a file downloaded again after results never pays twice.
    const rows = (await payoutBatchWithdrawals(deps.db, id)).filter((r) => r.status === 'processing');
    const totalPaise = rows.reduce((sum, r) => sum + r.amount_paise, 0);
    await handleCommand(
      deps.store,
      streams.payoutBatch(id),
      payoutBatchDecider,
      { type: 'RecordPayoutFileDownload', data: { batchId: id, by: staff.id, rows: rows.length, totalPaise }, now: deps.now().toISOString() },
      { actor: staff.id },
    );
    const csv = toCsv(BANK_FILE_COLUMNS, rows.map((r) => bankFileRow(r.withdrawal_id, r.amount_paise, r.destination)), new Set(['amount', 'account_number']));
    return csvResponse(c, `payout-batch-${id}.csv`, csv, { 'cache-control': 'no-store' });
  })
  .post('/api/admin/payout-batches/:id/results', financeStaff, batchId, async (c) => {
    const deps = c.var.deps;
    const staff = requireUser(c);
    const id = c.req.param('id').toLowerCase();
    const text = await csvBody(c);
    const batch = await loadBatch(deps, id);
    const parsed = csvRecords<(typeof RESULTS_COLUMNS)[number]>(text, RESULTS_COLUMNS.filter((col) => col !== 'failure_reason'));
    if ('missing' in parsed) throw missingColumns(parsed.missing);
    const answer: ResultsImportBody = { applied: 0, skipped: 0, refused: [] };
    const positions: number[] = [];
    const seen = new Set<string>();
    for (const record of parsed.records) {
      const reference = record.get('reference');
      const refuse = (reason: ResultRefusal) => answer.refused.push({ line: record.line, reference, reason, message: RESULT_REFUSALS[reason] });
      const item = batch.items.get(reference.toLowerCase());
      if (!item) {
        refuse('unknown_reference');
        continue;
      }
      if (seen.has(reference.toLowerCase())) {
        refuse('duplicate_row');
        continue;
      }
      seen.add(reference.toLowerCase());
      const amount = parseRupees(record.get('amount'));
      if (amount === null) {
        refuse('bad_amount');
        continue;
      }
      if (amount !== item.amountPaise) {
        refuse('amount_differs');
        continue;
      }
      const status = record.get('status').toUpperCase();
      if (!(RESULT_STATUSES as readonly string[]).includes(status)) {
        refuse('bad_status');
        continue;
      }
      const reason = record.get('failure_reason').slice(0, 300) || DEFAULT_FAILURE;
      const outcome = await applyResult(
        deps,
        staff.id,
        { withdrawalId: reference.toLowerCase(), userId: item.userId },
        status as (typeof RESULT_STATUSES)[number],
        record.get('utr'),
        reason,
        positions,
      );
      if (outcome === 'applied') answer.applied++;
      else if (outcome === 'skipped') answer.skipped++;
      else refuse(outcome);
    }
    const recorded = await handleCommand(
      deps.store,
      streams.payoutBatch(id),
      payoutBatchDecider,
      {
        type: 'RecordPayoutResults',
        data: { batchId: id, by: staff.id, applied: answer.applied, skipped: answer.skipped, refused: answer.refused.length },
        now: deps.now().toISOString(),
      },
      { actor: staff.id },
    );
    await deps.runner.waitFor(Math.max(recorded.position, ...positions));
    return c.json(answer);
  })
  .post('/api/admin/ledger/bank-statements', financeStaff, async (c) => {
    const deps = c.var.deps;
    const staff = requireUser(c);
    const text = await csvBody(c);
    const parsed = csvRecords(text, ['date', 'debit'], STATEMENT_COLUMN_ALIASES);
    if ('missing' in parsed) throw missingColumns(parsed.missing);
    const debits: { line: number; date: string; amountPaise: number; utr: string | null; narration: string }[] = [];
    const dates: string[] = [];
    for (const record of parsed.records) {
      const date = statementDate(record.get('date'));
      const message = msg('payout.statementLine', { line: record.line });
      if (!date) throw new ApiError(400, 'validation_failed', message, { body: message });
      dates.push(date);
      const debitText = record.get('debit').replaceAll(',', '');
      if (debitText === '') continue;
      const amountPaise = parseRupees(debitText);
      if (amountPaise === null) throw new ApiError(400, 'validation_failed', message, { body: message });
      if (amountPaise === 0) continue;
      debits.push({ line: record.line, date, amountPaise, utr: record.get('utr') || null, narration: record.get('narration') });
    }
    if (dates.length === 0) throw missingColumns(['date', 'debit']);
    dates.sort();
    const from = dates[0]!;
    const to = dates.at(-1)!;
    await caughtUp(deps);
    // Payouts a few days either side may show on this statement (the bank books them a day late).
    const margin = 7 * 86_400_000;
    const window = await paidPayoutsBetween(
      deps.db,
      new Date(Date.parse(istDay(from).start) - margin).toISOString(),
      new Date(Date.parse(istDay(to).end) + margin).toISOString(),
    );
    const unmatched = new Map(window.map((p) => [p.withdrawal_id ?? '', p]));
    const unmatchedDebits: { line: number; date: string; amountPaise: number; utr: string | null }[] = [];
    for (const debit of debits) {
      const key = debit.utr ? normaliseReference(debit.utr) : null;
      const narration = normaliseReference(debit.narration);
      const match = [...unmatched.values()].find(
        (p) =>
          p.amount_paise === debit.amountPaise &&
          p.utr !== null &&
          (key !== null ? normaliseReference(p.utr) === key : narration.includes(normaliseReference(p.utr))),
      );
      if (match) unmatched.delete(match.withdrawal_id ?? '');
      else unmatchedDebits.push({ line: debit.line, date: debit.date, amountPaise: debit.amountPaise, utr: debit.utr });
    }
    const start = istDay(from).start;
    const end = istDay(to).end;
    const missingFromStatement = [...unmatched.values()]
      .filter((p) => p.effective_at >= start && p.effective_at <= end)
      .map((p) => ({ withdrawalId: p.withdrawal_id ?? '', amountPaise: p.amount_paise, utr: p.utr ?? '', paidAt: p.effective_at }));
    const runId = randomUUID();
    const at = deps.now().toISOString();
    const { position } = await handleCommand(
      deps.store,
      streams.bankStatement(runId),
      bankStatementDecider,
      {
        type: 'RecordBankStatement',
        data: { runId, by: staff.id, from, to, lines: parsed.records.length, missingFromStatement, unmatchedDebits, reconciledAt: at },
        now: at,
      },
      { actor: staff.id },
    );
    await deps.runner.waitFor(position);
    const body: BankStatementRunBody = toBankStatementRunBody({
      id: runId,
      by: staff.id,
      at,
      from_date: from,
      to_date: to,
      lines: parsed.records.length,
      missing: JSON.stringify(missingFromStatement),
      unmatched: JSON.stringify(unmatchedDebits),
    });
    return c.json(body, 201);
  })
  .get('/api/admin/ledger/bank-statements', financeStaff, async (c) => {
    await caughtUp(c.var.deps);
    return c.json(await listBankStatementRuns(c.var.deps.db));
  });
