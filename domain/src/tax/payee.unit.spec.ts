import type { TaxPayeeEvent, TaxYearTotals } from '@kamai/contracts';
import { describe, expect, it } from 'vitest';
import { deciderSpec } from '../testing/spec.ts';
import { carryTaxYears, countCredit, initialTaxYearsState, withdrawalTax } from '../user/tax-years.ts';
import { initialKycState } from '../user/kyc.ts';
import { type TaxPayeeCommand, type TaxPayeeState, carriedFor, taxPayeeDecider, taxYearTotals } from './payee.ts';

const spec = deciderSpec<TaxPayeeState, TaxPayeeEvent, TaxPayeeCommand>(taxPayeeDecider, taxPayeeDecider.decide);
const now = '2026-11-10T06:00:00.000Z';
const YEAR: TaxYearTotals = { fy: '2026-27', credited: [{ kind: 'task_reward', amountPaise: 60_000 }], withheld: [{ code: '393-194C', amountPaise: 0 }] };
const claim = (userId: string, documentId = `doc-${userId}`): TaxPayeeCommand => ({ type: 'ClaimTaxPayee', data: { userId, documentId }, now });
const claimed = (userId: string, documentId = `doc-${userId}`): TaxPayeeEvent => ({ type: 'TaxPayeeClaimed', data: { userId, documentId, claimedAt: now } });
const release = (userId: string, years = [YEAR]): TaxPayeeCommand => ({ type: 'ReleaseTaxPayee', data: { userId, years }, now });
const released = (userId: string, years = [YEAR]): TaxPayeeEvent => ({ type: 'TaxPayeeReleased', data: { userId, years, releasedAt: now } });
const stateOf = (events: TaxPayeeEvent[]) => events.reduce(taxPayeeDecider.evolve, taxPayeeDecider.initialState());

describe('a PAN’s payee (one PAN, one payee)', () => {
  it('is held by the first account to claim it; the same account again changes nothing; another is refused pan_in_use', () => {
    spec.given([]).when(claim('u1')).then([claimed('u1')]);
    spec.given([claimed('u1')]).when(claim('u1', 'doc-later')).then([]);
    spec.given([claimed('u1')]).when(claim('u2')).thenFails('conflict', /another account/);
  });
  it('is given back by its holder only, with the year’s totals, and is then free for the next account', () => {
    spec.given([claimed('u1')]).when(release('u2')).then([]);
    spec.given([]).when(release('u1')).then([]);
    spec.given([claimed('u1')]).when(release('u1')).then([released('u1')]);
    spec.given([claimed('u1'), released('u1')]).when(claim('u2')).then([claimed('u2')]);
  });
  it('carries the released totals to the document that claimed it, and to no other', () => {
    const state = stateOf([claimed('u1'), released('u1'), claimed('u2')]);
    expect(carriedFor(state, 'u2', 'doc-u2')).toEqual([YEAR]);
    expect(carriedFor(state, 'u2', 'doc-other')).toBeUndefined();
    expect(carriedFor(state, 'u1', 'doc-u1')).toBeUndefined();
  });
  it('starts the next account’s year from the carried totals: ₹600 carried and ₹500 earned cross a ₹1,000 year', () => {
    const rules = [{ code: '393-194C', label: 's. 393', rateWithPanBasisPoints: 100, rateWithoutPanBasisPoints: 2000, perPaymentThresholdPaise: 10_000_000, perYearThresholdPaise: 100_000, appliesTo: ['task_reward' as const] }];
    const own = countCredit(initialTaxYearsState(), 'task_reward', 50_000, now);
    // Alone, ₹500 is under the year's threshold: nothing.
    expect(withdrawalTax({ taxYears: own, kyc: initialKycState() }, rules, 50_000, now)).toEqual([]);
    const years = carryTaxYears(own, [YEAR]);
    expect(taxYearTotals(years.byYear.values())).toEqual([{ ...YEAR, credited: [{ kind: 'task_reward', amountPaise: 110_000 }] }]);
    // Without a PAN here (20 %): 20 % of ₹1,100.
    expect(withdrawalTax({ taxYears: years, kyc: initialKycState() }, rules, 50_000, now)).toMatchObject([{ code: '393-194C', amountPaise: 22_000, basePaise: 110_000 }]);
  });
});
