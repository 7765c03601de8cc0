import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { FundingRequest, formatPaise } from '@kamai/contracts';
import type { FundingBody } from '@kamai/contracts';
import { Button } from '../../components/Button.tsx';
import { TextField } from '../../components/fields.tsx';
import { refusalInLanguage } from '../../i18n/messages.ts';
import { apiRequest, getJson, readJson } from '../../lib/api.ts';
import { formatDate, formatRupees } from '../../lib/format.ts';
import { useSchemaForm } from '../../lib/form.ts';
import { currentUserQuery } from '../../lib/queries.ts';
import { idempotencyHeader } from '../../lib/sendOnce.ts';
import { toast } from '../../lib/toast.ts';
import { MoneyConfirmDialog } from './MoneyConfirmDialog.tsx';
import { inputClass } from './styles.ts';
import { SectionHeader } from './SectionHeader.tsx';
import { useConfirmedSend } from './useConfirmedSend.ts';

// The query key is the URL the default read fetches.
const PENDING_FUNDING_KEY = ['/api/admin/ledger/funding?status=pending'] as const;
const pendingFundingQuery = () => ({ queryKey: PENDING_FUNDING_KEY, queryFn: getJson<FundingBody[]>() });

interface FundingInput {
  /** Decimal rupees, e.g. "500000.00". */
  amount: string;
  reference: string;
  date: string;
}

/** Funding changes the payout account's balance and the reconciliation's figures. */
function useRefreshFunding() {
  const queryClient = useQueryClient();
  return () =>
    Promise.all([
      queryClient.invalidateQueries({ queryKey: PENDING_FUNDING_KEY }),
      queryClient.invalidateQueries({ queryKey: ['/api/admin/ledger/reconciliation'] }),
    ]);
}

/**
 * Funding of the payout account: the company's money arriving in the bank account payouts leave
 * from. Booked at once up to the adjustment threshold; above it a second finance member approves.
 */
export function Funding() {
  const { t } = useTranslation('finance');
  // A new form after each recorded funding.
  const [round, setRound] = useState(0);
  return (
    <section aria-labelledby="funding-heading" className="grid gap-3">
      <SectionHeader id="funding-heading" title={t('funding.heading')} intro={t('funding.intro')} />
      <FundingForm key={round} onRecorded={() => setRound((n) => n + 1)} />
      <PendingFundings />
    </section>
  );
}

function FundingForm({ onRecorded }: { onRecorded: () => void }) {
  const { t } = useTranslation('finance');
  const refresh = useRefreshFunding();
  const form = useSchemaForm(FundingRequest, { amount: '', reference: '', date: '' });
  const confirmed = useConfirmedSend<FundingInput>(t('funding.failed'));
  const record = useMutation({
    mutationFn: async ({ key, ...input }: FundingInput & { key: string }) => {
      const response = await apiRequest('POST', '/api/admin/ledger/funding', input, idempotencyHeader(key));
      return { waiting: response.status === 202, funding: await readJson<FundingBody>(response) };
    },
    onSettled: refresh,
  });
  const onSubmit = form.handleSubmit(({ amount, reference, date }) => confirmed.open({ amount: formatPaise(amount), reference, date }));

  const onConfirm = async () => {
    const sent = await confirmed.confirm((input, key) => record.mutateAsync({ ...input, key }), form.setServerErrors);
    if (!sent) return;
    const amount = formatRupees(sent.item.amount);
    toast(
      sent.value.waiting
        ? { title: t('funding.waitingTitle'), description: t('funding.waiting', { amount }) }
        : { title: t('funding.bookedTitle'), description: t('funding.booked', { amount }) },
    );
    onRecorded();
  };
  const confirming = confirmed.item;

  const date = form.field('date');
  return (
    <>
      <form noValidate onSubmit={onSubmit} className="grid gap-4 rounded-2xl border border-slate-200 bg-white p-5 shadow-sm sm:grid-cols-3 sm:items-start">
        <TextField label={t('funding.amount')} type="number" inputMode="decimal" min={0.01} step="0.01" {...form.field('amount')} />
        <TextField label={t('funding.reference')} autoComplete="off" {...form.field('reference')} />
        <label className="grid gap-1.5 text-sm font-medium text-slate-700">
          {t('funding.date')}
          <input
            type="date"
            className={inputClass}
            value={date.value}
            aria-invalid={date.error ? true : undefined}
            aria-describedby={date.error ? 'funding-date-error' : undefined}
            onChange={(e) => date.onValueChange(e.target.value)}
          />
          {date.error && (
            <span id="funding-date-error" className="text-sm text-red-700">
              {refusalInLanguage(date.error)}
            </span>
          )}
        </label>
        <Button type="submit" className="sm:col-span-3 sm:w-auto sm:justify-self-start">
          {t('funding.record')}
        </Button>
      </form>
      <MoneyConfirmDialog
        {...confirmed.dialog}
        title={t('funding.confirmTitle')}
        description={confirming ? t('funding.confirm', { amount: formatRupees(confirming.amount), date: formatDate(confirming.date), reference: confirming.reference }) : ''}
        confirmLabel={confirming ? t('funding.confirmButton', { amount: formatRupees(confirming.amount) }) : ''}
        pendingLabel={t('funding.recording')}
        onConfirm={() => void onConfirm()}
      />
    </>
  );
}

