import { commandId } from '../commands/keyed.ts';
import {
  AdjustmentRequest,
  type AdjustmentBody,
  type AdjustmentPendingBody,
  AdjustmentsQuery,
  MarkWithdrawalPaidRequest,
  RejectWithdrawalRequest,
  ReverseWithdrawalRequest,
  formatPaise,
  istDayOf,
  ledgerText,
  streams,
  msg,
  type WithdrawalStatus,
} from '@kamai/contracts';
import {
  type AdjustWallet,
  type AdjustmentDecision,
  DomainError,
  type WithdrawalCommand,
  assertNoConflictOfDuties,
  userDecider,
} from '@kamai/domain';
import { findAdjustment, findWithdrawalForFinance, listAdjustments, toAdjustmentBody } from '@kamai/projections';
import { type Context, Hono } from 'hono';
import { userIdForMobile } from '../auth/accounts.ts';
import { readWithCatchUp, requireUser } from '../auth/sessions.ts';
import { handleCommand, loadStream } from '../commands/handle.ts';
import type { AppEnv } from '../deps.ts';
import { ApiError, badRequest, conflict, forbidden, notFound } from '../http/errors.ts';
import { assertDayOpen, assertValueDate } from '../ledger/periods.ts';
import { UUID_PATTERN, idParam, withRole } from '../http/guards.ts';
import { validate } from '../http/validate.ts';
import { assertReferenceFree } from './references.ts';
import { driveWorkflow, loadWorkflow, startWorkflow } from '../workflows/run.ts';
import { handPaymentPlan, handPaymentRefusal, handPaymentWorkflow } from '../workflows/handpay.ts';
import { countMemberMoney } from './staff-limits.ts';
import { withdrawalAsFinanceSees } from './withdrawal-lookup.ts';
import { loadLimits } from '../settings/limits.ts';

/**
 * The member's sum across all users (memberDailyAdjustmentLimit), decided on their own
 * `staff-limits-<id>` stream before the adjustment is decided on the user's: true when the member
 * may move this amount alone (it is now counted), false when a second member must approve.
 *
 * Only an adjustment that would move money at once is counted: the user's decider is asked first on
 * the stream as it is (pure, nothing appended), so a refusal appends nothing and one already
 * waiting for a second member costs no allowance. One member's adjustments to two users at once are
 * serialised by their stream's revision. On crashes and retries see countMemberMoney.
 */
async function countAgainstMemberLimit(c: Context<AppEnv>, userId: string, command: AdjustWallet, limitPaise: number): Promise<boolean> {
  const deps = c.var.deps;
  let movesAtOnce = false;
  try {
    const { state } = await loadStream(deps.store, streams.user(userId), userDecider);
    movesAtOnce = userDecider.decide(command, state).some((event) => event.type === 'WalletCredited' || event.type === 'WalletDebited');
  } catch (err) {
    // The decision on the user's stream refuses it the same way (or a keyed retry finds its step).
    if (!(err instanceof DomainError)) throw err;
  }
  if (!movesAtOnce) return true;
  const { by, entryId, amountPaise } = command.data;
  return countMemberMoney(deps, by, { kind: 'adjustment', entryId, amountPaise, limitPaise }, command.now);
}

/** Paying and adjusting need `finance`; admin alone is not enough (separation of duties). */
const financeStaff = withRole('finance');
const withdrawalId = idParam('id', UUID_PATTERN, msg('api.withdrawalNotFound'));
const adjustmentId = idParam('id', UUID_PATTERN, msg('api.adjustmentNotFound'));

/**
 * Finance: a withdrawal, paying or rejecting a request (each decided on the requester's
 * stream, so a request is settled once however many staff click at once), and manual adjustments.
 */
