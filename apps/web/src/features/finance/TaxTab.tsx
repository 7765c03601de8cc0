import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { type TaxDepositBody, TaxDepositRequest, type TaxQuarterSummaryBody, formatPaise, istDayOf, taxQuarterOfDay } from '@kamai/contracts';
import { Button } from '../../components/Button.tsx';
import { TextField } from '../../components/fields.tsx';
import { LoadFailed } from '../../components/LoadFailed.tsx';
import { apiRequest, getJson, serverErrorMessage } from '../../lib/api.ts';
import { formatDate, formatRupees } from '../../lib/format.ts';
import { useSchemaForm } from '../../lib/form.ts';
import { idempotencyHeader } from '../../lib/sendOnce.ts';
import { toast } from '../../lib/toast.ts';
import { MoneyConfirmDialog } from './MoneyConfirmDialog.tsx';
import { inputClass, linkButton } from './styles.ts';
import { useFinanceSearch } from './useFinanceSearch.ts';
import { SectionHeader } from './SectionHeader.tsx';
import { useConfirmedSend } from './useConfirmedSend.ts';

/** How many quarters the picker offers: this one and the seven before it (two financial years). */
const QUARTERS_SHOWN = 8;

/** The quarter `steps` before `quarter` (`2026-27-Q1` one back is `2025-26-Q4`). */
function quarterBefore(quarter: string, steps: number): string {
  const start = Number(quarter.slice(0, 4));
  const index = start * 4 + Number(quarter.slice(-1)) - 1 - steps;
  const year = Math.floor(index / 4);
  return `${year}-${String((year + 1) % 100).padStart(2, '0')}-Q${(index % 4) + 1}`;
}

const summaryKey = (quarter: string) => [`/api/admin/ledger/tax-deposits?quarter=${encodeURIComponent(quarter)}`];

interface DepositInput {
  bsrCode: string;
  serial: string;
  date: string;
  /** Decimal rupees, e.g. "1200.00". */
  amount: string;
}

/**
 * Tax withheld at source, per quarter (docs/tax.md): what was deducted, what was deposited to the
 * government (challans) and what is still due; a challan is recorded against the quarter picked, and
 * the quarterly return's rows download as CSV. The quarter is in the address (`?tab=tax&quarter=`).
 */
export function TaxTab() {
  const { t } = useTranslation('finance');
  const [search, setSearch] = useFinanceSearch();
  const current = taxQuarterOfDay(istDayOf(new Date()));
  const quarters = Array.from({ length: QUARTERS_SHOWN }, (_, i) => quarterBefore(current, i));
  const quarter = search.quarter && quarters.includes(search.quarter) ? search.quarter : current;
  const summary = useQuery({ queryKey: summaryKey(quarter), queryFn: getJson<TaxQuarterSummaryBody>() });
  // A new form after each recorded challan.
  const [round, setRound] = useState(0);

  return (
    <section aria-labelledby="tax-heading" className="grid gap-4">
      <SectionHeader id="tax-heading" title={t('tax.heading')} intro={t('tax.intro')} />
      <div className="flex flex-wrap items-end gap-3">
        <label className="grid gap-1.5 text-sm font-medium text-slate-700">
          {t('tax.quarter')}
          <select className={inputClass} value={quarter} onChange={(e) => setSearch({ quarter: e.target.value === current ? undefined : e.target.value })}>
            {quarters.map((q) => (
              <option key={q} value={q}>
                {q}
              </option>
            ))}
          </select>
        </label>
        <a className={linkButton} href={`/api/admin/ledger/tax/${encodeURIComponent(quarter)}?format=csv`} download aria-label={t('tax.returnCsvOf', { quarter })}>
          {t('tax.returnCsv')}
        </a>
      </div>
      {summary.isPending ? (
        <p role="status">{t('common.loading')}</p>
      ) : summary.isError ? (
        <LoadFailed message={serverErrorMessage(summary.error, t('common.loadFailed'))} error={summary.error} onRetry={() => void summary.refetch()} />
      ) : (
        <QuarterSummary summary={summary.data} />
      )}
      <ChallanForm key={`${quarter}:${round}`} quarter={quarter} onRecorded={() => setRound((n) => n + 1)} />
    </section>
  );
}

