import { useTranslation } from 'react-i18next';
import { PendingAdjustments, pendingAdjustmentsQuery } from './PendingAdjustments.tsx';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import { AdjustmentRequest, formatPaise } from '@kamai/contracts';
import type { FinanceWithdrawalBody } from '@kamai/contracts';
import { Button } from '../../components/Button.tsx';
import { Dialog } from '../../components/Dialog.tsx';
import { LoadFailed } from '../../components/LoadFailed.tsx';
import { StaffPage, StaffPageHeader } from '../../components/StaffPage.tsx';
import { MobileField, TextField } from '../../components/fields.tsx';
import { errorStatus, serverErrorMessage, serverFieldErrors } from '../../lib/api.ts';
import { formatDateTime, formatRelativeTime, formatRupees } from '../../lib/format.ts';
import { useSchemaForm } from '../../lib/form.ts';
import { currentUserQuery, financeWithdrawalsQuery } from '../../lib/queries.ts';
import { useSendOnce } from '../../lib/sendOnce.ts';
import { toast } from '../../lib/toast.ts';
import { FinanceTabs } from './FinanceTabs.tsx';
import { useAdjustmentMutation } from './financeMutations.ts';
import { PayForm, PayTo, ReasonForm, TaxWithheld } from './WithdrawalForms.tsx';
import { AdjustmentConfirmDialog } from './AdjustmentConfirmDialog.tsx';
import type { AdjustmentToConfirm } from './AdjustmentConfirmDialog.tsx';
import { ledgerPersonQuery } from './ledgerPerson.ts';
import type { LedgerPerson } from './ledgerPerson.ts';
import { SectionHeader } from './SectionHeader.tsx';
import { BalancesCard } from './BalancesCard.tsx';

/** Finance staff (finance or admin role): pay or reject pending withdrawals, and adjust a wallet. */
export function FinanceScreen() {
  const { t } = useTranslation('finance');
  return (
    <StaffPage role="finance" what={t('what')}>
      <FinanceDesk />
    </StaffPage>
  );
}

function FinanceDesk() {
  const { t } = useTranslation('finance');
  const { data: user } = useQuery(currentUserQuery());
  return (
    // Finance works at a desk: wider than the phone column on large screens, the same on a phone.
    <div className="grid gap-8 lg:relative lg:left-1/2 lg:w-[min(72rem,calc(100vw-3rem))] lg:-translate-x-1/2">
      <StaffPageHeader title={t('title')} intro={t('intro')} />
      <BalancesCard />
      <FinanceTabs
        queue={
          // At a desk the queues and the adjustment form sit side by side; on a phone they stack.
          <div className="grid gap-8 lg:grid-cols-[minmax(0,3fr)_minmax(0,2fr)] lg:items-start">
            <div className="grid gap-8">
              <PendingWithdrawals />
              {user && <PendingAdjustments user={user} />}
            </div>
            <AdjustmentForm />
          </div>
        }
      />
    </div>
  );
}

type Action = { kind: 'pay' | 'reject'; withdrawal: FinanceWithdrawalBody } | null;

function PendingWithdrawals() {
  const { t } = useTranslation('finance');
  const queue = useQuery(financeWithdrawalsQuery('pending'));
  const [action, setAction] = useState<Action>(null);
  // One key per opening of the pay or reject dialog.
  const once = useSendOnce(action !== null);
  const close = (open: boolean) => {
    if (!open) setAction(null);
  };
  // Oldest first: the request that has waited longest is paid first.
  const pending = [...(queue.data ?? [])].sort((a, b) => a.requestedAt.localeCompare(b.requestedAt));

  return (
    <section aria-labelledby="pending-heading" className="grid gap-3">
      <div className="flex items-baseline justify-between gap-3">
        <h2 id="pending-heading" className="text-lg font-semibold">
          {t('queue.heading')}
        </h2>
        {queue.isSuccess && <span className="text-sm text-slate-500">{t('queue.waiting', { number: pending.length })}</span>}
      </div>

      {queue.isPending ? (
        <div role="status" aria-label={t('queue.loading')} className="grid gap-3">
          {[0, 1].map((row) => (
            <div key={row} className="h-40 animate-pulse rounded-2xl bg-slate-200/70" />
          ))}
        </div>
      ) : queue.isError ? (
        <LoadFailed
          message={
            errorStatus(queue.error) === 403
              ? t('queue.forbidden')
              : serverErrorMessage(queue.error, t('queue.loadFailed'))
          }
          error={queue.error} onRetry={() => void queue.refetch()}
        />
      ) : pending.length === 0 ? (
        <div className="rounded-2xl border border-dashed border-slate-300 bg-white p-6 text-center">
          <p className="font-semibold text-slate-800">{t('queue.empty')}</p>
          <p className="mt-1 text-sm text-slate-500">{t('queue.emptyHint')}</p>
        </div>
      ) : (
        <ul aria-label={t('queue.heading')} className="grid gap-3">
          {pending.map((withdrawal) => (
            <WithdrawalCard
              key={withdrawal.id}
              withdrawal={withdrawal}
              onPay={() => setAction({ kind: 'pay', withdrawal })}
              onReject={() => setAction({ kind: 'reject', withdrawal })}
            />
          ))}
        </ul>
      )}

      <Dialog open={action?.kind === 'pay'} onOpenChange={close} busy={once.busy} title={t('pay.title')} description={t('pay.description')}>
        {action?.kind === 'pay' && <PayForm withdrawal={action.withdrawal} once={once} onDone={() => setAction(null)} />}
      </Dialog>
      <Dialog open={action?.kind === 'reject'} onOpenChange={close} busy={once.busy} title={t('reject.title')} description={t('reject.description')}>
        {action?.kind === 'reject' && <ReasonForm decision="reject" withdrawal={action.withdrawal} once={once} onDone={() => setAction(null)} />}
      </Dialog>
    </section>
  );
}