export const financeRoutes = new Hono<AppEnv>()
  // GET /api/admin/withdrawals (the queue and the history, paged) is in ledger-routes.ts.
  .get('/api/admin/withdrawals/:id', financeStaff, withdrawalId, async (c) => {
    const found = await findWithdrawalForFinance(c.var.deps.db, c.req.param('id'));
    if (!found) throw notFound(msg('api.withdrawalNotFound'));
    return c.json(found);
  })
  .post('/api/admin/withdrawals/:id/paid', financeStaff, withdrawalId, validate('json', MarkWithdrawalPaidRequest), async (c) => {
    const deps = c.var.deps;
    const { reference, valueDate } = c.req.valid('json');
    const by = requireUser(c).id;
    const id = c.req.param('id');
    if (valueDate !== undefined) await assertValueDate(deps, valueDate, 'valueDate');
    // Two streams (the UTR's reservation, the user's pay): a workflow (workflows/handpay.ts). Under an
    // Idempotency-Key a retry names the same workflow and resumes it, whatever changed since.
    const workflowId = commandId();
    if (!(await loadWorkflow(deps, workflowId)).started) {
      // What can be refused is refused before anything is recorded: a refusal appends nothing.
      const request = await requestOf(c, id);
      // One in a batch: the bank's results file settles it, never a hand (the decider says so too).
      if (request.status === 'processing') throw new ApiError(409, 'with_bank', msg('payout.withBank'));
      // So is a member who adjusted this user lately (the decider checks again on the stream itself).
      if (request.status === 'pending') {
        const { state } = await loadStream(deps.store, streams.user(request.user_id), userDecider);
        assertNoConflictOfDuties(state.adjustments, by, deps.now().toISOString());
      }
      // One transfer reference pays one withdrawal (finance/references.ts).
      await assertReferenceFree(deps, reference, id);
      if (request.status !== 'pending') throw conflict(msg(`withdrawalState.${request.status}`));
      if (request.user_id === by) throw forbidden(msg('api.ownWithdrawal'));
      await startWorkflow(deps, { workflowId, kind: 'hand_payment', batchId: '', by, approvalThresholdPaise: 0, steps: handPaymentPlan(id, request.user_id, reference, valueDate) });
    }
    const done = await driveWorkflow(deps, workflowId, handPaymentWorkflow);
    // The answer is the record's: paid, or the refusal of the step that stopped it.
    const refusal = await handPaymentRefusal(deps, done);
    if (refusal) throw refusal;
    await deps.runner.waitFor(await deps.store.headPosition());
    const body = await findWithdrawalForFinance(deps.db, id);
    if (!body) throw notFound(msg('api.withdrawalNotFound'));
    return c.json(body);
  })
  .post('/api/admin/withdrawals/:id/reject', financeStaff, withdrawalId, validate('json', RejectWithdrawalRequest), async (c) => {
    const { reason } = c.req.valid('json');
    const by = requireUser(c).id;
    return settle(c, await requestOf(c, c.req.param('id')), (id, now) => ({
      type: 'RejectWithdrawal',
      data: { withdrawalId: id, reason, by, entryId: commandId(), notificationId: commandId() },
      now,
    }));
  })
  .post('/api/admin/withdrawals/:id/reverse', financeStaff, withdrawalId, validate('json', ReverseWithdrawalRequest), async (c) => {
    const { reason } = c.req.valid('json');
    const by = requireUser(c).id;
    // The bank returned a paid payout: its money comes back to the wallet (bank -> available).
    return settle(c, await requestOf(c, c.req.param('id')), (id, now) => ({
      type: 'ReverseWithdrawal',
      data: { withdrawalId: id, reason, by, entryId: commandId(), notificationId: commandId() },
      now,
    }));
  })
  .post('/api/admin/adjustments', financeStaff, validate('json', AdjustmentRequest), async (c) => {
    const deps = c.var.deps;
    const staff = requireUser(c);
    const { mobile, amount, direction, reason, effectiveDate, corrects } = c.req.valid('json');
    const today = istDayOf(deps.now());
    if (effectiveDate !== undefined && effectiveDate > today) throw badRequest(msg('period.effectiveDate'), { effectiveDate: msg('period.effectiveDate') });
    await assertDayOpen(deps.store, effectiveDate ?? today);
    // The event store, not the read model, says who holds a mobile number.
    const userId = await userIdForMobile(deps.store, deps.personalData, mobile);
    if (!userId) throw new ApiError(404, 'not_found', msg('api.noUserWithMobile'), { mobile: msg('api.noUserWithMobile') });
    const entryId = commandId();
    const now = deps.now().toISOString();
    const { adjustmentApprovalThresholdPaise, memberDailyAdjustmentLimitPaise } = await loadLimits(deps.store);
    const command: AdjustWallet = {
      type: 'AdjustWallet',
      data: {
        entryId,
        notificationId: commandId(),
        amountPaise: amount,
        direction,
        reason,
        by: staff.id,
        approvalThresholdPaise: adjustmentApprovalThresholdPaise,
        // Stored only when not today: an entry without one takes effect the day it is recorded.
        ...(effectiveDate !== undefined && effectiveDate !== today && { effectiveDate }),
        ...(corrects !== undefined && { corrects }),
      },
      now,
    };
    command.data.memberLimitReached = !(await countAgainstMemberLimit(c, userId, command, memberDailyAdjustmentLimitPaise));
    const { view, events, position } = await handleCommand(
      deps.store,
      streams.user(userId),
      userDecider,
      command,
      { actor: staff.id },
      { view: (state) => ({ balance: state.wallet.balance, pending: state.adjustments.pending.has(entryId) }) },
    );
    const { balance } = view;
    // When it was made, as recorded: a retry of a keyed adjustment answers the first one's time.
    const moved = events.find((e) => e.type === 'WalletCredited' || e.type === 'WalletDebited');
    const createdAt = moved?.type === 'WalletCredited' ? moved.data.creditedAt : moved?.type === 'WalletDebited' ? moved.data.debitedAt : now;
    await deps.runner.waitFor(position);
    if (view.pending) {
      // Above the threshold: recorded, no money moved until a second finance member approves.
      const row = await findAdjustment(deps.db, entryId);
      if (!row) throw notFound(msg('api.adjustmentNotFound'));
      const pending: AdjustmentPendingBody = { userId, mobile, adjustment: toAdjustmentBody({ ...row, mobile }), balance: formatPaise(balance) };
      return c.json(pending, 202);
    }
    const body: AdjustmentBody = {
      userId,
      mobile,
      transaction: {
        id: entryId,
        userId,
        type: 'other',
        direction,
        kind: 'adjustment',
        amount: formatPaise(amount),
        description: ledgerText({ kind: 'adjustment', params: { reason } }),
        params: { reason },
        taskId: null,
        createdAt,
      },
      balance: formatPaise(balance),
    };
    return c.json(body, 201);
  })
  .get('/api/admin/adjustments', financeStaff, validate('query', AdjustmentsQuery), async (c) =>
    c.json(await listAdjustments(c.var.deps.db, c.req.valid('query').status)),
  )
  .post('/api/admin/adjustments/:id/approve', financeStaff, adjustmentId, (c) =>
    decideAdjustment(c, (id, by, now) => ({ type: 'ApproveAdjustment', data: { adjustmentId: id, by, notificationId: commandId() }, now })),
  )
  .post('/api/admin/adjustments/:id/reject', financeStaff, adjustmentId, (c) =>
    decideAdjustment(c, (id, by, now) => ({ type: 'RejectAdjustment', data: { adjustmentId: id, by }, now })),
  );

