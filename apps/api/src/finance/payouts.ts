import {
  CreatePayoutBatchRequest,
  PayoutFileQuery,
  PAYOUT_MESSAGES,
  RESULTS_COLUMNS,
  RESULTS_OPTIONAL_COLUMNS,
  RESULT_STATUSES,
  type ResultRefusal,
  type WorkflowStepPlan,
  csvRecords,
  isDay,
  istDayOf,
  parseRupees,
  streams,
  msg,
  templateSplitsKinds,
} from '@kamai/contracts';
import { DomainError, type PayoutBatchState, assertNoConflictOfDuties, payoutBatchDecider, payoutFileAllowed, userDecider } from '@kamai/domain';
import {
  findPayoutBatch,
  listBankStatementRuns,
  listPayoutBatches,
  payoutBatchWithdrawals,
} from '@kamai/projections';
import { type Context, Hono } from 'hono';
import { commandId } from '../commands/keyed.ts';
import { driveWorkflow, loadWorkflow, startWorkflow } from '../workflows/run.ts';
import { payoutBatchWorkflow, payoutResultsWorkflow, resultsAnswer } from '../workflows/payouts.ts';
import { requireUser } from '../auth/sessions.ts';
import { handleCommand, loadStream } from '../commands/handle.ts';
import type { AppDeps, AppEnv } from '../deps.ts';
import { ApiError, forbidden, notFound } from '../http/errors.ts';
import { UUID_PATTERN, idParam, withRole } from '../http/guards.ts';
import { validate } from '../http/validate.ts';
import { assertValueDate } from '../ledger/periods.ts';
import { loadBankFileSettings, loadLimits } from '../settings/limits.ts';
import { toCsv } from './csv.ts';
import { bankFile, shortReference } from './bank-templates.ts';
import { caughtUp, csvResponse } from './ledger-routes.ts';

const financeStaff = withRole('finance');

/** The names of the batch's UPI payees, for the bank's UPI upload (their destination carries none). */
async function payeeNames(deps: AppDeps, members: ReadonlyArray<{ withdrawalId: string; userId: string }>): Promise<Map<string, string>> {
  if (members.length === 0) return new Map();
  const users = await deps.db.selectFrom('users').select(['id', 'first_name', 'last_name']).where('id', 'in', [...new Set(members.map((m) => m.userId))]).execute();
  const byUser = new Map(users.map((u) => [u.id, [u.first_name, u.last_name].filter(Boolean).join(' ')]));
  return new Map(members.map((m) => [m.withdrawalId, byUser.get(m.userId) ?? '']));
}
const batchId = idParam('id', UUID_PATTERN, msg('payout.batchNotFound'));

/** A CSV request body: `text/csv` only, so a JSON body sent by mistake is refused, not half-read. */
export async function csvBody(c: Context<AppEnv>): Promise<string> {
  const type = (c.req.header('content-type') ?? '').split(';')[0]?.trim().toLowerCase();
  if (type !== 'text/csv') throw new ApiError(415, 'unsupported_media_type', msg('payout.csvBody'));
  return c.req.text();
}

export const missingColumns = (missing: readonly string[]) => {
  const message = msg('payout.csvColumns', { columns: missing.join(', ') });
  return new ApiError(400, 'validation_failed', message, { body: message });
};

async function loadBatch(deps: AppDeps, id: string): Promise<PayoutBatchState> {
  const { state } = await loadStream(deps.store, streams.payoutBatch(id), payoutBatchDecider);
  if (!state.created) throw notFound(msg('payout.batchNotFound'));
  // A copy: the loaded state is the command cache's, which later commands move on.
  return { ...state, items: new Map(state.items) };
}

/**
 * Runs (or resumes) a batch's workflow and answers the batch it made: 201, or 409 when none of its
 * withdrawals could be claimed (each was batched or settled since the request's check).
 */
async function answerBatch(c: Context<AppEnv>, id: string) {
  const deps = c.var.deps;
  const done = await driveWorkflow(deps, id, payoutBatchWorkflow);
  await deps.runner.waitFor(await deps.store.headPosition());
  if (done.outcomes.at(-1) === 'empty') {
    const batched = done.outcomes.includes('already_batched');
    throw batched ? new ApiError(409, 'already_batched', msg('payout.alreadyBatched', { ids: done.steps.filter((_, i) => done.outcomes[i] === 'already_batched').map((s) => s.target).join(', ') })) : new ApiError(409, 'conflict', msg('payout.notPending'));
  }
  return c.json(await findPayoutBatch(deps.db, id), 201);
}

