import { type YearlyReportBody, YearlyReportQuery, financialYear, formatPaise } from '@kamai/contracts';
import { type ReadDbHandle, accountHolders, pansOf, totalsByUser } from '@kamai/projections';
import { Hono } from 'hono';
import type { AppEnv } from '../deps.ts';
import { withRole } from '../http/guards.ts';
import { validate } from '../http/validate.ts';
import { csvFile } from './csv.ts';
import { caughtUp, csvResponse } from './ledger-routes.ts';

/**
 * The yearly report per person for the Indian financial year (April to March, IST): rewards,
 * bonuses, adjustments and payouts, with the PAN given at KYC, for the accountant. Kamai withholds
 * no tax; this only reports what was earned and paid.
 */
export async function yearlyReport(db: ReadDbHandle, fy: string): Promise<YearlyReportBody> {
  const year = financialYear(fy);
  if (!year) throw new Error(`not a financial year: ${fy}`);
  const totals = await totalsByUser(db, year.from, year.to);
  const ids = totals.map((t) => t.userId);
  const [holders, pans] = await Promise.all([accountHolders(db, ids), pansOf(db, ids)]);
  const sum = { rewards: 0, bonuses: 0, adjustments: 0, payouts: 0, referralBonuses: 0 };
  const people = totals.map((t) => {
    sum.rewards += t.rewardsPaise;
    sum.bonuses += t.bonusesPaise;
    sum.adjustments += t.adjustmentsPaise;
    sum.payouts += t.payoutsPaise;
    sum.referralBonuses += t.referralBonusesPaise;
    const holder = holders.get(t.userId);
    return {
      userId: t.userId,
      name: holder?.name ?? t.userId,
      mobile: holder?.mobile ?? null,
      pan: pans.get(t.userId) ?? null,
      rewards: formatPaise(t.rewardsPaise),
      bonuses: formatPaise(t.bonusesPaise),
      adjustments: formatPaise(t.adjustmentsPaise),
      payouts: formatPaise(t.payoutsPaise),
      referralBonuses: formatPaise(t.referralBonusesPaise),
    };
  });
  return {
    fy: year.label,
    from: year.from,
    to: year.to,
    people,
    totals: { rewards: formatPaise(sum.rewards), bonuses: formatPaise(sum.bonuses), adjustments: formatPaise(sum.adjustments), payouts: formatPaise(sum.payouts), referralBonuses: formatPaise(sum.referralBonuses) },
  };
}

const YEARLY_HEADER = ['financial_year', 'user_id', 'name', 'mobile', 'pan', 'rewards', 'bonuses', 'adjustments', 'payouts', 'referral_bonuses'] as const;

/** The accountant's CSV (UTF-8 BOM, one row per person, then a `TOTAL` row). */
export function yearlyReportCsv(report: YearlyReportBody): string {
  return csvFile(
    YEARLY_HEADER,
    [
      ...report.people.map((p) => [report.fy, p.userId, p.name, p.mobile, p.pan, p.rewards, p.bonuses, p.adjustments, p.payouts, p.referralBonuses]),
      [report.fy, 'TOTAL', null, null, null, report.totals.rewards, report.totals.bonuses, report.totals.adjustments, report.totals.payouts, report.totals.referralBonuses],
    ],
    new Set(['rewards', 'bonuses', 'adjustments', 'payouts', 'referral_bonuses']),
  );
}

export const yearlyReportRoutes = new Hono<AppEnv>().get('/api/admin/reports/yearly', withRole('finance'), validate('query', YearlyReportQuery), async (c) => {
  const deps = c.var.deps;
  const { fy, format } = c.req.valid('query');
  await caughtUp(deps);
  const report = await yearlyReport(deps.db, fy);
  if (format === 'csv') return csvResponse(c, `kamai-yearly-${fy}.csv`, yearlyReportCsv(report));
  return c.json(report);
});
