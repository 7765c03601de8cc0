import type { MyTaxYearBody } from '@kamai/contracts';
import { queryOptions, useQuery } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import { formatRupees } from '../../lib/format.ts';
import { getJson } from '../../lib/http.ts';

export const taxSummaryQuery = () => queryOptions({ queryKey: ['/api/tax-summary'], queryFn: getJson<MyTaxYearBody[]>() });

/**
 * Profile's "Tax deducted at source": per financial year, what the person withdrew, the tax withheld
 * from it and what their bank was sent (docs/tax.md). Shown only once tax was deducted in some year.
 */
export function TaxSummarySection() {
  const { t } = useTranslation('profile');
  const { data } = useQuery(taxSummaryQuery());
  const years = (data ?? []).filter((year) => year.taxDeducted !== '0.00');
  if (years.length === 0) return null;
  return (
    <section aria-labelledby="tax-summary-heading" className="grid gap-3 rounded-2xl border border-slate-200 bg-white p-4 shadow-sm" data-testid="tax-summary">
      <h2 id="tax-summary-heading" className="text-sm font-semibold text-slate-800">
        {t('taxSummary.heading')}
      </h2>
      <p className="text-sm text-slate-600">{t('taxSummary.explain')}</p>
      {years.map((year) => (
        <div key={year.fy} className="grid gap-1 rounded-xl bg-slate-50 p-3">
          <h3 className="text-sm font-semibold text-slate-800">{t('taxSummary.year', { fy: year.fy })}</h3>
          <dl className="grid grid-cols-[1fr_auto] gap-x-3 gap-y-0.5 text-sm text-slate-700">
            <dt>{t('taxSummary.paid')}</dt>
            <dd className="text-right tabular-nums">{formatRupees(year.paid)}</dd>
            <dt>{t('taxSummary.tax')}</dt>
            <dd className="text-right tabular-nums">{formatRupees(year.taxDeducted)}</dd>
            <dt className="font-semibold">{t('taxSummary.net')}</dt>
            <dd className="text-right font-semibold tabular-nums">{formatRupees(year.net)}</dd>
          </dl>
        </div>
      ))}
    </section>
  );
}
