import * as v from 'valibot';
import { Day, istDay } from './days.ts';
import { RupeeAmount } from './money.ts';
import { refusal } from './refusal.ts';
import { noControlCharacters } from './text.ts';

/**
 * The tax withheld after it is withheld (docs/tax.md): its deposits to the government (challans),
 * the quarterly return's rows, the certificate data per person (what Form 16A carries) and the
 * person's own yearly summary. Quarters and financial years are India time.
 */

/** The refusals of the tax return routes (catalogue group `taxReturn.*`). */
export const TAX_RETURN_MESSAGES = {
  quarter: 'Give the quarter as 2026-27-Q3 (financial year, then Q1 to Q4)',
  bsrCode: 'The BSR code is the 7 digits of the bank branch on the challan',
  serial: 'The challan serial number is 5 digits',
  date: 'Enter the day the tax was deposited (YYYY-MM-DD)',
  futureDate: 'The day of the deposit cannot be in the future',
  beforeQuarter: 'A deposit for {quarter} is made on or after the quarter’s first day',
  amount: 'Enter the amount deposited in rupees, more than zero, with at most two decimals',
  duplicate: 'This challan (BSR code, serial and day) is already recorded',
  tan: 'The TAN is 4 letters, 5 digits and a letter, e.g. DELK12345A',
  deductorName: 'Give the deductor’s name, at most 120 characters',
  deductorAddress: 'Give the deductor’s address, at most 300 characters',
} as const;

/** The deductor's TAN (tax deduction and collection account number): AAAA99999A. */
export const TAN_PATTERN = /^[A-Z]{4}\d{5}[A-Z]$/;
const deductorText = (max: number, message: ReturnType<typeof refusal>) =>
  v.pipe(v.string(message), v.trim(), v.minLength(1, message), v.maxLength(max, message), noControlCharacters());
/** The deductor's details as settings (docs/tax.md): each set on its own, a plain setting. */
export const TaxDeductorInput = {
  taxDeductorTan: v.optional(v.pipe(v.string(refusal('taxReturn.tan')), v.trim(), v.toUpperCase(), v.regex(TAN_PATTERN, refusal('taxReturn.tan')))),
  taxDeductorName: v.optional(deductorText(120, refusal('taxReturn.deductorName'))),
  taxDeductorAddress: v.optional(deductorText(300, refusal('taxReturn.deductorAddress'))),
};

/** The quarters of a financial year: Q1 April–June … Q4 January–March. */
const QUARTER = /^(\d{4})-(\d{2})-Q([1-4])$/;

export interface TaxQuarter {
  /** `2026-27-Q3` */
  label: string;
  /** `2026-27` */
  fy: string;
  quarter: 1 | 2 | 3 | 4;
  /** First and last IST day. */
  firstDay: string;
  lastDay: string;
  /** The first and the last millisecond, UTC instants. */
  from: string;
  to: string;
}

const pad = (n: number) => String(n).padStart(2, '0');

/** A quarter `2026-27-Q3` (1 October to 31 December 2026, IST); null when the label is not one. */
export function taxQuarter(label: string): TaxQuarter | null {
  const match = QUARTER.exec(label);
  if (!match) return null;
  const start = Number(match[1]);
  if ((start + 1) % 100 !== Number(match[2])) return null;
  const quarter = Number(match[3]) as 1 | 2 | 3 | 4;
  const year = quarter === 4 ? start + 1 : start;
  const firstMonth = quarter === 4 ? 1 : 1 + quarter * 3;
  const lastMonth = firstMonth + 2;
  const lastDate = new Date(Date.UTC(year, lastMonth, 0)).getUTCDate();
  const firstDay = `${year}-${pad(firstMonth)}-01`;
  const lastDay = `${year}-${pad(lastMonth)}-${pad(lastDate)}`;
  return { label, fy: `${match[1]}-${match[2]}`, quarter, firstDay, lastDay, from: istDay(firstDay).start, to: istDay(lastDay).end };
}

/** The quarter an IST day `YYYY-MM-DD` falls in. */
export function taxQuarterOfDay(day: string): string {
  const year = Number(day.slice(0, 4));
  const month = Number(day.slice(5, 7));
  const start = month >= 4 ? year : year - 1;
  const quarter = month >= 4 ? Math.floor((month - 4) / 3) + 1 : 4;
  return `${start}-${pad((start + 1) % 100)}-Q${quarter}`;
}

const Quarter = v.pipe(v.string(refusal('taxReturn.quarter')), v.trim(), v.check((s) => taxQuarter(s) !== null, refusal('taxReturn.quarter')));

/** `:quarter` of the tax return routes. */
export const TaxQuarterParam = v.object({ quarter: Quarter });

/** GET /api/admin/ledger/tax/:quarter?format=json|csv */
export const TaxReturnQuery = v.object({ format: v.optional(v.picklist(['json', 'csv'], refusal('api.formatValue')), 'json') });

