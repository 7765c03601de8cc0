import { type CREDIT_KINDS, type DEBIT_KINDS, type Paise, type TaxCreditKind, type TaxRule, type TaxYearTotals, istDayStart } from '@kamai/contracts';
import { addTaxYearTotals } from '../tax/payee.ts';
import { type TaxCharge, type TaxYear, chargeTax, emptyTaxYear, financialYearOf } from '../tax/withholding.ts';
import type { KycState } from './kyc.ts';

/**
 * What the rules count of this person's money, per financial year (docs/tax.md): sums only, not
 * the events. Only the newest TAX_YEARS_KEPT years stay, so the state is bounded whatever the
 * history: a payment is charged on its own year, and a tax given back belongs to the year it was
 * withheld in, which is this one or the one before.
 */
export interface TaxYearsState {
  /** By financial year (`2026-27`), oldest first. */
  byYear: Map<string, TaxYear>;
}

export const TAX_YEARS_KEPT = 2;

export const initialTaxYearsState = (): TaxYearsState => ({ byYear: new Map() });

/** A wallet credit's kind as the rules name it; null for credits no rule counts (refunds, returns). */
const TAX_KIND_OF_CREDIT: Partial<Record<(typeof CREDIT_KINDS)[number], TaxCreditKind>> = {
  task_reward: 'task_reward',
  kyc_bonus: 'bonus',
  referral_bonus: 'referral_bonus',
  adjustment: 'adjustment',
};

/** One rule's charge as the withdrawal records it. */
export interface WithheldTax {
  code: string;
  amountPaise: Paise;
  basePaise: Paise;
  rateBasisPoints: number;
}

function yearOf(state: TaxYearsState, fy: string): TaxYear | null {
  const year = state.byYear.get(fy);
  if (year) return year;
  // A year older than every kept one is forgotten already: nothing to count in it.
  const kept = [...state.byYear.keys()];
  if (kept.length >= TAX_YEARS_KEPT && kept.every((k) => k > fy)) return null;
  const fresh = emptyTaxYear(fy);
  state.byYear.set(fy, fresh);
  // Years are labelled `YYYY-YY`: their text order is their time order.
  const sorted = [...state.byYear.entries()].sort(([a], [b]) => (a < b ? -1 : 1));
  state.byYear = new Map(sorted.slice(-TAX_YEARS_KEPT));
  return state.byYear.get(fy) ?? null;
}

/**
 * The instant whose financial year an entry counts in: its effective day's first moment when it was
 * dated (an adjustment correcting another month), else when it was recorded.
 */
const countedAt = (at: string, effectiveDate: string | undefined): string => (effectiveDate === undefined ? at : istDayStart(effectiveDate));

/** A credit of a kind the rules can count, in the financial year of its time (its effective day when dated). */
export function countCredit(
  state: TaxYearsState,
  kind: (typeof CREDIT_KINDS)[number],
  amountPaise: Paise,
  at: string,
  effectiveDate?: string,
): TaxYearsState {
  const taxKind = TAX_KIND_OF_CREDIT[kind];
  if (!taxKind) return state;
  const year = yearOf(state, financialYearOf(countedAt(at, effectiveDate)));
  if (year) year.creditedPaise = { ...year.creditedPaise, [taxKind]: (year.creditedPaise[taxKind] ?? 0) + amountPaise };
  return state;
}

/**
 * An adjustment debit lowers its year's `adjustment` total (docs/tax.md): a rule that covers
 * adjustments counts them net, so taking back a credit in error takes it out of the year too. The
 * total may go below zero (a debit correcting, say, a task reward over-credited): a rule covering
 * both kinds then nets it against them; chargeTax never counts a year below zero. A rule that does
 * not cover adjustments never reads this total. Other debits (withdrawals, tax) are not credits.
 */
export function countDebit(state: TaxYearsState, kind: (typeof DEBIT_KINDS)[number], amountPaise: Paise, at: string, effectiveDate?: string): TaxYearsState {
  if (kind !== 'adjustment') return state;
  const year = yearOf(state, financialYearOf(countedAt(at, effectiveDate)));
  if (year) year.creditedPaise = { ...year.creditedPaise, adjustment: (year.creditedPaise.adjustment ?? 0) - amountPaise };
  return state;
}

/** Tax withheld from a withdrawal (sign +1) or given back with it (−1), in the year it was requested. */
export function countWithheld(state: TaxYearsState, taxes: readonly WithheldTax[], requestedAt: string, sign: 1 | -1): TaxYearsState {
  if (taxes.length === 0) return state;
  const year = yearOf(state, financialYearOf(requestedAt));
  if (!year) return state;
  const withheld = { ...year.withheldPaise };
  for (const tax of taxes) withheld[tax.code] = (withheld[tax.code] ?? 0) + sign * tax.amountPaise;
  year.withheldPaise = withheld;
  return state;
}

/** The totals paid under a PAN by an earlier account, added to this one's years (docs/tax.md: one PAN, one payee). */
export function carryTaxYears(state: TaxYearsState, carried: readonly TaxYearTotals[]): TaxYearsState {
  for (const totals of carried) {
    const year = yearOf(state, totals.fy);
    if (year) state.byYear.set(totals.fy, addTaxYearTotals(year, totals));
  }
  return state;
}

/** A PAN card approved with its number: the lower rate applies. */
export function hasApprovedPan(kyc: KycState): boolean {
  const id = kyc.latest.pan;
  const record = id ? kyc.submissions.get(id) : undefined;
  return record?.status === 'approved' && record.withNumber === true;
}

/**
 * What a withdrawal of `paymentPaise` requested at `now` is charged, from the person's state: the
 * quote (GET /api/withdrawals/quote) and the request's decider both call this, so they agree.
 */
export function withdrawalTax(state: { taxYears: TaxYearsState; kyc: KycState }, rules: readonly TaxRule[], paymentPaise: Paise, now: string): TaxCharge[] {
  const fy = financialYearOf(now);
  const year = state.taxYears.byYear.get(fy) ?? emptyTaxYear(fy);
  return chargeTax({ rules, hasPan: hasApprovedPan(state.kyc), year, paymentPaise });
}
