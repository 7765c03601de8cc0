import { type LedgerPeriodBody, type LedgerPeriodRowBody, PERIODS_LISTED, PeriodParam, istDayOf, monthOf, monthsBack, msg, streams } from '@kamai/contracts';
import { type EventStore, type LedgerPeriodState, assertPeriodOpen, ledgerPeriodDecider } from '@kamai/domain';
import { accountHolders } from '@kamai/projections';
import { type Context, Hono } from 'hono';
import { requireUser } from '../auth/sessions.ts';
import { handleCommand, loadStream } from '../commands/handle.ts';
import type { AppDeps, AppEnv } from '../deps.ts';
import { badRequest } from '../http/errors.ts';
import { withRole } from '../http/guards.ts';
import { validate } from '../http/validate.ts';

const financeStaff = withRole('finance');

const periodBody = (month: string, state: LedgerPeriodState): LedgerPeriodBody => ({
  month,
  status: state.status,
  requestedBy: state.requestedBy,
  requestedAt: state.requestedAt,
  closedBy: state.closedBy,
  closedAt: state.closedAt,
});

/**
 * Closing a month of the books (docs/month-end.md): one finance member asks (202, pending), a
 * different one approves (200, closed). Decided on the month's own stream; no read model is read.
 */
export const periodRoutes = new Hono<AppEnv>()
  .get('/api/admin/ledger/periods', financeStaff, async (c) => {
    const deps = c.var.deps;
    const months = monthsBack(monthOf(deps.now()), PERIODS_LISTED);
    // Each month's own stream, as the close itself reads it: a close approved a moment ago shows.
    const periods = await Promise.all(
      months.map(async (month) => periodBody(month, (await loadStream(deps.store, streams.ledgerPeriod(month), ledgerPeriodDecider)).state)),
    );
    const holders = await accountHolders(deps.db, periods.flatMap((p) => [p.requestedBy, p.closedBy].filter((id): id is string => id !== null)));
    const nameOf = (id: string | null) => (id === null ? null : (holders.get(id)?.name ?? id));
    return c.json(periods.map((p): LedgerPeriodRowBody => ({ ...p, requestedByName: nameOf(p.requestedBy), closedByName: nameOf(p.closedBy) })));
  })
  .post('/api/admin/ledger/periods/:month/close', financeStaff, validate('param', PeriodParam), (c) => decide(c, 'RequestPeriodClose', 202))
  .post('/api/admin/ledger/periods/:month/close/approve', financeStaff, validate('param', PeriodParam), (c) => decide(c, 'ApprovePeriodClose', 200));

async function decide(c: Context<AppEnv>, type: 'RequestPeriodClose' | 'ApprovePeriodClose', status: 200 | 202) {
  const deps = c.var.deps;
  const by = requireUser(c).id;
  const month = c.req.param('month') ?? '';
  const { view } = await handleCommand(
    deps.store,
    streams.ledgerPeriod(month),
    ledgerPeriodDecider,
    { type, data: { month, by }, now: deps.now().toISOString() },
    { actor: by },
    { view: (state) => state },
  );
  return c.json(periodBody(month, view), status);
}

/**
 * Refuses (409 `period_closed`) a posting whose effective day (`YYYY-MM-DD`, IST) falls in a closed
 * month, read from the month's stream itself so a close approved a moment ago on another process
 * already holds. A posting decided at the very moment of the close may still land: the close is a
 * second member's deliberate step after the month is over, not a race the books depend on.
 */
export async function assertDayOpen(store: EventStore, day: string): Promise<void> {
  const month = day.slice(0, 7);
  assertPeriodOpen((await loadStream(store, streams.ledgerPeriod(month), ledgerPeriodDecider)).state, month);
}

/**
 * A payout's bank value date: not in the future (400, a field error on `field`), not in a closed
 * month (409 `period_closed`).
 */
export async function assertValueDate(deps: AppDeps, day: string, field: string): Promise<void> {
  if (day > istDayOf(deps.now())) throw badRequest(msg('period.valueDate'), { [field]: msg('period.valueDate') });
  await assertDayOpen(deps.store, day);
}

/** Whether the IST day `YYYY-MM-DD` falls in a closed month (read as assertDayOpen reads it). */
export async function dayClosed(store: EventStore, day: string): Promise<boolean> {
  return (await loadStream(store, streams.ledgerPeriod(day.slice(0, 7)), ledgerPeriodDecider)).state.status === 'closed';
}
