import * as v from 'valibot';
import { RupeeAmount, formatPaise } from './money.ts';
import { noControlCharacters } from './text.ts';
import { refusal } from './refusal.ts';

/**
 * Tax withheld at source (docs/tax.md). Finance configures the rules as a control setting
 * (`taxRules` on PUT /api/admin/settings); the withdrawal decider applies them through the one
 * domain function that both quotes and charges (domain/src/tax).
 */

/** The kinds of credit a rule may apply to (`bonus` is the KYC bonus; `referral_bonus` an invitation's). */
export const TAX_CREDIT_KINDS = ['task_reward', 'bonus', 'referral_bonus', 'adjustment'] as const;
export type TaxCreditKind = (typeof TAX_CREDIT_KINDS)[number];

/** At most this many rules. */
export const TAX_RULES_MAX = 10;

/**
 * A rule as the events and the domain hold it: rates in basis points (1 % = 100), thresholds in
 * paise. A payment above `perPaymentThresholdPaise`, or a financial year's total above
 * `perYearThresholdPaise`, is taxed (docs/tax.md says on what exactly).
 */
export interface TaxRule {
  code: string;
  label: string;
  rateWithPanBasisPoints: number;
  rateWithoutPanBasisPoints: number;
  perPaymentThresholdPaise: number;
  perYearThresholdPaise: number;
  appliesTo: TaxCreditKind[];
}

/**
 * The defaults until finance sets rules: the Income-tax Act 2025's section 393 payment to a
 * contractor (the old section 194C): 1 % with a PAN, 20 % without, when one payment exceeds ₹30,000
 * or a financial year's payments exceed ₹1,00,000, on task rewards. To be checked with the
 * accountant before relying on them (docs/tax.md).
 */
export const DEFAULT_TAX_RULES: readonly TaxRule[] = [
  {
    code: '393-194C',
    label: 'Income-tax Act 2025 s. 393 (old s. 194C): payments to contractors',
    rateWithPanBasisPoints: 100,
    rateWithoutPanBasisPoints: 2000,
    perPaymentThresholdPaise: 3_000_000,
    perYearThresholdPaise: 10_000_000,
    appliesTo: ['task_reward'],
  },
];

/** The refusals of `taxRules` (catalogue group `tax.*`). */
export const TAX_MESSAGES = {
  rules: `Give from 0 to ${TAX_RULES_MAX} tax rules, each with a different code`,
  code: 'A tax code is 1 to 20 letters, digits, spaces or . / ( ) -',
  label: 'A tax rule’s label is 1 to 120 characters',
  rate: 'Enter a rate in percent from 0 to 100 with at most two decimals, e.g. 1.00',
  threshold: 'Enter a threshold in rupees with at most two decimals',
  appliesTo: 'Choose what the rule applies to: task_reward, bonus, referral_bonus or adjustment, each once',
  overlap: 'Each kind of credit may be taxed by one rule only',
} as const;

/** A percent with at most two decimals, "1.00" → 100 basis points; null when it is not one in 0..100. */
export function parsePercent(text: unknown): number | null {
  if (typeof text !== 'string') return null;
  const match = /^\s*(\d{1,3})(?:\.(\d{1,2}))?\s*$/.exec(text);
  if (!match) return null;
  const basisPoints = Number(match[1]) * 100 + Number((match[2] ?? '').padEnd(2, '0'));
  return basisPoints <= 10_000 ? basisPoints : null;
}

/** Basis points as the wire's percent string: 100 → "1.00". */
export function formatPercent(basisPoints: number): string {
  return `${Math.floor(basisPoints / 100)}.${String(basisPoints % 100).padStart(2, '0')}`;
}

const Percent = v.pipe(
  v.string(refusal('tax.rate')),
  v.rawTransform(({ dataset, addIssue, NEVER }) => {
    const basisPoints = parsePercent(dataset.value);
    if (basisPoints !== null) return basisPoints;
    addIssue({ message: refusal('tax.rate') });
    return NEVER;
  }),
);