function WithdrawalCard({ withdrawal, onPay, onReject }: { withdrawal: FinanceWithdrawalBody; onPay: () => void; onReject: () => void }) {
  const { t } = useTranslation('finance');
  return (
    <li className="grid gap-3 rounded-2xl border border-slate-200 bg-white p-4 shadow-sm" data-testid="pending-withdrawal">
      <div className="flex items-start justify-between gap-3">
        <div className="min-w-0">
          <p className="truncate font-semibold text-slate-900">{withdrawal.user.name}</p>
          <p className="text-sm text-slate-600">+91 {withdrawal.user.mobile}</p>
        </div>
        <p className="shrink-0 text-xl font-bold tabular-nums text-slate-900">{formatRupees(withdrawal.net)}</p>
      </div>
      <TaxWithheld withdrawal={withdrawal} />
      <PayTo payTo={withdrawal.payTo} />
      <p className="text-xs text-slate-500">
        {t('queue.requested')} <time dateTime={withdrawal.requestedAt}>{formatDateTime(withdrawal.requestedAt)}</time> ·{' '}
        {formatRelativeTime(withdrawal.requestedAt)}
      </p>
      <div className="grid grid-cols-2 gap-2">
        <Button variant="danger" onClick={onReject} className="h-11 text-sm">
          {t('queue.reject')}
        </Button>
        <Button onClick={onPay} className="h-11 text-sm">
          {t('queue.markPaid')}
        </Button>
      </div>
    </li>
  );
}

/** The full destination: staff need every digit to make the transfer. */
function AdjustmentForm() {
  // A new key after each adjustment gives the next one an empty form.
  const [round, setRound] = useState(0);
  return <AdjustmentFields key={round} onApplied={() => setRound((n) => n + 1)} />;
}

