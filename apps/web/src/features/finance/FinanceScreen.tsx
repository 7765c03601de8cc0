import { useTranslation } from 'react-i18next';
import { PendingAdjustments, pendingAdjustmentsQuery } from './PendingAdjustments.tsx';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import { AdjustmentRequest, MarkWithdrawalPaidRequest, RejectWithdrawalRequest, formatPaise } from '@kamai/contracts';
import type { FinanceWithdrawalBody, WithdrawalDestination } from '@kamai/contracts';
import { Button, FormActions } from '../../components/Button.tsx';
import { Dialog } from '../../components/Dialog.tsx';
import { LoadFailed } from '../../components/LoadFailed.tsx';
import { NotAllowedScreen } from '../../components/NotAllowedScreen.tsx';
import { MobileField, TextAreaField, TextField } from '../../components/fields.tsx';
import { errorStatus, serverErrorMessage, serverFieldErrors } from '../../lib/api.ts';
import { formatDateTime, formatRelativeTime, formatRupees } from '../../lib/format.ts';
import { useSchemaForm } from '../../lib/form.ts';
import { currentUserQuery, financeWithdrawalsQuery } from '../../lib/queries.ts';
import { canHandleMoney } from '../../lib/roles.ts';
import { toast } from '../../lib/toast.ts';
import type { ToastInput } from '../../lib/toast.ts';
import { usePageTitle } from '../../lib/usePageTitle.ts';
import { FinanceTabs } from './FinanceTabs.tsx';
import { useAdjustmentMutation, useMarkPaidMutation, useRejectWithdrawalMutation } from './financeMutations.ts';

/** Finance staff (finance or admin role): pay or reject pending withdrawals, and adjust a wallet. */
export function FinanceScreen() {
  usePageTitle('Finance');
  const { data: user } = useQuery(currentUserQuery());
  if (!canHandleMoney(user)) return <NotAllowedScreen what="the finance screen" />;

  return (
    // Finance works at a desk: wider than the phone column on large screens, the same on a phone.
    <div className="grid gap-8 lg:relative lg:left-1/2 lg:w-[min(72rem,calc(100vw-3rem))] lg:-translate-x-1/2">
      <header className="grid gap-1">
        <h1 className="text-2xl font-bold tracking-tight">Finance</h1>
        <p className="text-sm text-slate-600">Pay or reject withdrawal requests, oldest first, and adjust wallets.</p>
      </header>
      <FinanceTabs
        queue={
          <>
            <PendingWithdrawals />
            {user && <PendingAdjustments user={user} />}
            <AdjustmentForm />
          </>
        }
      />
    </div>
  );
}

type Action = { kind: 'pay' | 'reject'; withdrawal: FinanceWithdrawalBody } | null;

