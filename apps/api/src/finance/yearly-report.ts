import { type YearlyReportBody, YearlyReportQuery, eventCodec, financialYear, formatPaise } from '@kamai/contracts';
import { type ReadDbHandle, accountHolders, pansOf, totalsByUser, withdrawalTaxTotals } from '@kamai/projections';
import { Hono } from 'hono';
import type { AppDeps, AppEnv } from '../deps.ts';
import { withRole } from '../http/guards.ts';
import { validate } from '../http/validate.ts';
import { csvFile } from './csv.ts';
import { caughtUp, csvResponse } from './ledger-routes.ts';

const NO_TOTALS = { rewardsPaise: 0, bonusesPaise: 0, adjustmentsPaise: 0, payoutsPaise: 0, referralBonusesPaise: 0 };

/**
 * The yearly report per person for the Indian financial year (April to March, IST): rewards,
 * bonuses, adjustments and payouts, with the PAN given at KYC, for the accountant; and what was
 * withdrawn, the tax withheld from it and the net, per person and per PAN (docs/tax.md).
 */
/**
 * Every account that held a PAN (its payee stream's claims, docs/tax.md): an erased holder's PAN no
 * longer reads from its own rows, yet what it was paid under the PAN belongs to the PAN's row.
 */
export type PanHolders = (pan: string) => Promise<readonly string[]>;

/** A PAN's holders as its payee stream records them (the stream is named by a keyed hash of the PAN). */
export function panHoldersIn(deps: Pick<AppDeps, 'store' | 'personalData'>): PanHolders {
  return async (pan) => {
    const holders = new Set<string>();
    for (const recorded of await deps.store.readStream(deps.personalData.panPayeeStreamId(pan))) {
      const event = eventCodec.decode(recorded);
      if (event?.type === 'TaxPayeeClaimed') holders.add(event.data.userId);
    }
    return [...holders];
  };
}

export async function yearlyReport(db: ReadDbHandle, fy: string, panHolders?: PanHolders): Promise<YearlyReportBody> {
  const year = financialYear(fy);
  if (!year) throw new Error(`not a financial year: ${fy}`);
  const [totals, taxes] = await Promise.all([totalsByUser(db, year.from, year.to), withdrawalTaxTotals(db, year.from, year.to)]);
  const ids = [...new Set([...totals.map((t) => t.userId), ...taxes.keys()])].sort();
  const byUser = new Map(totals.map((t) => [t.userId, t]));
  const [holders, pans] = await Promise.all([accountHolders(db, ids), pansOf(db, ids)]);
  const sum = { rewards: 0, bonuses: 0, adjustments: 0, payouts: 0, referralBonuses: 0, gross: 0, tax: 0 };
  const perPan = new Map<string, { accounts: number; gross: number; tax: number }>();
  // An account whose PAN no longer reads (erased) counts under a PAN it held, found from the live holder's PAN.
  const heldBy = new Map<string, string>();
  if (panHolders) {
    for (const pan of new Set(pans.values())) {
      for (const holder of await panHolders(pan)) if (!pans.has(holder)) heldBy.set(holder, pan);
    }
  }
  const people = ids.map((userId) => {
    const t = byUser.get(userId) ?? NO_TOTALS;
    const { grossPaise, taxPaise } = taxes.get(userId) ?? { grossPaise: 0, taxPaise: 0 };
    sum.rewards += t.rewardsPaise;
    sum.bonuses += t.bonusesPaise;
    sum.adjustments += t.adjustmentsPaise;
    sum.payouts += t.payoutsPaise;
    sum.referralBonuses += t.referralBonusesPaise;
    sum.gross += grossPaise;
    sum.tax += taxPaise;
    const holder = holders.get(userId);
    const pan = pans.get(userId) ?? null;
    const panHeld = pan ?? heldBy.get(userId) ?? null;
    if (panHeld !== null) {
      const p = perPan.get(panHeld) ?? { accounts: 0, gross: 0, tax: 0 };
      perPan.set(panHeld, { accounts: p.accounts + 1, gross: p.gross + grossPaise, tax: p.tax + taxPaise });
    }
    return {
      userId,
      name: holder?.name ?? userId,
      mobile: holder?.mobile ?? null,
      pan,
      rewards: formatPaise(t.rewardsPaise),
      bonuses: formatPaise(t.bonusesPaise),
      adjustments: formatPaise(t.adjustmentsPaise),
      payouts: formatPaise(t.payoutsPaise),
      referralBonuses: formatPaise(t.referralBonusesPaise),
      grossPaid: formatPaise(grossPaise),
      taxDeducted: formatPaise(taxPaise),
      netPaid: formatPaise(grossPaise - taxPaise),
    };
  });
  return {
    fy: year.label,
    from: year.from,
    to: year.to,
    people,
    totals: {
      rewards: formatPaise(sum.rewards),
      bonuses: formatPaise(sum.bonuses),
      adjustments: formatPaise(sum.adjustments),
      payouts: formatPaise(sum.payouts),
      referralBonuses: formatPaise(sum.referralBonuses),
      grossPaid: formatPaise(sum.gross),
      taxDeducted: formatPaise(sum.tax),
      netPaid: formatPaise(sum.gross - sum.tax),
    },
    byPan: [...perPan]
      .sort(([a], [b]) => a.localeCompare(b))
      .map(([pan, p]) => ({ pan, accounts: p.accounts, grossPaid: formatPaise(p.gross), taxDeducted: formatPaise(p.tax), netPaid: formatPaise(p.gross - p.tax) })),
  };
}

const YEARLY_HEADER = [
  'financial_year', 'user_id', 'name', 'mobile', 'pan', 'rewards', 'bonuses', 'adjustments', 'payouts', 'referral_bonuses', 'gross_paid', 'tax_deducted', 'net_paid',
] as const;

/** The accountant's CSV (UTF-8 BOM, one row per person, then a `TOTAL` row). */
export function yearlyReportCsv(report: YearlyReportBody): string {
  const t = report.totals;
  return csvFile(
    YEARLY_HEADER,
    [
      ...report.people.map((p) => [report.fy, p.userId, p.name, p.mobile, p.pan, p.rewards, p.bonuses, p.adjustments, p.payouts, p.referralBonuses, p.grossPaid, p.taxDeducted, p.netPaid]),
      [report.fy, 'TOTAL', null, null, null, t.rewards, t.bonuses, t.adjustments, t.payouts, t.referralBonuses, t.grossPaid, t.taxDeducted, t.netPaid],
    ],
    new Set(['rewards', 'bonuses', 'adjustments', 'payouts', 'referral_bonuses', 'gross_paid', 'tax_deducted', 'net_paid']),
  );
}

export const yearlyReportRoutes = new Hono<AppEnv>().get('/api/admin/reports/yearly', withRole('finance'), validate('query', YearlyReportQuery), async (c) => {
  const deps = c.var.deps;
  const { fy, format } = c.req.valid('query');
  await caughtUp(deps);
  const report = await yearlyReport(deps.db, fy, panHoldersIn(deps));
  if (format === 'csv') return csvResponse(c, `kamai-yearly-${fy}.csv`, yearlyReportCsv(report));
  return c.json(report);
});
