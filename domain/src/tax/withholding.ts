import { type Paise, type TaxCreditKind, type TaxRule, istDayOf } from '@kamai/contracts';

/**
 * Tax withheld at source (docs/tax.md): one pure function decides what a payment of a person's
 * earnings is charged. The quote shown before the person confirms and the charge recorded with the
 * withdrawal both call it, so the two cannot differ.
 */

/** A financial year's label, `2026-27`, of an instant: April to March, whole days in India time. */
export function financialYearOf(instant: string): string {
  const [year, month] = istDayOf(instant).split('-').map(Number) as [number, number];
  const start = month >= 4 ? year : year - 1;
  return `${start}-${String((start + 1) % 100).padStart(2, '0')}`;
}

/** What one person was credited and had withheld in one financial year, as the withdrawal decider folds it. */
export interface TaxYear {
  /** `2026-27`. */
  fy: string;
  /** Credits of the kinds rules can apply to, in paise, by kind. */
  creditedPaise: Partial<Record<TaxCreditKind, Paise>>;
  /** Tax already withheld this year (withdrawals requested and not returned), in paise, by rule code. */
  withheldPaise: Readonly<Record<string, Paise>>;
}

/** One rule's charge on one payment. */
export interface TaxCharge {
  code: string;
  amountPaise: Paise;
  /** The amount the rate was applied to (the payment, or the year's total), in paise. */
  basePaise: Paise;
  rateBasisPoints: number;
}

export interface TaxQuestion {
  rules: readonly TaxRule[];
  /** An approved PAN card with its number: the lower rate applies. */
  hasPan: boolean;
  /** The person's totals in the financial year of the payment (an empty year when they have none). */
  year: TaxYear;
  /** The withdrawal's amount, in paise, before tax. */
  paymentPaise: Paise;
}

/**
 * Rounded up to the whole rupee, as TDS is deducted in practice: a rate of 1 % on ₹30,000.50 is
 * ₹301, never ₹300.01. Integer arithmetic: base × basis points stays far below 2^53.
 */
export function taxOn(basePaise: Paise, rateBasisPoints: number): Paise {
  return Math.ceil((basePaise * rateBasisPoints) / 1_000_000) * 100;
}

/**
 * The tax a payment is charged, one entry per rule that charges anything (rules apply to disjoint
 * kinds of credit, which the settings' schema checks). For each rule, with Y the year's credits of
 * its kinds and W the tax it already withheld this year:
 * - when Y exceeds the per-year threshold, the whole year is taxed: tax(Y) − W;
 * - else when the payment exceeds the per-payment threshold, the payment is taxed, up to Y (a payment
 *   of other money is no payment of these credits): tax(min(payment, Y));
 * - else nothing.
 * No rule charges more than what is left of the payment, so `net` never goes below zero; what one
 * payment could not carry is charged on the next (the year's due is always the whole year's tax).
 */
export function chargeTax(question: TaxQuestion): TaxCharge[] {
  const { rules, hasPan, year, paymentPaise } = question;
  const charges: TaxCharge[] = [];
  let left = paymentPaise;
  for (const rule of rules) {
    // Adjustment debits count negative (tax-years.ts countDebit): a year is never below zero.
    const yearPaise = Math.max(0, rule.appliesTo.reduce((sum, kind) => sum + (year.creditedPaise[kind] ?? 0), 0));
    const rate = hasPan ? rule.rateWithPanBasisPoints : rule.rateWithoutPanBasisPoints;
    let basePaise = 0;
    let due = 0;
    if (yearPaise > rule.perYearThresholdPaise) {
      basePaise = yearPaise;
      due = taxOn(yearPaise, rate) - (year.withheldPaise[rule.code] ?? 0);
    } else if (paymentPaise > rule.perPaymentThresholdPaise) {
      basePaise = Math.min(paymentPaise, yearPaise);
      due = taxOn(basePaise, rate);
    }
    const amountPaise = Math.min(Math.max(due, 0), left);
    if (amountPaise <= 0) continue;
    left -= amountPaise;
    charges.push({ code: rule.code, amountPaise, basePaise, rateBasisPoints: rate });
  }
  return charges;
}

/** The year a fold starts from: nothing credited, nothing withheld. */
export const emptyTaxYear = (fy: string): TaxYear => ({ fy, creditedPaise: {}, withheldPaise: {} });
