import { DEFAULT_TAX_RULES, type TaxRule, rupees } from '@kamai/contracts';
import { describe, expect, it } from 'vitest';
import { type TaxYear, chargeTax, emptyTaxYear, financialYearOf, taxOn } from './withholding.ts';

const rules = DEFAULT_TAX_RULES;
const year = (rewardsRupees: number, withheldRupees = 0): TaxYear => ({
  fy: '2026-27',
  creditedPaise: { task_reward: rupees(rewardsRupees) },
  withheldPaise: withheldRupees > 0 ? { '393-194C': rupees(withheldRupees) } : {},
});
const charged = (y: TaxYear, paymentRupees: number, hasPan = true) =>
  chargeTax({ rules, hasPan, year: y, paymentPaise: rupees(paymentRupees) }).map((c) => ({ ...c, amount: c.amountPaise / 100 }));

describe('the financial year of an instant is April to March in India time', () => {
  it('turns at midnight IST between 31 March and 1 April', () => {
    expect(financialYearOf('2027-03-31T18:29:59.999Z')).toBe('2026-27');
    expect(financialYearOf('2027-03-31T18:30:00.000Z')).toBe('2027-28');
    expect(financialYearOf('2026-04-01T00:00:00.000Z')).toBe('2026-27');
    expect(financialYearOf('2026-03-31T18:29:59.999Z')).toBe('2025-26');
    expect(financialYearOf('2099-12-31T00:00:00.000Z')).toBe('2099-00');
  });
});

describe('tax charged on a payment (defaults: 1 % with PAN, 20 % without, ₹30,000 a payment, ₹1,00,000 a year)', () => {
  it('charges nothing while the payment and the year stay at or below the thresholds', () => {
    expect(charged(year(100_000), 30_000)).toEqual([]);
    expect(charged(year(20_000), 20_000, false)).toEqual([]);
  });

  it('charges the payment alone when it exceeds the per-payment threshold, the year being below its own', () => {
    expect(charged(year(40_000), 30_001)).toEqual([{ code: '393-194C', amountPaise: rupees(301), amount: 301, basePaise: rupees(30_001), rateBasisPoints: 100 }]);
    // Without a PAN, 20 %.
    expect(charged(year(40_000), 35_000, false)).toMatchObject([{ amount: 7_000, rateBasisPoints: 2000 }]);
    // A payment of more than the rule's credits (other money with it) is taxed on those credits only.
    expect(charged(year(31_000), 50_000)).toMatchObject([{ amount: 310, basePaise: rupees(31_000) }]);
  });

  it('once the year exceeds its threshold, charges the whole year less what was already withheld', () => {
    expect(charged(year(100_001), 5_000)).toMatchObject([{ amount: 1_001, basePaise: rupees(100_001) }]);
    // ₹1,001 withheld at the crossing; ₹20,000 more credited: the year's tax is ₹1,201, ₹200 due.
    expect(charged(year(120_001, 1_001), 5_000)).toMatchObject([{ amount: 200 }]);
    // Without a PAN the whole year at 20 %.
    expect(charged(year(150_000), 40_000, false)).toMatchObject([{ amount: 30_000 }]);
  });

  it('never charges more than the payment; the rest is due on the next one', () => {
    const first = charged(year(150_000), 200, false);
    expect(first).toMatchObject([{ amount: 200 }]);
    expect(charged(year(150_000, 200), 50_000, false)).toMatchObject([{ amount: 29_800 }]);
  });

  it('charges nothing more once the whole year is withheld', () => {
    expect(charged(year(120_000, 1_200), 10_000)).toEqual([]);
  });

  it('rounds each charge up to the whole rupee', () => {
    expect(taxOn(3_000_050, 100)).toBe(30_100);
    expect(taxOn(3_000_000, 100)).toBe(30_000);
    expect(taxOn(1, 100)).toBe(100);
    expect(taxOn(0, 2000)).toBe(0);
  });

  it('a new financial year starts from nothing: last year’s total does not carry', () => {
    expect(chargeTax({ rules, hasPan: true, year: emptyTaxYear('2027-28'), paymentPaise: rupees(20_000) })).toEqual([]);
  });

  it('applies each rule to its own kinds of credit, and several rules share what is left of the payment', () => {
    const twoRules: TaxRule[] = [
      ...rules,
      { code: '194R', label: 'Bonuses', rateWithPanBasisPoints: 1000, rateWithoutPanBasisPoints: 2000, perPaymentThresholdPaise: 0, perYearThresholdPaise: rupees(20_000), appliesTo: ['bonus', 'referral_bonus'] },
    ];
    const y: TaxYear = { fy: '2026-27', creditedPaise: { task_reward: rupees(110_000), bonus: rupees(15_000), referral_bonus: rupees(10_000), adjustment: rupees(99_999) }, withheldPaise: {} };
    expect(chargeTax({ rules: twoRules, hasPan: true, year: y, paymentPaise: rupees(2_000) })).toEqual([
      { code: '393-194C', amountPaise: rupees(1_100), basePaise: rupees(110_000), rateBasisPoints: 100 },
      // ₹2,500 due on ₹25,000 of bonuses; ₹900 is what is left of the payment.
      { code: '194R', amountPaise: rupees(900), basePaise: rupees(25_000), rateBasisPoints: 1000 },
    ]);
    // No rule applies to adjustments: they are never counted.
    expect(chargeTax({ rules, hasPan: true, year: { fy: '2026-27', creditedPaise: { adjustment: rupees(500_000) }, withheldPaise: {} }, paymentPaise: rupees(50_000) })).toEqual([]);
  });

  it('no rules, no tax', () => {
    expect(chargeTax({ rules: [], hasPan: false, year: year(1_000_000), paymentPaise: rupees(50_000) })).toEqual([]);
  });
});