/** GET /api/admin/ledger/tax-deposits?quarter= */
export const TaxDepositsQuery = v.object({ quarter: Quarter });

/** POST /api/admin/ledger/tax-deposits */
export const TaxDepositRequest = v.object({
  quarter: Quarter,
  bsrCode: v.pipe(v.string(refusal('taxReturn.bsrCode')), v.trim(), v.regex(/^\d{7}$/, refusal('taxReturn.bsrCode'))),
  serial: v.pipe(v.string(refusal('taxReturn.serial')), v.trim(), v.regex(/^\d{5}$/, refusal('taxReturn.serial'))),
  date: Day(refusal('taxReturn.date')),
  amount: v.pipe(RupeeAmount({ format: refusal('taxReturn.amount') }), v.minValue(1, refusal('taxReturn.amount'))),
});
export type TaxDepositRequest = v.InferOutput<typeof TaxDepositRequest>;

/** One challan as recorded. */
export const TaxDepositBody = v.strictObject({
  id: v.string(),
  quarter: v.string(),
  bsrCode: v.string(),
  serial: v.string(),
  /** The IST day the tax was deposited. */
  date: v.string(),
  amount: v.string(),
  recordedBy: v.string(),
  recordedAt: v.string(),
});
export type TaxDepositBody = v.InferOutput<typeof TaxDepositBody>;

/** A quarter's tax as finance sees it: deducted (net of refunds), deposited, and still due. */
export const TaxQuarterSummaryBody = v.strictObject({
  quarter: v.string(),
  deducted: v.string(),
  deposited: v.string(),
  /** deducted − deposited (negative when more was deposited). */
  due: v.string(),
  deposits: v.array(TaxDepositBody),
});
export type TaxQuarterSummaryBody = v.InferOutput<typeof TaxQuarterSummaryBody>;

/** The challan a deduction was deposited under (null until a deposit covers it). */
const Challan = v.nullable(v.strictObject({ bsrCode: v.string(), serial: v.string(), date: v.string() }));

/** One deduction, in the order of the quarterly TDS return's deductee columns. */
export const TaxReturnRow = v.strictObject({
  /** The approved PAN, or `PANNOTAVBL` when the person has none. */
  pan: v.string(),
  /** The account holder's name (the name on the PAN card is not held apart from it). */
  name: v.string(),
  userId: v.string(),
  /** Masked. */
  mobile: v.nullable(v.string()),
  /** The rule's code (section / payment code). */
  code: v.string(),
  /** Amount paid or credited: the withdrawal before tax. */
  amountPaid: v.string(),
  /** IST day of payment (the withdrawal's request, when the tax was deducted). */
  paidOn: v.string(),
  /** Tax deducted, net of any given back. */
  taxDeducted: v.string(),
  deductedOn: v.string(),
  withdrawalId: v.string(),
  challan: Challan,
});
export type TaxReturnRow = v.InferOutput<typeof TaxReturnRow>;

/** The deductor as the settings name it: `name` Kamai until set, `tan` and `address` null until set. */
export const TaxDeductorBody = v.strictObject({ name: v.string(), tan: v.nullable(v.string()), address: v.nullable(v.string()) });
export type TaxDeductorBody = v.InferOutput<typeof TaxDeductorBody>;

export const TaxReturnBody = v.strictObject({
  quarter: v.string(),
  /** The return's deductor header. */
  deductor: TaxDeductorBody,
  from: v.string(),
  to: v.string(),
  rows: v.array(TaxReturnRow),
  summary: TaxQuarterSummaryBody,
});
export type TaxReturnBody = v.InferOutput<typeof TaxReturnBody>;

/** Per person per quarter: what Form 16A carries. */
export const TaxCertificateBody = v.strictObject({
  quarter: v.string(),
  deductor: TaxDeductorBody,
  deductee: v.strictObject({ userId: v.string(), name: v.string(), pan: v.string() }),
  period: v.strictObject({ from: v.string(), to: v.string() }),
  amountPaid: v.string(),
  taxDeducted: v.string(),
  /** What the deductions were deposited under, with the part of this person's tax in each. */
  challans: v.array(v.strictObject({ bsrCode: v.nullable(v.string()), serial: v.nullable(v.string()), date: v.nullable(v.string()), taxDeducted: v.string() })),
});
export type TaxCertificateBody = v.InferOutput<typeof TaxCertificateBody>;

/** GET /api/me/tax-summary: per financial year (newest first), the person's own withdrawals. */
export const MyTaxYearBody = v.strictObject({
  fy: v.string(),
  /** Withdrawn before tax (given-back withdrawals not counted). */
  paid: v.string(),
  taxDeducted: v.string(),
  /** Sent to the bank: paid − tax. */
  net: v.string(),
});
export type MyTaxYearBody = v.InferOutput<typeof MyTaxYearBody>;

/** Who deducts the tax, as the certificate names it. */
export const TAX_DEDUCTOR_NAME = 'Kamai';
