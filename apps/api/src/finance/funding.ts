import { FundingQuery, FundingRequest, FundingReversalRequest, msg, streams } from '@kamai/contracts';
import { DomainError, type FundingCommand, fundingDecider } from '@kamai/domain';
import { findFunding, fundingWithReference, listFundings } from '@kamai/projections';
import { type Context, Hono } from 'hono';
import { requireUser } from '../auth/sessions.ts';
import { handleCommand, loadStream } from '../commands/handle.ts';
import { commandId } from '../commands/keyed.ts';
import type { AppEnv } from '../deps.ts';
import { ApiError, notFound } from '../http/errors.ts';
import { UUID_PATTERN, idParam, withRole } from '../http/guards.ts';
import { validate } from '../http/validate.ts';
import { loadLimits } from '../settings/limits.ts';
import { caughtUp } from './ledger-routes.ts';
import { countMemberMoney } from './staff-limits.ts';
import { assertDayOpen } from '../ledger/periods.ts';

const financeStaff = withRole('finance');
const fundingId = idParam('id', UUID_PATTERN, msg('funding.notFound'));

/**
 * Funding of the payout account: finance books the company's money arriving in the bank account
 * payouts leave from. Above the adjustment threshold a second finance member approves it first.
 */
export const fundingRoutes = new Hono<AppEnv>()
  .post('/api/admin/ledger/funding', financeStaff, validate('json', FundingRequest), async (c) => {
    const deps = c.var.deps;
    const by = requireUser(c).id;
    const { amount, reference, date } = c.req.valid('json');
    const id = commandId();
    // Booked with the day the money arrived: not into a month already closed.
    await assertDayOpen(deps.store, date);
    // A reference recorded before is refused; a keyed retry of this very request finds its own funding.
    await caughtUp(deps);
    const earlier = await fundingWithReference(deps.db, reference);
    if (earlier !== undefined && earlier !== id) {
      throw new ApiError(409, 'duplicate_reference', msg('funding.duplicateReference'), { reference: msg('funding.duplicateReference') });
    }
    const { adjustmentApprovalThresholdPaise } = await loadLimits(deps.store);
    const now = deps.now().toISOString();
    const command = {
      type: 'RecordBankFunding' as const,
      data: { fundingId: id, amountPaise: amount, reference, valueDate: date, by, approvalThresholdPaise: adjustmentApprovalThresholdPaise, memberLimitReached: false },
      now,
    };
    // The threshold also holds for what one member books alone within 24 hours (five ₹1,000
    // fundings need a second member as one ₹5,000 one does), counted on the member's own stream.
    if (await booksAtOnce(c, command)) {
      const counted = await countMemberMoney(deps, by, { kind: 'funding', entryId: id, amountPaise: amount, limitPaise: adjustmentApprovalThresholdPaise }, now);
      command.data.memberLimitReached = !counted;
    }
    const { view: status, position } = await handleCommand(deps.store, streams.funding(id), fundingDecider, command, { actor: by }, { view: (state) => state.status });
    await deps.runner.waitFor(position);
    const body = await findFunding(deps.db, id);
    if (!body) throw notFound(msg('funding.notFound'));
    return c.json(body, status === 'pending' ? 202 : 201);
  })
  .get('/api/admin/ledger/funding', financeStaff, validate('query', FundingQuery), async (c) =>
    c.json(await listFundings(c.var.deps.db, c.req.valid('query').status)),
  )
  .post('/api/admin/ledger/funding/:id/approve', financeStaff, fundingId, async (c) => {
    // Approving books it with its day: refused once that day's month was closed meanwhile.
    const { state } = await loadStream(c.var.deps.store, streams.funding(c.req.param('id').toLowerCase()), fundingDecider);
    if (state.status === 'pending') await assertDayOpen(c.var.deps.store, state.valueDate);
    return decide(c, (id, by, now) => ({ type: 'ApproveBankFunding', data: { fundingId: id, by }, now }));
  })
  .post('/api/admin/ledger/funding/:id/reject', financeStaff, fundingId, (c) =>
    decide(c, (id, by, now) => ({ type: 'RejectBankFunding', data: { fundingId: id, by }, now })),
  )
  // A booked funding is taken back by two members: one asks (202), a different one approves (200).
  .post('/api/admin/ledger/funding/:id/reverse', financeStaff, fundingId, validate('json', FundingReversalRequest), (c) =>
    decide(c, (id, by, now) => ({ type: 'RequestFundingReversal', data: { fundingId: id, by, reason: c.req.valid('json').reason }, now }), 202),
  )
  .post('/api/admin/ledger/funding/:id/reverse/approve', financeStaff, fundingId, (c) =>
    decide(c, (id, by, now) => ({ type: 'ApproveFundingReversal', data: { fundingId: id, by }, now })),
  );

/**
 * Whether the funding would be booked without a second member, asked of its decider on its stream
 * as it is (appending nothing): a refusal is then refused by the real decision with nothing counted,
 * and a keyed retry whose funding is recorded already finds it there.
 */
async function booksAtOnce(c: Context<AppEnv>, command: FundingCommand): Promise<boolean> {
  try {
    const { state } = await loadStream(c.var.deps.store, streams.funding(command.data.fundingId), fundingDecider);
    return fundingDecider.decide(command, state).some((event) => event.type === 'BankFundingRecorded' && !event.data.approvalRequired);
  } catch (err) {
    if (err instanceof DomainError) return false;
    throw err;
  }
}

/** A decision on a funding's own stream (approve, reject, ask for or approve a reversal), answered with the funding. */
async function decide(c: Context<AppEnv>, command: (id: string, by: string, now: string) => FundingCommand, status: 200 | 202 = 200) {
  const deps = c.var.deps;
  const by = requireUser(c).id;
  const id = c.req.param('id')?.toLowerCase() ?? '';
  const { position } = await handleCommand(deps.store, streams.funding(id), fundingDecider, command(id, by, deps.now().toISOString()), { actor: by });
  await deps.runner.waitFor(position);
  const body = await findFunding(deps.db, id);
  if (!body) throw notFound(msg('funding.notFound'));
  return c.json(body, status);
}