const Threshold = RupeeAmount({ format: refusal('tax.threshold') });

/** One rule as PUT /api/admin/settings takes it (and GET /api/settings answers it). */
export const TaxRuleInput = v.object(
  {
    code: v.pipe(v.string(refusal('tax.code')), v.trim(), v.regex(/^[A-Za-z0-9][A-Za-z0-9 ./()-]{0,19}$/, refusal('tax.code'))),
    label: v.pipe(v.string(refusal('tax.label')), v.trim(), v.minLength(1, refusal('tax.label')), v.maxLength(120, refusal('tax.label')), noControlCharacters()),
    rateWithPan: Percent,
    rateWithoutPan: Percent,
    perPaymentThreshold: Threshold,
    perYearThreshold: Threshold,
    appliesTo: v.pipe(
      v.array(v.picklist(TAX_CREDIT_KINDS, refusal('tax.appliesTo')), refusal('tax.appliesTo')),
      v.minLength(1, refusal('tax.appliesTo')),
      v.check((kinds) => new Set(kinds).size === kinds.length, refusal('tax.appliesTo')),
    ),
  },
  refusal('tax.rules'),
);

/** `taxRules`: the whole list (it replaces the one in force); codes differ, and no kind is taxed twice. */
export const TaxRulesInput = v.pipe(
  v.array(TaxRuleInput, refusal('tax.rules')),
  v.maxLength(TAX_RULES_MAX, refusal('tax.rules')),
  v.check((rules) => new Set(rules.map((rule) => rule.code)).size === rules.length, refusal('tax.rules')),
  v.check((rules) => {
    const kinds = rules.flatMap((rule) => rule.appliesTo);
    return new Set(kinds).size === kinds.length;
  }, refusal('tax.overlap')),
  v.transform((rules): TaxRule[] =>
    rules.map((rule) => ({
      code: rule.code,
      label: rule.label,
      rateWithPanBasisPoints: rule.rateWithPan,
      rateWithoutPanBasisPoints: rule.rateWithoutPan,
      perPaymentThresholdPaise: rule.perPaymentThreshold,
      perYearThresholdPaise: rule.perYearThreshold,
      appliesTo: [...rule.appliesTo],
    })),
  ),
);

/** A rule on the wire: rates as percent strings, thresholds as rupee strings. */
export const TaxRuleBody = v.object({
  code: v.string(),
  label: v.string(),
  rateWithPan: v.string(),
  rateWithoutPan: v.string(),
  perPaymentThreshold: v.string(),
  perYearThreshold: v.string(),
  appliesTo: v.array(v.picklist(TAX_CREDIT_KINDS)),
});
export type TaxRuleBody = v.InferOutput<typeof TaxRuleBody>;

export function taxRuleBody(rule: TaxRule): TaxRuleBody {
  return {
    code: rule.code,
    label: rule.label,
    rateWithPan: formatPercent(rule.rateWithPanBasisPoints),
    rateWithoutPan: formatPercent(rule.rateWithoutPanBasisPoints),
    perPaymentThreshold: formatPaise(rule.perPaymentThresholdPaise),
    perYearThreshold: formatPaise(rule.perYearThresholdPaise),
    appliesTo: [...rule.appliesTo],
  };
}

/** Two lists of rules say the same (order included: the list is shown as it was set). */
export function sameTaxRules(a: readonly TaxRule[], b: readonly TaxRule[]): boolean {
  return JSON.stringify(a.map(taxRuleBody)) === JSON.stringify(b.map(taxRuleBody));
}

/** The rules in events (SettingsUpdated, SettingsChangeRequested). */
export const TaxRuleEvent = v.object({
  code: v.string(),
  label: v.string(),
  rateWithPanBasisPoints: v.number(),
  rateWithoutPanBasisPoints: v.number(),
  perPaymentThresholdPaise: v.number(),
  perYearThresholdPaise: v.number(),
  appliesTo: v.array(v.picklist(TAX_CREDIT_KINDS)),
});
