import { type PeriodTrialBalanceBody, PeriodTrialBalanceQuery, formatPaise, istDay } from '@kamai/contracts';
import { type JournalDating, type ReadDbHandle, accountHolders, trialBalance, userOfAccount } from '@kamai/projections';
import { Hono } from 'hono';
import type { AppEnv } from '../deps.ts';
import { withRole } from '../http/guards.ts';
import { validate } from '../http/validate.ts';
import { csvFile } from './csv.ts';
import { caughtUp, csvResponse } from './ledger-routes.ts';

type Totals = { debitPaise: number; creditPaise: number };
const ZERO: Totals = { debitPaise: 0, creditPaise: 0 };

/** A balance on its side: what left an account beyond what arrived is Dr, the reverse Cr; the other side is 0. */
const onItsSide = (t: Totals): Totals => {
  const net = t.creditPaise - t.debitPaise;
  return { debitPaise: Math.max(-net, 0), creditPaise: Math.max(net, 0) };
};
const plus = (a: Totals, b: Totals): Totals => ({ debitPaise: a.debitPaise + b.debitPaise, creditPaise: a.creditPaise + b.creditPaise });
/** Two sides as the wire shows them. */
const wire = (t: Totals) => ({ debit: formatPaise(t.debitPaise), credit: formatPaise(t.creditPaise) });

/**
 * The trial balance over whole IST days `from`..`to` (inclusive), by the entries' recorded times or
 * (`by: 'effective'`) their effective days:
 * each account's opening balance (everything before `from`'s first moment), the period's debits and
 * credits, and its closing balance (everything to `to`'s last moment). Double entry makes every Dr
 * column's total equal its Cr column's.
 */
export async function periodTrialBalance(db: ReadDbHandle, from: string, to: string, by: JournalDating = 'recorded'): Promise<PeriodTrialBalanceBody> {
  const before = new Date(Date.parse(istDay(from).start) - 1).toISOString();
  const [opening, closing] = await Promise.all([trialBalance(db, before, by), trialBalance(db, istDay(to).end, by)]);
  const openingOf = new Map(opening.accounts.map((a) => [a.account, a]));
  const holders = await accountHolders(db, closing.accounts.flatMap((a) => userOfAccount(a.account) ?? []));
  let sum = { opening: ZERO, movement: ZERO, closing: ZERO };
  // Every account with an entry by the end of the period (an account's entries only grow).
  const accounts = closing.accounts.map((end) => {
    const start = openingOf.get(end.account) ?? ZERO;
    const figures = {
      opening: onItsSide(start),
      movement: { debitPaise: end.debitPaise - start.debitPaise, creditPaise: end.creditPaise - start.creditPaise },
      closing: onItsSide(end),
    };
    sum = { opening: plus(sum.opening, figures.opening), movement: plus(sum.movement, figures.movement), closing: plus(sum.closing, figures.closing) };
    return {
      account: end.account,
      holder: holders.get(userOfAccount(end.account) ?? '') ?? null,
      opening: wire(figures.opening),
      movement: wire(figures.movement),
      closing: wire(figures.closing),
    };
  });
  return { from, to, accounts, totals: { opening: wire(sum.opening), movement: wire(sum.movement), closing: wire(sum.closing) } };
}

const HEADER = [
  'account', 'account_holder', 'account_holder_mobile', 'opening_dr', 'opening_cr', 'movement_dr', 'movement_cr', 'closing_dr', 'closing_cr',
] as const;

/** The CSV: one row per account, then a `TOTAL` row whose Dr and Cr agree. */
export function periodTrialBalanceCsv(body: PeriodTrialBalanceBody): string {
  const figures = (f: Pick<PeriodTrialBalanceBody['totals'], 'opening' | 'movement' | 'closing'>) => [
    f.opening.debit, f.opening.credit, f.movement.debit, f.movement.credit, f.closing.debit, f.closing.credit,
  ];
  return csvFile(
    HEADER,
    [...body.accounts.map((a) => [a.account, a.holder?.name ?? null, a.holder?.mobile ?? null, ...figures(a)]), ['TOTAL', null, null, ...figures(body.totals)]],
    new Set(HEADER.slice(3)),
  );
}

export const trialBalanceRoutes = new Hono<AppEnv>().get(
  '/api/admin/ledger/trial-balance/period',
  withRole('finance'),
  validate('query', PeriodTrialBalanceQuery),
  async (c) => {
    const deps = c.var.deps;
    const { from, to, format, by } = c.req.valid('query');
    await caughtUp(deps);
    const body = await periodTrialBalance(deps.db, from, to, by);
    if (format === 'csv') return csvResponse(c, `trial-balance-${from}-${to}${by === 'effective' ? '-effective' : ''}.csv`, periodTrialBalanceCsv(body));
    return c.json(body);
  },
);
