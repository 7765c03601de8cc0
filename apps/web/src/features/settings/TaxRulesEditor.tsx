import { useTranslation } from 'react-i18next';
import { TAX_CREDIT_KINDS, TAX_RULES_MAX, type TaxCreditKind, type TaxRuleBody } from '@kamai/contracts';
import { Button } from '../../components/Button.tsx';
import { TextField } from '../../components/fields.tsx';
import { LockIcon } from '../../components/icons.tsx';

const TEXT_FIELDS = [
  ['code', 'text'],
  ['label', 'text'],
  ['rateWithPan', 'percent'],
  ['rateWithoutPan', 'percent'],
  ['perPaymentThreshold', 'money'],
  ['perYearThreshold', 'money'],
] as const satisfies ReadonlyArray<readonly [Exclude<keyof TaxRuleBody, 'appliesTo'>, 'text' | 'percent' | 'money']>;

const emptyRule = (): TaxRuleBody => ({ code: '', label: '', rateWithPan: '', rateWithoutPan: '', perPaymentThreshold: '', perYearThreshold: '', appliesTo: [] });

/**
 * The `taxRules` control setting (docs/tax.md) as a list editor: each rule's code, label, rates
 * (percent), thresholds (rupees) and the kinds of credit it applies to. The list is sent whole with
 * the settings form; like every control setting it waits for a second admin. The server checks the
 * values and its messages appear under the fields (`taxRules.<n>.<field>`).
 */
export function TaxRulesEditor({ rules, onChange, errors }: { rules: TaxRuleBody[]; onChange: (rules: TaxRuleBody[]) => void; errors: Record<string, string> }) {
  const { t } = useTranslation('settings');
  const edit = (index: number, change: Partial<TaxRuleBody>) => onChange(rules.map((rule, i) => (i === index ? { ...rule, ...change } : rule)));
  const flip = (index: number, kind: TaxCreditKind) => {
    const kinds = rules[index]?.appliesTo ?? [];
    // Kept in the contracts' order, so an unchanged choice compares equal to the one in force.
    edit(index, { appliesTo: TAX_CREDIT_KINDS.filter((k) => (k === kind ? !kinds.includes(k) : kinds.includes(k))) });
  };
  const listError = errors.taxRules;
  return (
    <fieldset className="grid gap-3">
      <legend className="text-lg font-semibold">{t('tax.title')}</legend>
      <p className="text-sm text-slate-600">{t('tax.intro', { max: TAX_RULES_MAX })}</p>
      <span className="inline-flex items-center gap-1 text-xs font-semibold text-amber-900">
        <LockIcon aria-hidden="true" className="size-3.5" />
        {t('controlBadge')}
      </span>
      {rules.length === 0 && <p className="rounded-xl border border-dashed border-slate-300 p-3 text-sm text-slate-600">{t('tax.none')}</p>}
      <ol className="grid gap-3">
        {rules.map((rule, index) => {
          const number = index + 1;
          return (
            <li key={index} data-testid="tax-rule" className="grid gap-3 rounded-xl border border-slate-200 p-3">
              <div className="grid gap-3 sm:grid-cols-2">
                {TEXT_FIELDS.map(([name, kind]) => (
                  <TextField
                    key={name}
                    label={t(`tax.fields.${name}`, { number })}
                    value={rule[name]}
                    onValueChange={(value) => edit(index, { [name]: value })}
                    error={errors[`taxRules.${index}.${name}`]}
                    prefix={kind === 'money' ? '₹' : undefined}
                    inputMode={kind === 'text' ? undefined : 'decimal'}
                    autoComplete="off"
                  />
                ))}
              </div>
              <fieldset className="grid gap-1">
                <legend className="mb-1 text-sm font-medium text-slate-700">{t('tax.appliesTo', { number })}</legend>
                {TAX_CREDIT_KINDS.map((kind) => (
                  <label key={kind} className="flex min-h-11 cursor-pointer items-center gap-3 text-sm text-slate-800">
                    <input type="checkbox" className="size-5 shrink-0 accent-emerald-700" checked={rule.appliesTo.includes(kind)} onChange={() => flip(index, kind)} />
                    <span>{t(`tax.kinds.${kind}`)}</span>
                  </label>
                ))}
                {errors[`taxRules.${index}.appliesTo`] && (
                  <p role="alert" className="text-sm font-medium text-red-700">
                    {errors[`taxRules.${index}.appliesTo`]}
                  </p>
                )}
              </fieldset>
              <Button type="button" variant="secondary" onClick={() => onChange(rules.filter((_, i) => i !== index))}>
                {t('tax.remove', { number, code: rule.code })}
              </Button>
            </li>
          );
        })}
      </ol>
      {listError && (
        <p role="alert" className="text-sm font-medium text-red-700">
          {listError}
        </p>
      )}
      {rules.length < TAX_RULES_MAX && (
        <Button type="button" variant="secondary" onClick={() => onChange([...rules, emptyRule()])}>
          {t('tax.add')}
        </Button>
      )}
    </fieldset>
  );
}