function PendingWithdrawals() {
  const queue = useQuery(financeWithdrawalsQuery('pending'));
  const [action, setAction] = useState<Action>(null);
  const close = (open: boolean) => {
    if (!open) setAction(null);
  };
  // Oldest first: the request that has waited longest is paid first.
  const pending = [...(queue.data ?? [])].sort((a, b) => a.requestedAt.localeCompare(b.requestedAt));

  return (
    <section aria-labelledby="pending-heading" className="grid gap-3">
      <div className="flex items-baseline justify-between gap-3">
        <h2 id="pending-heading" className="text-lg font-semibold">
          Pending withdrawals
        </h2>
        {queue.isSuccess && <span className="text-sm text-slate-500">{pending.length} waiting</span>}
      </div>

      {queue.isPending ? (
        <div role="status" aria-label="Loading withdrawals" className="grid gap-3">
          {[0, 1].map((row) => (
            <div key={row} className="h-40 animate-pulse rounded-2xl bg-slate-200/70" />
          ))}
        </div>
      ) : queue.isError ? (
        <LoadFailed
          message={
            errorStatus(queue.error) === 403
              ? 'Your account may not process withdrawals.'
              : serverErrorMessage(queue.error, "We couldn't load the withdrawal queue.")
          }
          onRetry={() => void queue.refetch()}
        />
      ) : pending.length === 0 ? (
        <div className="rounded-2xl border border-dashed border-slate-300 bg-white p-6 text-center">
          <p className="font-semibold text-slate-800">No pending withdrawals</p>
          <p className="mt-1 text-sm text-slate-500">New requests show here, the oldest first.</p>
        </div>
      ) : (
        <ul aria-label="Pending withdrawals" className="grid gap-3">
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

      <Dialog open={action?.kind === 'pay'} onOpenChange={close} title="Mark as Paid" description="Send the money first, then record its transfer reference.">
        {action?.kind === 'pay' && <PayForm withdrawal={action.withdrawal} onDone={() => setAction(null)} />}
      </Dialog>
      <Dialog open={action?.kind === 'reject'} onOpenChange={close} title="Reject Withdrawal" description="The amount goes back to the user's wallet.">
        {action?.kind === 'reject' && <RejectForm withdrawal={action.withdrawal} onDone={() => setAction(null)} />}
      </Dialog>
    </section>
  );
}

function WithdrawalCard({ withdrawal, onPay, onReject }: { withdrawal: FinanceWithdrawalBody; onPay: () => void; onReject: () => void }) {
  return (
    <li className="grid gap-3 rounded-2xl border border-slate-200 bg-white p-4 shadow-sm" data-testid="pending-withdrawal">
      <div className="flex items-start justify-between gap-3">
        <div className="min-w-0">
          <p className="truncate font-semibold text-slate-900">{withdrawal.user.name}</p>
          <p className="text-sm text-slate-600">+91 {withdrawal.user.mobile}</p>
        </div>
        <p className="shrink-0 text-xl font-bold tabular-nums text-slate-900">{formatRupees(withdrawal.amount)}</p>
      </div>
      <PayTo payTo={withdrawal.payTo} />
      <p className="text-xs text-slate-500">
        Requested <time dateTime={withdrawal.requestedAt}>{formatDateTime(withdrawal.requestedAt)}</time> ·{' '}
        {formatRelativeTime(withdrawal.requestedAt)}
      </p>
      <div className="grid grid-cols-2 gap-2">
        <Button variant="danger" onClick={onReject} className="h-11 text-sm">
          Reject
        </Button>
        <Button onClick={onPay} className="h-11 text-sm">
          Mark Paid
        </Button>
      </div>
    </li>
  );
}

/** The full destination: staff need every digit to make the transfer. */
function PayTo({ payTo }: { payTo: WithdrawalDestination }) {
  const rows: [string, string][] =
    payTo.kind === 'bank'
      ? [
          ['Account holder', payTo.holderName],
          ['Account number', payTo.accountNumber],
          ['IFSC', payTo.ifsc],
        ]
      : [['UPI ID', payTo.upiId]];
  return (
    <dl className="grid grid-cols-[auto_1fr] gap-x-3 gap-y-1 rounded-xl bg-slate-50 p-3 text-sm">
      {rows.map(([label, value]) => (
        <div key={label} className="contents">
          <dt className="text-slate-500">{label}</dt>
          <dd className="font-mono break-all text-slate-900">{value}</dd>
        </div>
      ))}
    </dl>
  );
}

function Summary({ withdrawal }: { withdrawal: FinanceWithdrawalBody }) {
  return (
    <div className="grid gap-2">
      <p className="text-sm text-slate-700">
        <span className="text-lg font-bold text-slate-900">{formatRupees(withdrawal.amount)}</span> to {withdrawal.user.name}{' '}
        <span className="whitespace-nowrap">(+91 {withdrawal.user.mobile})</span>
      </p>
      <PayTo payTo={withdrawal.payTo} />
    </div>
  );
}

/**
 * The submit of the pay and reject dialogs: `send` makes the call; a refusal marks the fields the
 * server names and says why in an 'Action Failed' toast, a success shows `success` and closes.
 */
async function settle(
  send: () => Promise<unknown>,
  { form, failure, success, onDone }: {
    form: { setServerErrors: (fields: Record<string, string>) => void };
    failure: string;
    success: ToastInput;
    onDone: () => void;
  },
): Promise<void> {
  try {
    await send();
  } catch (error) {
    form.setServerErrors(serverFieldErrors(error));
    toast({ variant: 'destructive', title: 'Action Failed', description: serverErrorMessage(error, failure) });
    return;
  }
  toast(success);
  onDone();
}

function PayForm({ withdrawal, onDone }: { withdrawal: FinanceWithdrawalBody; onDone: () => void }) {
  const markPaid = useMarkPaidMutation();
  const form = useSchemaForm(MarkWithdrawalPaidRequest, { reference: '' });
  const onSubmit = form.handleSubmit(({ reference }) =>
    settle(() => markPaid.mutateAsync({ id: withdrawal.id, reference }), {
      form,
      failure: 'Failed to mark the withdrawal as paid',
      success: { title: 'Withdrawal Paid', description: `${formatRupees(withdrawal.amount)} to ${withdrawal.user.name} is marked as paid` },
      onDone,
    }),
  );
  return (
    <form noValidate onSubmit={onSubmit} className="grid gap-4">
      <Summary withdrawal={withdrawal} />
      <TextField
        label="Transfer reference"
        autoComplete="off"
        autoCapitalize="characters"
        placeholder="UTR or UPI reference"
        {...form.field('reference')}
      />
      <FormActions submitLabel="Confirm Paid" pendingLabel="Saving..." pending={markPaid.isPending} onCancel={onDone} />
    </form>
  );
}

function RejectForm({ withdrawal, onDone }: { withdrawal: FinanceWithdrawalBody; onDone: () => void }) {
  const reject = useRejectWithdrawalMutation();
  const form = useSchemaForm(RejectWithdrawalRequest, { reason: '' });
  const onSubmit = form.handleSubmit(({ reason }) =>
    settle(() => reject.mutateAsync({ id: withdrawal.id, reason }), {
      form,
      failure: 'Failed to reject the withdrawal',
      success: { title: 'Withdrawal Rejected', description: `${formatRupees(withdrawal.amount)} is back in ${withdrawal.user.name}'s wallet` },
      onDone,
    }),
  );
  return (
    <form noValidate onSubmit={onSubmit} className="grid gap-4">
      <Summary withdrawal={withdrawal} />
      <TextAreaField
        label="Reason"
        placeholder="e.g. Account details do not match the name"
        hint="The user sees this reason."
        {...form.field('reason')}
      />
      <FormActions variant="danger" submitLabel="Reject Request" pendingLabel="Rejecting..." pending={reject.isPending} onCancel={onDone} />
    </form>
  );
}

function AdjustmentForm() {
  // A new key after each adjustment gives the next one an empty form.
  const [round, setRound] = useState(0);
  return <AdjustmentFields key={round} onApplied={() => setRound((n) => n + 1)} />;
}

function AdjustmentFields({ onApplied }: { onApplied: () => void }) {
  const { t } = useTranslation('security');
  const queryClient = useQueryClient();
  const adjust = useAdjustmentMutation();
  const form = useSchemaForm(AdjustmentRequest, { mobile: '', amount: '', direction: 'credit', reason: '' });
  const onSubmit = form.handleSubmit(async ({ mobile, amount, direction, reason }) => {
    let answer;
    try {
      answer = await adjust.mutateAsync({ mobile, amount: formatPaise(amount), direction, reason });
    } catch (error) {
      form.setServerErrors(serverFieldErrors(error));
      toast({ variant: 'destructive', title: 'Adjustment Failed', description: serverErrorMessage(error, 'Failed to adjust the wallet') });
      return;
    }
    if (answer && 'adjustment' in answer) {
      // Above the approval threshold: recorded, waiting for a second finance member.
      toast({ title: t('adjustment.pendingTitle'), description: t('adjustment.pendingDescription', { amount: formatRupees(answer.adjustment.amount) }) });
      void queryClient.invalidateQueries({ queryKey: pendingAdjustmentsQuery().queryKey });
      onApplied();
      return;
    }
    const verb = direction === 'credit' ? 'Credited' : 'Debited';
    const balance = answer?.balance ? ` New balance ${formatRupees(answer.balance)}.` : '';
    toast({ title: 'Adjustment Applied', description: `${verb} ${formatRupees(formatPaise(amount))} for +91 ${mobile}.${balance}` });
    onApplied();
  });

  return (
    <section aria-labelledby="adjust-heading" className="grid gap-3">
      <div className="grid gap-1">
        <h2 id="adjust-heading" className="text-lg font-semibold">
          Adjust a wallet
        </h2>
        <p className="text-sm text-slate-600">A manual credit or debit, recorded in the user's ledger with your reason.</p>
      </div>
      <form noValidate onSubmit={onSubmit} className="grid gap-4 rounded-2xl border border-slate-200 bg-white p-5 shadow-sm">
        <MobileField label="User's mobile number" {...form.field('mobile')} />
        <TextField label="Amount (₹)" type="number" inputMode="decimal" min={0.01} step="0.01" {...form.field('amount')} />
        <fieldset className="grid gap-1.5">
          <legend className="mb-1.5 text-sm font-medium text-slate-700">Direction</legend>
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
                {direction === 'credit' ? 'Credit (add)' : 'Debit (take)'}
              </label>
            ))}
          </div>
        </fieldset>
        <TextField
          label="Reason"
          autoComplete="off"
          placeholder="e.g. Bonus for referral campaign"
          {...form.field('reason')}
        />
        <Button type="submit" disabled={adjust.isPending}>
          {adjust.isPending ? 'Applying...' : 'Apply Adjustment'}
        </Button>
      </form>
    </section>
  );
}