function AdjustmentFields({ onApplied }: { onApplied: () => void }) {
  const { t } = useTranslation('finance');
  const { t: tSecurity } = useTranslation('security');
  const queryClient = useQueryClient();
  const adjust = useAdjustmentMutation();
  const form = useSchemaForm(AdjustmentRequest, { mobile: '', amount: '', direction: 'credit', reason: '', effectiveDate: '', corrects: '' });
  // The valid form waits here, with whose wallet it is, until finance confirms it.
  const [confirming, setConfirming] = useState<{ adjustment: AdjustmentToConfirm; person: LedgerPerson } | null>(null);
  const [checking, setChecking] = useState(false);
  // One key per opening of the confirmation.
  const once = useSendOnce(confirming !== null);

  const failed = (error: unknown) => {
    form.setServerErrors(serverFieldErrors(error));
    toast({ variant: 'destructive', title: t('adjust.failedTitle'), description: serverErrorMessage(error, t('adjust.failed')) });
  };

  // Submitting checks the number and opens the confirmation; nothing is sent before it is confirmed.
  // The button stays enabled meanwhile (a disabled button loses focus, which the dialog returns to).
  const onSubmit = form.handleSubmit(async ({ mobile, amount, direction, reason, effectiveDate, corrects }) => {
    if (checking) return;
    setChecking(true);
    try {
      const person = await queryClient.fetchQuery(ledgerPersonQuery(mobile));
      // The day it takes effect and what it corrects travel only when given (absent: today, nothing).
      const accounting = { ...(effectiveDate !== undefined && { effectiveDate }), ...(corrects !== undefined && { corrects }) };
      setConfirming({ adjustment: { mobile, amount: formatPaise(amount), direction, reason, ...accounting }, person });
    } catch (error) {
      failed(error);
    } finally {
      setChecking(false);
    }
  });

  const onConfirm = async () => {
    if (!confirming) return;
    const { mobile, amount, direction } = confirming.adjustment;
    let sent;
    try {
      sent = await once.send((key) => adjust.mutateAsync({ ...confirming.adjustment, key }));
    } catch (error) {
      setConfirming(null);
      failed(error);
      return;
    }
    if (!sent) return;
    const answer = sent.value;
    if (answer && 'adjustment' in answer) {
      // Above the approval threshold: recorded, waiting for a second finance member.
      toast({ title: tSecurity('adjustment.pendingTitle'), description: tSecurity('adjustment.pendingDescription', { amount: formatRupees(answer.adjustment.amount) }) });
      void queryClient.invalidateQueries({ queryKey: pendingAdjustmentsQuery().queryKey });
      onApplied();
      return;
    }
    const done = t(direction === 'credit' ? 'adjust.credited' : 'adjust.debited', { amount: formatRupees(amount), mobile });
    const balance = answer?.balance ? t('adjust.newBalance', { balance: formatRupees(answer.balance) }) : '';
    toast({ title: t('adjust.applied'), description: balance ? `${done} ${balance}` : done });
    onApplied();
  };

  return (
    <section aria-labelledby="adjust-heading" className="grid gap-3">
      <SectionHeader id="adjust-heading" title={t('adjust.heading')} intro={t('adjust.intro')} />
      <form noValidate onSubmit={onSubmit} className="grid gap-4 rounded-2xl border border-slate-200 bg-white p-5 shadow-sm">
        <MobileField label={t('adjust.mobile')} {...form.field('mobile')} />
        <TextField label={t('adjust.amount')} type="number" inputMode="decimal" min={0.01} step="0.01" {...form.field('amount')} />
        <fieldset className="grid gap-1.5">
          <legend className="mb-1.5 text-sm font-medium text-slate-700">{t('adjust.direction')}</legend>
          <div className="grid grid-cols-2 gap-2">
            {(['credit', 'debit'] as const).map((direction) => (
              <label
                key={direction}
                className={`flex cursor-pointer items-center gap-2 rounded-xl border p-3 text-sm font-semibold transition ${
                  form.values.direction === direction
                    ? direction === 'credit'
                      ? 'border-emerald-600 bg-emerald-50 text-emerald-800 ring-1 ring-emerald-600'
                      : 'border-red-500 bg-red-50 text-red-700 ring-1 ring-red-500'
                    : 'border-slate-300 bg-white text-slate-700'
                }`}
              >
                <input
                  type="radio"
                  name="direction"
                  value={direction}
                  checked={form.values.direction === direction}
                  onChange={() => form.setValue('direction', direction)}
                  className="size-4 accent-emerald-600"
                />
                {direction === 'credit' ? t('adjust.credit') : t('adjust.debit')}
              </label>
            ))}
          </div>
        </fieldset>
        <TextField
          label={t('adjust.reason')}
          autoComplete="off"
          placeholder={t('adjust.reasonPlaceholder')}
          {...form.field('reason')}
        />
        {/* An IST day (docs/month-end.md): a correction of a closed month is dated in an open one. */}
        <TextField label={t('adjust.effectiveDate')} hint={t('adjust.effectiveDateHint')} type="date" {...form.field('effectiveDate')} />
        <TextField label={t('adjust.corrects')} hint={t('adjust.correctsHint')} autoComplete="off" {...form.field('corrects')} />
        <Button type="submit" aria-busy={checking}>
          {checking ? t('confirm.checking') : t('adjust.apply')}
        </Button>
      </form>
      <AdjustmentConfirmDialog
        adjustment={confirming?.adjustment ?? null}
        person={confirming?.person ?? null}
        title={t('confirm.adjustTitle')}
        confirmLabel={
          confirming ? t(confirming.adjustment.direction === 'credit' ? 'confirm.creditButton' : 'confirm.debitButton', { amount: formatRupees(confirming.adjustment.amount) }) : ''
        }
        pendingLabel={t('adjust.applying')}
        pending={once.busy}
        onConfirm={() => void onConfirm()}
        onClose={() => setConfirming(null)}
      />
    </section>
  );
}