/**
 * The batch's members by the references a results file may give back: the withdrawal id, or the
 * short reference a bank template sent (bank-templates.ts). A short reference two members share
 * names neither.
 */
function referencesOf(batch: PayoutBatchState): Map<string, string> {
  const byReference = new Map<string, string>();
  const shared = new Set<string>();
  for (const id of batch.items.keys()) {
    const short = shortReference(id).toLowerCase();
    if (byReference.has(short)) shared.add(short);
    byReference.set(short, id);
  }
  for (const short of shared) byReference.delete(short);
  for (const id of batch.items.keys()) byReference.set(id, id);
  return byReference;
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
    // Under an Idempotency-Key a retry names the same workflow and batch, and resumes it.
    const id = commandId();
    if ((await loadWorkflow(deps, id)).started) return answerBatch(c, id);
    await caughtUp(deps);
    const rows = await deps.db
      .selectFrom('withdrawal_requests')
      .select(['id', 'user_id', 'amount_paise', 'tax_paise', 'status'])
      .where('id', 'in', withdrawalIds)
      .execute();
    const byId = new Map(rows.map((r) => [r.id, r]));
    const unknown = withdrawalIds.filter((id) => !byId.has(id));
    if (unknown.length > 0) throw new ApiError(404, 'not_found', msg('api.withdrawalNotFound'), { withdrawalIds: msg('payout.unknownWithdrawals', { ids: unknown.join(', ') }) });
    const batched = rows.filter((r) => r.status === 'processing').map((r) => r.id);
    if (batched.length > 0) throw new ApiError(409, 'already_batched', msg('payout.alreadyBatched', { ids: batched.join(', ') }), { withdrawalIds: msg('payout.alreadyBatched', { ids: batched.join(', ') }) });
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
    const { payoutBatchApprovalThresholdPaise } = await loadLimits(deps.store);
    await startWorkflow(deps, {
      workflowId: id,
      kind: 'payout_batch',
      batchId: id,
      by: staff.id,
      approvalThresholdPaise: payoutBatchApprovalThresholdPaise,
      steps: [
        ...withdrawalIds.map((wid) => {
          const row = byId.get(wid)!;
          return { action: 'claim' as const, target: wid, userId: row.user_id, amountPaise: row.amount_paise - row.tax_paise, utr: '', line: 0, refusal: '' };
        }),
        { action: 'create_batch' as const, target: id, userId: null, amountPaise: 0, utr: '', line: 0, refusal: '' },
      ],
    });
    return answerBatch(c, id);
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
  .get('/api/admin/payout-batches/:id/file', financeStaff, batchId, validate('query', PayoutFileQuery), async (c) => {
    const deps = c.var.deps;
    const staff = requireUser(c);
    const id = c.req.param('id').toLowerCase();
    const query = c.req.valid('query');
    const today = istDayOf(deps.now());
    const valueDate = query.valueDate ?? today;
    // A bank pays today or later: a past value date is refused by its upload, so it is refused here.
    if (valueDate < today) throw new ApiError(400, 'validation_failed', msg('bankFile.valueDate'), { valueDate: msg('bankFile.valueDate') });
    const settings = await loadBankFileSettings(deps.store);
    const template = settings.bankFileTemplate;
    if (templateSplitsKinds(template) && query.kind === undefined) throw new ApiError(400, 'validation_failed', msg('bankFile.kind'), { kind: msg('bankFile.kind') });
    // ICICI's rows and every UPI upload name the debit account; HDFC's is the client code's (docs/payouts.md).
    if (templateSplitsKinds(template) && (template !== 'hdfc' || query.kind === 'upi') && settings.bankDebitAccount === '') {
      throw new ApiError(409, 'conflict', msg('bankFile.needsDebitAccount'));
    }
    const batch = await loadBatch(deps, id);
    if (!payoutFileAllowed(batch)) throw new ApiError(409, 'batch_not_approved', msg('payout.notApproved'));
    await caughtUp(deps);
    // Only what still waits for the bank: a file downloaded again after results never pays twice.
    // Members from the batch's own record, each only while it is in this batch and with the bank.
    const members = (await payoutBatchWithdrawals(deps.db, id))
      .filter((r) => batch.items.has(r.withdrawal_id) && r.status === 'processing' && r.batch_id === id)
      .map((r) => ({ withdrawalId: r.withdrawal_id, amountPaise: r.amount_paise, destination: r.destination, userId: r.user_id }));
    const upiNames = query.kind === 'upi' ? await payeeNames(deps, members) : new Map<string, string>();
    const file = bankFile(id, members, { template, settings, valueDate, ...(query.kind && { kind: query.kind }) }, upiNames);
    await handleCommand(
      deps.store,
      streams.payoutBatch(id),
      payoutBatchDecider,
      { type: 'RecordPayoutFileDownload', data: { batchId: id, by: staff.id, rows: file.rows, totalPaise: file.totalPaise }, now: deps.now().toISOString() },
      { actor: staff.id },
    );
    return csvResponse(c, file.filename, file.text, { 'cache-control': 'no-store' });
  })
  .post('/api/admin/payout-batches/:id/results', financeStaff, batchId, async (c) => {
    const deps = c.var.deps;
    const staff = requireUser(c);
    const id = c.req.param('id').toLowerCase();
    const text = await csvBody(c);
    const batch = await loadBatch(deps, id);
    const parsed = csvRecords<(typeof RESULTS_COLUMNS)[number]>(text, RESULTS_COLUMNS.filter((col) => !RESULTS_OPTIONAL_COLUMNS.includes(col)));
    if ('missing' in parsed) throw missingColumns(parsed.missing);
    const steps: WorkflowStepPlan[] = [];
    const reasons = new Map<number, string>();
    const references = new Map<number, string>();
    const seen = new Set<string>();
    const valueDates = new Set<string>();
    const byReference = referencesOf(batch);
    for (const record of parsed.records) {
      // The bank's value date, when the file has one: a whole IST day; a bad one refuses the file, naming its line.
      const valueDate = record.get('value_date').trim() || undefined;
      if (valueDate !== undefined) {
        if (!isDay(valueDate)) {
          const message = msg('payout.valueDateLine', { line: record.line });
          throw new ApiError(400, 'validation_failed', message, { value_date: message });
        }
        valueDates.add(valueDate);
      }
      const reference = record.get('reference');
      const key = byReference.get(reference.toLowerCase()) ?? reference.toLowerCase();
      const item = batch.items.get(key);
      const status = record.get('status').toUpperCase();
      const amount = parseRupees(record.get('amount'));
      const utr = record.get('utr');
      // What the file alone refuses is decided now and recorded as the row's outcome.
      const refusal: ResultRefusal | '' = !item
        ? 'unknown_reference'
        : seen.has(key)
          ? 'duplicate_row'
          : amount === null
            ? 'bad_amount'
            : amount !== item.amountPaise
              ? 'amount_differs'
              : !(RESULT_STATUSES as readonly string[]).includes(status)
                ? 'bad_status'
                : status === 'SUCCESS' && !utr
                  ? 'utr_missing'
                  : '';
      if (item) seen.add(key);
      const action = refusal === '' ? (status as (typeof RESULT_STATUSES)[number]) : 'FAILED';
      // A reference that names no withdrawal of the batch may be anything typed into the file: the
      // record keeps it only when it is shaped as an id, the answer shows it as written.
      if (!item) references.set(record.line, reference);
      steps.push({
        action, target: item ? key : UUID_PATTERN.test(reference) ? key : '', userId: item?.userId ?? null, amountPaise: item?.amountPaise ?? 0, utr: refusal === '' ? utr : '', line: record.line, refusal,
        ...(valueDate !== undefined && { valueDate }),
      });
      const reason = record.get('failure_reason').slice(0, 300);
      if (reason) reasons.set(record.line, reason);
    }
    // A value date in the future or inside a closed month refuses the whole file before anything is recorded.
    for (const day of valueDates) await assertValueDate(deps, day, 'value_date');
    steps.push({ action: 'record_results', target: id, userId: null, amountPaise: 0, utr: '', line: 0, refusal: '' });
    // Under an Idempotency-Key a retry names the same workflow: it resumes, and answers what happened.
    const workflowId = commandId();
    await startWorkflow(deps, { workflowId, kind: 'payout_results', batchId: id, by: staff.id, approvalThresholdPaise: 0, steps });
    const context = { reasons, references };
    const done = await driveWorkflow(deps, workflowId, payoutResultsWorkflow, context);
    await deps.runner.waitFor(await deps.store.headPosition());
    return c.json(resultsAnswer(done, context));
  })
  .get('/api/admin/ledger/bank-statements', financeStaff, async (c) => {
    await caughtUp(c.var.deps);
    return c.json(await listBankStatementRuns(c.var.deps.db));
  });
