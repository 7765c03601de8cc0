import type { LedgerBalancesBody } from '@kamai/contracts';
import { queryOptions, useQuery } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import { LoadFailed } from '../../components/LoadFailed.tsx';
import { getJson, serverErrorMessage } from '../../lib/api.ts';
import { formatRupees } from '../../lib/format.ts';
import { SectionHeader } from './SectionHeader.tsx';

/** Polled: a payout or funding on another desk moves the float. */
const REFRESH_MS = 60_000;
const balancesQuery = () =>
  queryOptions({ queryKey: ['/api/admin/ledger/balances'], queryFn: getJson<LedgerBalancesBody>(), refetchInterval: REFRESH_MS });

const ROWS = [
  ['payoutFloat', 'below'],
  ['taxPayable', 'above'],
] as const;

/**
 * The finance home's balances that warn (docs/month-end.md#balances-that-warn): the payout float and
 * the tax payable, each with its threshold, and a warning when one is past it.
 */
export function BalancesCard() {
  const { t } = useTranslation('finance');
  const balances = useQuery(balancesQuery());
  const data = balances.data;
  return (
    <section aria-labelledby="balances-heading" className="grid gap-3 rounded-2xl border border-slate-200 bg-white p-4 shadow-sm" data-testid="balances-card">
      <SectionHeader id="balances-heading" title={t('balances.title')} intro={t('balances.intro')} />
      {balances.isError && <LoadFailed message={serverErrorMessage(balances.error, t('common.loadFailed'))} error={balances.error} onRetry={() => void balances.refetch()} />}
      {data && (
        <ul className="grid gap-3 sm:grid-cols-2">
          {ROWS.map(([name, side]) => {
            const balance = data[name];
            const off = balance.threshold === '0.00';
            return (
              <li key={name} className={`grid gap-1 rounded-xl border p-3 ${balance.warning ? 'border-amber-400 bg-amber-50' : 'border-slate-200'}`}>
                <p className="text-sm font-medium text-slate-700">{t(`balances.${name}`)}</p>
                <p className="text-xl font-semibold tabular-nums text-slate-900">{formatRupees(balance.amount)}</p>
                <p className="text-sm text-slate-600">
                  {off ? t('balances.off') : t(`balances.${side}`, { threshold: formatRupees(balance.threshold) })}
                </p>
                {balance.warning && (
                  <p role="status" className="text-sm font-semibold text-amber-900">
                    {t(`balances.warning.${name}`, { amount: formatRupees(balance.amount), threshold: formatRupees(balance.threshold) })}
                  </p>
                )}
              </li>
            );
          })}
        </ul>
      )}
    </section>
  );
}
