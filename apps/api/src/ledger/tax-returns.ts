import {
  type MyTaxYearBody,
  TAX_DEDUCTOR_NAME,
  type TaxCertificateBody,
  type TaxDepositBody,
  TaxDepositRequest,
  TaxDepositsQuery,
  TaxQuarterParam,
  type TaxQuarterSummaryBody,
  type TaxReturnBody,
  type TaxReturnRow,
  TaxReturnQuery,
  formatPaise,
  istDayOf,
  streams,
  taxQuarter,
} from '@kamai/contracts';
import { type TaxDeposit, financialYearOf, taxDepositsDecider } from '@kamai/domain';
import { type ReadDbHandle, accountHolders, approvedPansOf, getSettings, myTaxedWithdrawals, taxDeductions } from '@kamai/projections';
import { Hono } from 'hono';
import { requireUser } from '../auth/sessions.ts';
import { handleCommand, loadStream } from '../commands/handle.ts';
import { commandId } from '../commands/keyed.ts';
import type { AppDeps, AppEnv } from '../deps.ts';
import { signedIn, withRole } from '../http/guards.ts';
import { validate } from '../http/validate.ts';
import { csvFile } from '../finance/csv.ts';
import { caughtUp, csvResponse } from '../finance/ledger-routes.ts';
import { assertDayOpen } from './periods.ts';

const financeStaff = withRole('finance');

/** What the return says of a deductee without a PAN. */
export const NO_PAN = 'PANNOTAVBL';

const depositBody = (d: TaxDeposit): TaxDepositBody => ({
  id: d.depositId,
  quarter: d.quarter,
  bsrCode: d.bsrCode,
  serial: d.serial,
  date: d.depositDate,
  amount: formatPaise(d.amountPaise),
  recordedBy: d.recordedBy,
  recordedAt: d.recordedAt,
});

/** The quarter's challans, read from its own stream (a deposit recorded a moment ago shows). */
async function depositsOf(deps: AppDeps, quarter: string): Promise<TaxDeposit[]> {
  return (await loadStream(deps.store, streams.taxDeposits(quarter), taxDepositsDecider)).state.deposits;
}

/**
 * The quarter's deductions with the challan each was deposited under: deductions in the order they
 * were made are covered by the challans in the order of their days, first come first covered; a
 * deduction belongs to the challan that covers its last paisa, and to none while the deposits fall
 * short of it.
 */
async function quarterReturn(deps: AppDeps, label: string): Promise<TaxReturnBody> {
  const quarter = taxQuarter(label);
  if (!quarter) throw new Error(`not a quarter: ${label}`);
  await caughtUp(deps);
  const [deductions, deposits, settings] = await Promise.all([taxDeductions(deps.db, quarter.from, quarter.to), depositsOf(deps, label), getSettings(deps.db)]);
  const deductor = { name: settings.taxDeductorName ?? TAX_DEDUCTOR_NAME, tan: settings.taxDeductorTan, address: settings.taxDeductorAddress };
  const ids = deductions.map((d) => d.userId);
  const [holders, pans] = await Promise.all([accountHolders(deps.db, ids), approvedPansOf(deps.db, ids)]);
  const challans = [...deposits].sort((a, b) => a.depositDate.localeCompare(b.depositDate));
  let covered = 0;
  let next = 0;
  let reached = 0;
  const rows = deductions.map((d): TaxReturnRow => {
    reached += d.taxPaise;
    while (next < challans.length && covered + challans[next]!.amountPaise < reached) covered += challans[next++]!.amountPaise;
    const challan = challans[next];
    const day = istDayOf(d.requestedAt);
    return {
      pan: pans.get(d.userId) ?? NO_PAN,
      name: holders.get(d.userId)?.name ?? d.userId,
      userId: d.userId,
      mobile: holders.get(d.userId)?.mobile ?? null,
      code: d.code,
      amountPaid: formatPaise(d.amountPaise),
      paidOn: day,
      taxDeducted: formatPaise(d.taxPaise),
      deductedOn: day,
      withdrawalId: d.withdrawalId,
      challan: challan ? { bsrCode: challan.bsrCode, serial: challan.serial, date: challan.depositDate } : null,
    };
  });
  return { quarter: label, deductor, from: quarter.from, to: quarter.to, rows, summary: summaryOf(label, deductions.reduce((s, d) => s + d.taxPaise, 0), deposits) };
}

function summaryOf(quarter: string, deductedPaise: number, deposits: readonly TaxDeposit[]): TaxQuarterSummaryBody {
  const depositedPaise = deposits.reduce((s, d) => s + d.amountPaise, 0);
  return { quarter, deducted: formatPaise(deductedPaise), deposited: formatPaise(depositedPaise), due: formatPaise(deductedPaise - depositedPaise), deposits: deposits.map(depositBody) };
}

/** The quarterly return's deductee columns, in its order; then what finance needs to trace a row. */
const RETURN_HEADER = [
  'deductee_pan', 'deductee_name', 'section_code', 'amount_paid', 'date_of_payment', 'tax_deducted', 'date_of_deduction',
  'challan_bsr_code', 'challan_serial', 'challan_date', 'user_id', 'mobile', 'withdrawal_id',
] as const;