function QuarterSummary({ summary }: { summary: TaxQuarterSummaryBody }) {
  const { t } = useTranslation('finance');
  return (
    <>
      <dl className="grid grid-cols-3 gap-3 rounded-2xl border border-slate-200 bg-white p-4 text-sm shadow-sm" data-testid="tax-summary">
        {(['deducted', 'deposited', 'due'] as const).map((figure) => (
          <div key={figure} className="grid min-w-0 gap-1">
            <dt className="text-slate-600">{t(`tax.${figure}`)}</dt>
            <dd className="break-words font-semibold tabular-nums text-slate-900">{formatRupees(summary[figure])}</dd>
          </div>
        ))}
      </dl>
      {summary.deposits.length === 0 ? (
        <p className="text-sm text-slate-600">{t('tax.noDeposits')}</p>
      ) : (
        <ul aria-label={t('tax.depositsHeading')} className="divide-y divide-slate-100 overflow-hidden rounded-2xl border border-slate-200 bg-white shadow-sm">
          {summary.deposits.map((deposit: TaxDepositBody) => (
            <li key={deposit.id} data-testid="tax-deposit" className="grid gap-1 p-4 text-sm">
              <p className="font-semibold tabular-nums text-slate-900">{formatRupees(deposit.amount)}</p>
              <p className="text-slate-700">{t('tax.depositRow', { date: formatDate(deposit.date), bsrCode: deposit.bsrCode, serial: deposit.serial })}</p>
            </li>
          ))}
        </ul>
      )}
    </>
  );
}

function ChallanForm({ quarter, onRecorded }: { quarter: string; onRecorded: () => void }) {
  const { t } = useTranslation('finance');
  const queryClient = useQueryClient();
  const form = useSchemaForm(TaxDepositRequest, { quarter, bsrCode: '', serial: '', date: '', amount: '' });
  const confirmed = useConfirmedSend<DepositInput>(t('actionFailed'));
  const record = useMutation({
    mutationFn: async ({ key, ...input }: DepositInput & { key: string }) =>
      apiRequest('POST', '/api/admin/ledger/tax-deposits', { quarter, ...input }, idempotencyHeader(key)),
    onSettled: () =>
      Promise.all([
        queryClient.invalidateQueries({ queryKey: summaryKey(quarter) }),
        queryClient.invalidateQueries({ queryKey: ['/api/admin/ledger/reconciliation'] }),
      ]),
  });
  const onSubmit = form.handleSubmit(({ bsrCode, serial, date, amount }) => confirmed.open({ bsrCode, serial, date, amount: formatPaise(amount) }));
  const onConfirm = async () => {
    const sent = await confirmed.confirm((input, key) => record.mutateAsync({ ...input, key }), form.setServerErrors);
    if (!sent) return;
    toast({ title: t('tax.recordedTitle'), description: t('tax.recorded', { amount: formatRupees(sent.item.amount), quarter }) });
    onRecorded();
  };
  const confirming = confirmed.item;

  return (
    <>
      <form noValidate onSubmit={onSubmit} aria-labelledby="tax-challan-heading" className="grid gap-4 rounded-2xl border border-slate-200 bg-white p-5 shadow-sm sm:grid-cols-2 sm:items-start">
        <h3 id="tax-challan-heading" className="font-semibold sm:col-span-2">
          {t('tax.challanHeading', { quarter })}
        </h3>
        <TextField label={t('tax.bsrCode')} inputMode="numeric" autoComplete="off" maxLength={7} {...form.field('bsrCode')} />
        <TextField label={t('tax.serial')} inputMode="numeric" autoComplete="off" maxLength={5} {...form.field('serial')} />
        <TextField label={t('tax.date')} type="date" {...form.field('date')} />
        <TextField label={t('tax.amount')} type="number" inputMode="decimal" min={0.01} step="0.01" {...form.field('amount')} />
        <Button type="submit" className="sm:col-span-2 sm:w-auto sm:justify-self-start">
          {t('tax.record')}
        </Button>
      </form>
      <MoneyConfirmDialog
        {...confirmed.dialog}
        title={t('tax.confirmTitle', { quarter })}
        description={confirming ? t('tax.confirm', { amount: formatRupees(confirming.amount), date: formatDate(confirming.date), bsrCode: confirming.bsrCode, serial: confirming.serial }) : ''}
        confirmLabel={confirming ? t('tax.confirmButton', { amount: formatRupees(confirming.amount) }) : ''}
        pendingLabel={t('tax.recording')}
        onConfirm={() => void onConfirm()}
      />
    </>
  );
}