/** A second finance member approves or rejects a pending adjustment, on its user's stream. */
async function decideAdjustment(c: Context<AppEnv>, decision: (id: string, by: string, now: string) => AdjustmentDecision) {
  const deps = c.var.deps;
  const staff = requireUser(c);
  const id = c.req.param('id')?.toLowerCase() ?? '';
  const row = await readWithCatchUp(deps, () => findAdjustment(deps.db, id));
  if (!row) throw notFound(msg('api.adjustmentNotFound'));
  const command = decision(id, staff.id, deps.now().toISOString());
  if (command.type === 'ApproveAdjustment') {
    // Its money moves on its effective day: a month closed since it was asked refuses it (409 period_closed).
    const effectiveDate = (await loadStream(deps.store, streams.user(row.user_id), userDecider)).state.adjustments.pending.get(id)?.effectiveDate;
    if (effectiveDate !== undefined) await assertDayOpen(deps.store, effectiveDate);
  }
  const { position } = await handleCommand(deps.store, streams.user(row.user_id), userDecider, command, {
    actor: staff.id,
  });
  await deps.runner.waitFor(position);
  const [decided] = (await listAdjustmentsById(c, id)) ?? [];
  if (!decided) throw notFound(msg('api.adjustmentNotFound'));
  return c.json(decided);
}

async function listAdjustmentsById(c: Context<AppEnv>, id: string) {
  const deps = c.var.deps;
  const row = await findAdjustment(deps.db, id);
  if (!row) return null;
  const mobile = (await deps.db.selectFrom('users').select('mobile').where('id', '=', row.user_id).executeTakeFirst())?.mobile ?? '';
  return [toAdjustmentBody({ ...row, mobile })];
}

/** Whose withdrawal request it is and where it stands (404 when there is none). */
async function requestOf(c: Context<AppEnv>, id: string) {
  const request = await withdrawalAsFinanceSees(c.var.deps, id);
  if (!request) throw notFound(msg('api.withdrawalNotFound'));
  return request;
}

/** Decides on the requester's stream, and answers the settled request. */
async function settle(
  c: Context<AppEnv>,
  request: { id: string; user_id: string; status: WithdrawalStatus },
  command: (id: string, now: string) => WithdrawalCommand,
) {
  const deps = c.var.deps;
  const id = request.id;
  const decided = command(id, deps.now().toISOString());
  // A keyed retry of a settle that happened finds it recorded, so a settled request is told apart only
  // when the decider refuses: said here, where paid and rejected are still told apart.
  const { position } = await handleCommand(deps.store, streams.user(request.user_id), userDecider, decided, { actor: requireUser(c).id }).catch(
    (err: unknown) => {
      // A refusal with a code of its own (with_bank) says more than the state's name.
      if (err instanceof DomainError && err.kind === 'conflict' && err.code === undefined && request.status !== 'pending') {
        throw conflict(msg(`withdrawalState.${request.status}`));
      }
      throw err;
    },
  );
  await deps.runner.waitFor(position);
  const body = await findWithdrawalForFinance(deps.db, id);
  if (!body) throw notFound(msg('api.withdrawalNotFound'));
  return c.json(body);
}
