import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import { Link } from '@tanstack/react-router';
import type { LedgerPeriodRowBody } from '@kamai/contracts';
import { Button } from '../../components/Button.tsx';
import { LoadFailed } from '../../components/LoadFailed.tsx';
import { apiRequest, getJson, serverErrorMessage } from '../../lib/api.ts';
import { formatDateTime, formatMonth } from '../../lib/format.ts';
import { currentUserQuery } from '../../lib/queries.ts';
import { idempotencyHeader } from '../../lib/sendOnce.ts';
import { toast } from '../../lib/toast.ts';
import { MoneyConfirmDialog } from './MoneyConfirmDialog.tsx';
import { linkButton } from './styles.ts';
import { SectionHeader } from './SectionHeader.tsx';
import { useConfirmedSend } from './useConfirmedSend.ts';

/** The month's trial balance as CSV, by the days entries take effect (what a close locks): docs/month-end.md. */
function trialBalanceHref(month: string): string {
  const [year, m] = month.split('-').map(Number) as [number, number];
  // Day 0 of the next month is this month's last day.
  const last = new Date(Date.UTC(year, m, 0)).getUTCDate();
  return `/api/admin/ledger/trial-balance/period?from=${month}-01&to=${month}-${String(last).padStart(2, '0')}&by=effective&format=csv`;
}

const periodsQuery = { queryKey: ['/api/admin/ledger/periods'], queryFn: getJson<LedgerPeriodRowBody[]>() };

type Step = { month: string; action: 'close' | 'approve' };

/**
 * Month close (docs/month-end.md): this month and the twelve before it, each open, waiting for a
 * second finance member, or closed. A past open month can be asked to close; a waiting one is
 * approved by anyone in finance but its asker. The server's refusals (the month not over, the same
 * member) are shown in the dialog in the reader's language.
 */
export function MonthCloseTab() {
  const { t } = useTranslation('finance');
  const { data: user } = useQuery(currentUserQuery());
  const periods = useQuery(periodsQuery);
  const queryClient = useQueryClient();
  const confirmed = useConfirmedSend<Step>(t('actionFailed'));
  const send = useMutation({
    mutationFn: async ({ month, action, key }: Step & { key: string }) =>
      apiRequest('POST', `/api/admin/ledger/periods/${encodeURIComponent(month)}/close${action === 'approve' ? '/approve' : ''}`, undefined, idempotencyHeader(key)),
    onSettled: () => queryClient.invalidateQueries({ queryKey: periodsQuery.queryKey }),
  });
  const onConfirm = async () => {
    const sent = await confirmed.confirm((step, key) => send.mutateAsync({ ...step, key }));
    if (sent) toast({ title: t(sent.item.action === 'close' ? 'months.askedTitle' : 'months.closedTitle', { month: formatMonth(sent.item.month) }) });
  };
  const step = confirmed.item;
  const current = periods.data?.[0]?.month;

  return (
    <section aria-labelledby="months-heading" className="grid gap-4">
      <SectionHeader id="months-heading" title={t('months.heading')} intro={t('months.intro')}>
        <p className="text-sm">
          <Link to="/admin/audit" className="inline-flex min-h-11 w-fit items-center font-medium text-emerald-700 underline">
            {t('months.auditLink')}
          </Link>
        </p>
      </SectionHeader>
      {periods.isPending ? (
        <p role="status">{t('common.loading')}</p>
      ) : periods.isError ? (
        <LoadFailed message={serverErrorMessage(periods.error, t('common.loadFailed'))} error={periods.error} onRetry={() => void periods.refetch()} />
      ) : (
        <ul aria-label={t('months.heading')} className="divide-y divide-slate-100 overflow-hidden rounded-2xl border border-slate-200 bg-white shadow-sm">
          {periods.data.map((period) => (
            <li key={period.month} data-testid="ledger-period" className="flex flex-wrap items-center justify-between gap-3 p-4 text-sm">
              <div className="grid min-w-0 gap-1">
                <p className="font-semibold text-slate-900">{formatMonth(period.month)}</p>
                <p className="text-slate-700">{describe(t, period, period.month === current)}</p>
              </div>
              <a className={linkButton} href={trialBalanceHref(period.month)} download aria-label={t('months.trialBalanceOf', { month: formatMonth(period.month) })}>
                {t('months.trialBalance')}
              </a>
              {period.status === 'open' && period.month !== current && (
                <Button variant="secondary" onClick={() => confirmed.open({ month: period.month, action: 'close' })} className="h-11 text-sm sm:w-auto">
                  {t('months.close', { month: formatMonth(period.month) })}
                </Button>
              )}
              {period.status === 'pending' &&
                (period.requestedBy === user?.id ? (
                  <span className="text-xs text-slate-600">{t('months.yours')}</span>
                ) : (
                  <Button onClick={() => confirmed.open({ month: period.month, action: 'approve' })} className="h-11 text-sm sm:w-auto">
                    {t('months.approve', { month: formatMonth(period.month) })}
                  </Button>
                ))}
            </li>
          ))}
        </ul>
      )}
      <MoneyConfirmDialog
        {...confirmed.dialog}
        title={step ? t(step.action === 'close' ? 'months.closeTitle' : 'months.approveTitle', { month: formatMonth(step.month) }) : ''}
        description={step ? t(step.action === 'close' ? 'months.closeText' : 'months.approveText', { month: formatMonth(step.month) }) : ''}
        confirmLabel={step ? t(step.action === 'close' ? 'months.closeButton' : 'months.approveButton') : ''}
        pendingLabel={t('months.sending')}
        onConfirm={() => void onConfirm()}
      />
    </section>
  );
}

function describe(t: (key: string, options?: Record<string, string>) => string, period: LedgerPeriodRowBody, current: boolean): string {
  if (period.status === 'closed') return t('months.closed', { by: period.requestedByName ?? '', approver: period.closedByName ?? '', when: formatDateTime(period.closedAt ?? '') });
  if (period.status === 'pending') return t('months.pending', { by: period.requestedByName ?? '', when: formatDateTime(period.requestedAt ?? '') });
  return t(current ? 'months.current' : 'months.open');
}
