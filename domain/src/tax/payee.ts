import { type TaxCreditKind, type TaxPayeeEvent, type TaxYearTotals, TAX_CREDIT_KINDS, msg } from '@kamai/contracts';
import type { Decider } from '../decider.ts';
import { DomainError, assertNever } from '../errors.ts';
import type { TaxYear } from './withholding.ts';

/**
 * `tax-payee-<keyed hash of a PAN>`: one payee for tax, whichever account proves the PAN
 * (docs/tax.md). One live account holds it at a time, so a PAN's year total is one account's and the
 * thresholds cannot be split across accounts; an erased holder gives it back with the year's totals
 * paid under the PAN, and the next holder's tax starts from them.
 */
export interface TaxPayeeState {
  /** The account holding the PAN now; null when free (never claimed, or its holder was erased). */
  holder: string | null;
  /** The PAN document whose approval claimed it for the holder ('' when free). */
  documentId: string;
  /** The totals the last holder left with (its own and what it carried): what the next one starts from. */
  carried: TaxYearTotals[];
}

export type TaxPayeeCommand =
  | { type: 'ClaimTaxPayee'; data: { userId: string; documentId: string }; now: string }
  | { type: 'ReleaseTaxPayee'; data: { userId: string; years: TaxYearTotals[] }; now: string };

/** Claimed for `userId`: the same account again changes nothing; another while it is held is refused. */
function decideClaim(command: Extract<TaxPayeeCommand, { type: 'ClaimTaxPayee' }>, state: TaxPayeeState): TaxPayeeEvent[] {
  const { userId, documentId } = command.data;
  if (state.holder === userId) return [];
  if (state.holder !== null) throw new DomainError('conflict', msg('kyc.panInUse'), undefined, 'pan_in_use');
  return [{ type: 'TaxPayeeClaimed', data: { userId, documentId, claimedAt: command.now } }];
}

/** Given back by its holder only (an erasure, or an approval refused after the claim); anyone else changes nothing. */
function decideRelease(command: Extract<TaxPayeeCommand, { type: 'ReleaseTaxPayee' }>, state: TaxPayeeState): TaxPayeeEvent[] {
  const { userId, years } = command.data;
  if (state.holder !== userId) return [];
  return [{ type: 'TaxPayeeReleased', data: { userId, years, releasedAt: command.now } }];
}

export const taxPayeeDecider: Decider<TaxPayeeState, TaxPayeeCommand, TaxPayeeEvent> = {
  initialState: () => ({ holder: null, documentId: '', carried: [] }),
  evolve: (state, event) => {
    switch (event.type) {
      case 'TaxPayeeClaimed':
        return { ...state, holder: event.data.userId, documentId: event.data.documentId };
      case 'TaxPayeeReleased':
        return { holder: null, documentId: '', carried: event.data.years };
      default:
        return assertNever(event);
    }
  },
  decide: (command, state) => {
    switch (command.type) {
      case 'ClaimTaxPayee':
        return decideClaim(command, state);
      case 'ReleaseTaxPayee':
        return decideRelease(command, state);
      default:
        return assertNever(command);
    }
  },
};

/**
 * What an approval of `documentId` (of `userId`) starts from: the carried totals when the payee was
 * claimed for this very document (by this workflow, or by one a crash left behind), else nothing
 * (the account held the PAN already). The approval is appended once, so they are carried once.
 */
export function carriedFor(state: TaxPayeeState, userId: string, documentId: string): TaxYearTotals[] | undefined {
  return state.holder === userId && state.documentId === documentId ? state.carried : undefined;
}

/** A person's kept years as the payee stream records them (sums only). */
export function taxYearTotals(years: Iterable<TaxYear>): TaxYearTotals[] {
  return [...years].map((year) => ({
    fy: year.fy,
    credited: TAX_CREDIT_KINDS.flatMap((kind) => (year.creditedPaise[kind] === undefined ? [] : [{ kind, amountPaise: year.creditedPaise[kind] }])),
    withheld: Object.entries(year.withheldPaise).map(([code, amountPaise]) => ({ code, amountPaise })),
  }));
}

const isTaxKind = (kind: string): kind is TaxCreditKind => (TAX_CREDIT_KINDS as readonly string[]).includes(kind);

/** `year` with `totals` added to it (a new holder starting from what was paid under the PAN before it). */
export function addTaxYearTotals(year: TaxYear, totals: TaxYearTotals): TaxYear {
  const creditedPaise = { ...year.creditedPaise };
  for (const { kind, amountPaise } of totals.credited) if (isTaxKind(kind)) creditedPaise[kind] = (creditedPaise[kind] ?? 0) + amountPaise;
  const withheldPaise: Record<string, number> = { ...year.withheldPaise };
  for (const { code, amountPaise } of totals.withheld) withheldPaise[code] = (withheldPaise[code] ?? 0) + amountPaise;
  return { ...year, creditedPaise, withheldPaise };
}