/** The return's CSV (UTF-8 BOM, masked mobiles). */
export function taxReturnCsv(body: TaxReturnBody): string {
  return csvFile(
    RETURN_HEADER,
    body.rows.map((r) => [
      r.pan, r.name, r.code, r.amountPaid, r.paidOn, r.taxDeducted, r.deductedOn,
      r.challan?.bsrCode ?? null, r.challan?.serial ?? null, r.challan?.date ?? null, r.userId, r.mobile, r.withdrawalId,
    ]),
    new Set(['amount_paid', 'tax_deducted']),
  );
}

/** Per person: what Form 16A carries for the quarter. */
export function certificatesOf(body: TaxReturnBody): TaxCertificateBody[] {
  const people = new Map<string, { rows: TaxReturnRow[] }>();
  for (const row of body.rows) {
    const person = people.get(row.userId) ?? { rows: [] };
    person.rows.push(row);
    people.set(row.userId, person);
  }
  const quarter = taxQuarter(body.quarter)!;
  return [...people.values()].map(({ rows }) => {
    const first = rows[0]!;
    const byChallan = new Map<string, { challan: TaxReturnRow['challan']; paise: number }>();
    for (const r of rows) {
      const key = r.challan ? `${r.challan.bsrCode}/${r.challan.serial}/${r.challan.date}` : '';
      const entry = byChallan.get(key) ?? { challan: r.challan, paise: 0 };
      entry.paise += toPaise(r.taxDeducted);
      byChallan.set(key, entry);
    }
    return {
      quarter: body.quarter,
      deductor: body.deductor,
      deductee: { userId: first.userId, name: first.name, pan: first.pan },
      period: { from: quarter.firstDay, to: quarter.lastDay },
      amountPaid: formatPaise(rows.reduce((s, r) => s + toPaise(r.amountPaid), 0)),
      taxDeducted: formatPaise(rows.reduce((s, r) => s + toPaise(r.taxDeducted), 0)),
      challans: [...byChallan.values()].map(({ challan, paise }) => ({
        bsrCode: challan?.bsrCode ?? null,
        serial: challan?.serial ?? null,
        date: challan?.date ?? null,
        taxDeducted: formatPaise(paise),
      })),
    };
  });
}

/** "12.34" → 1234: the answer's own formatted amounts, summed back exactly. */
const toPaise = (rupees: string) => Math.round(Number(rupees) * 100);

/** A person's own years: withdrawn before tax, tax deducted, and sent to the bank; newest first. */
export async function myTaxSummary(db: ReadDbHandle, userId: string): Promise<MyTaxYearBody[]> {
  const years = new Map<string, { paid: number; tax: number }>();
  for (const w of await myTaxedWithdrawals(db, userId)) {
    const fy = financialYearOf(w.requestedAt);
    const year = years.get(fy) ?? { paid: 0, tax: 0 };
    year.paid += w.amountPaise;
    year.tax += w.taxPaise;
    years.set(fy, year);
  }
  return [...years]
    .sort(([a], [b]) => b.localeCompare(a))
    .map(([fy, y]) => ({ fy, paid: formatPaise(y.paid), taxDeducted: formatPaise(y.tax), net: formatPaise(y.paid - y.tax) }));
}

/**
 * The tax withheld after it is withheld (docs/tax.md): finance records its deposits (challans) and
 * takes the quarterly return's data and the certificates; a person reads their own yearly summary.
 */
export const taxReturnRoutes = new Hono<AppEnv>()
  .post('/api/admin/ledger/tax-deposits', financeStaff, validate('json', TaxDepositRequest), async (c) => {
    const deps = c.var.deps;
    const by = requireUser(c).id;
    const { quarter, bsrCode, serial, date, amount } = c.req.valid('json');
    // Booked with the day it was deposited: not into a month already closed.
    await assertDayOpen(deps.store, date);
    const depositId = commandId();
    const { view, position } = await handleCommand(
      deps.store,
      streams.taxDeposits(quarter),
      taxDepositsDecider,
      { type: 'RecordTaxDeposit', data: { depositId, quarter, bsrCode, serial, depositDate: date, amountPaise: amount, by }, now: deps.now().toISOString() },
      { actor: by },
      { view: (state) => state.deposits.find((d) => d.depositId === depositId) },
    );
    await deps.runner.waitFor(position);
    if (!view) throw new Error('the deposit recorded is not in its stream');
    return c.json(depositBody(view), 201);
  })
  .get('/api/admin/ledger/tax-deposits', financeStaff, validate('query', TaxDepositsQuery), async (c) => {
    const { quarter } = c.req.valid('query');
    return c.json((await quarterReturn(c.var.deps, quarter)).summary);
  })
  .get('/api/admin/ledger/tax/:quarter', financeStaff, validate('param', TaxQuarterParam), validate('query', TaxReturnQuery), async (c) => {
    const { quarter } = c.req.valid('param');
    const body = await quarterReturn(c.var.deps, quarter);
    if (c.req.valid('query').format === 'csv') return csvResponse(c, `kamai-tds-${quarter}.csv`, taxReturnCsv(body));
    return c.json(body);
  })
  .get('/api/admin/ledger/tax/:quarter/certificates', financeStaff, validate('param', TaxQuarterParam), async (c) => {
    const { quarter } = c.req.valid('param');
    return c.json(certificatesOf(await quarterReturn(c.var.deps, quarter)));
  })
  .get('/api/tax-summary', signedIn, async (c) => {
    const deps = c.var.deps;
    await caughtUp(deps);
    return c.json(await myTaxSummary(deps.db, requireUser(c).id));
  });