/** Fundings above the threshold, waiting for a finance member other than the one who recorded them. */
function PendingFundings() {
  const { t } = useTranslation('finance');
  const { data: user } = useQuery(currentUserQuery());
  const pending = useQuery(pendingFundingQuery());
  const refresh = useRefreshFunding();
  const confirmed = useConfirmedSend<FundingBody>(t('funding.failed'));
  const approve = useMutation({
    mutationFn: async ({ id, key }: { id: string; key: string }) =>
      apiRequest('POST', `/api/admin/ledger/funding/${encodeURIComponent(id)}/approve`, undefined, idempotencyHeader(key)),
    onSettled: refresh,
  });
  const onConfirm = async () => {
    const sent = await confirmed.confirm((funding, key) => approve.mutateAsync({ id: funding.id, key }));
    if (sent) toast({ title: t('funding.bookedTitle'), description: t('funding.booked', { amount: formatRupees(sent.item.amount) }) });
  };
  const approving = confirmed.item;
  const waiting = pending.data ?? [];
  return (
    <>
      {/* The dialog stays mounted when the list empties: a refusal (approved meanwhile elsewhere) is shown in it. */}
      {waiting.length > 0 && (
        <ul aria-label={t('funding.pendingHeading')} className="divide-y divide-slate-100 overflow-hidden rounded-2xl border border-slate-200 bg-white shadow-sm">
          {waiting.map((funding) => (
            <li key={funding.id} className="flex flex-wrap items-center justify-between gap-3 p-4 text-sm" data-testid="pending-funding">
              <span>{t('funding.pendingRow', { amount: formatRupees(funding.amount), date: formatDate(funding.date), reference: funding.reference })}</span>
              {funding.recordedBy === user?.id ? (
                <span className="text-xs text-slate-600">{t('funding.yours')}</span>
              ) : (
                <Button onClick={() => confirmed.open(funding)} className="h-11 text-sm sm:w-auto">
                  {t('funding.approve')}
                </Button>
              )}
            </li>
          ))}
        </ul>
      )}
      <MoneyConfirmDialog
        {...confirmed.dialog}
        title={t('funding.approveTitle')}
        description={approving ? t('funding.confirm', { amount: formatRupees(approving.amount), date: formatDate(approving.date), reference: approving.reference }) : ''}
        confirmLabel={approving ? t('funding.approveButton', { amount: formatRupees(approving.amount) }) : ''}
        pendingLabel={t('funding.approving')}
        onConfirm={() => void onConfirm()}
      />
    </>
  );
}
