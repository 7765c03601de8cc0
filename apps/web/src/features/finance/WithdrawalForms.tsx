import { useTranslation } from 'react-i18next';
import { MarkWithdrawalPaidRequest, RejectWithdrawalRequest, ReverseWithdrawalRequest } from '@kamai/contracts';
import type { FinanceWithdrawalBody, WithdrawalDestination } from '@kamai/contracts';
import { FormActions } from '../../components/Button.tsx';
import { TextAreaField, TextField } from '../../components/fields.tsx';
import { serverErrorMessage, serverFieldErrors } from '../../lib/api.ts';
import { formatRupees } from '../../lib/format.ts';
import { useSchemaForm } from '../../lib/form.ts';
import type { useSendOnce } from '../../lib/sendOnce.ts';
import { toast } from '../../lib/toast.ts';
import type { ToastInput } from '../../lib/toast.ts';
import { useWithdrawalDecision } from './financeMutations.ts';

/**
 * The forms of finance's withdrawal dialogs (pay, reject, and return a paid one): each sends once,
 * with the key its dialog made when it opened.
 */

export function PayTo({ payTo }: { payTo: WithdrawalDestination }) {
  const { t } = useTranslation('finance');
  const rows: [string, string][] =
    payTo.kind === 'bank'
      ? [
          [t('payTo.holder'), payTo.holderName],
          [t('payTo.accountNumber'), payTo.accountNumber],
          [t('payTo.ifsc'), payTo.ifsc],
        ]
      : [[t('payTo.upi'), payTo.upiId]];
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

/**
 * The tax withheld from a withdrawal (docs/tax.md), beside the net that finance transfers: the big
 * figure is what the bank must be paid, never the amount asked.
 */
export function TaxWithheld({ withdrawal }: { withdrawal: FinanceWithdrawalBody }) {
  const { t } = useTranslation('finance');
  if (!withdrawal.tax) return null;
  return (
    <p className="text-sm text-slate-700" data-testid="tax-withheld">
      {t('queue.taxWithheld', { amount: formatRupees(withdrawal.amount), tax: formatRupees(withdrawal.tax.amount), code: withdrawal.tax.code })}
    </p>
  );
}

function Summary({ withdrawal }: { withdrawal: FinanceWithdrawalBody }) {
  const { t } = useTranslation('finance');
  return (
    <div className="grid gap-2">
      <p className="text-sm text-slate-700">
        <span className="text-lg font-bold text-slate-900">{formatRupees(withdrawal.net)}</span> {t('queue.toName', { name: withdrawal.user.name })}{' '}
        <span className="whitespace-nowrap">(+91 {withdrawal.user.mobile})</span>
      </p>
      <TaxWithheld withdrawal={withdrawal} />
      <PayTo payTo={withdrawal.payTo} />
    </div>
  );
}

export type SendOnce = ReturnType<typeof useSendOnce>;

/**
 * The submit of the withdrawal dialogs: `send` makes the call with the dialog's key, once; a
 * refusal marks the fields the server names and says why in an 'Action Failed' toast, a success shows
 * `success` and closes.
 */
async function settle(
  once: SendOnce,
  send: (key: string) => Promise<unknown>,
  { form, failed, failure, success, onDone }: {
    form: { setServerErrors: (fields: Record<string, string>) => void };
    /** The toast title of a refusal ('Action Failed'). */
    failed: string;
    failure: string;
    success: ToastInput;
    onDone: () => void;
  },
): Promise<void> {
  let sent;
  try {
    sent = await once.send(send);
  } catch (error) {
    form.setServerErrors(serverFieldErrors(error));
    toast({ variant: 'destructive', title: failed, description: serverErrorMessage(error, failure) });
    return;
  }
  if (!sent) return;
  toast(success);
  onDone();
}

export function PayForm({ withdrawal, once, onDone }: { withdrawal: FinanceWithdrawalBody; once: SendOnce; onDone: () => void }) {
  const { t } = useTranslation('finance');
  const markPaid = useWithdrawalDecision('paid');
  const form = useSchemaForm(MarkWithdrawalPaidRequest, { reference: '', valueDate: '' });
  const onSubmit = form.handleSubmit((body) =>
    settle(once, (key) => markPaid.mutateAsync({ id: withdrawal.id, body, key }), {
      form,
      failed: t('actionFailed'),
      failure: t('pay.failed'),
      success: { title: t('pay.done'), description: t('pay.doneDescription', { amount: formatRupees(withdrawal.net), name: withdrawal.user.name }) },
      onDone,
    }),
  );
  return (
    <form noValidate onSubmit={onSubmit} className="grid gap-4">
      <Summary withdrawal={withdrawal} />
      <TextField
        label={t('pay.reference')}
        autoComplete="off"
        autoCapitalize="characters"
        placeholder={t('pay.referencePlaceholder')}
        {...form.field('reference')}
      />
      {/* The bank's value date, an IST day: the payout's day in the books (docs/month-end.md). */}
      <TextField label={t('pay.valueDate')} hint={t('pay.valueDateHint')} type="date" {...form.field('valueDate')} />
      <FormActions submitLabel={t('pay.confirm')} pendingLabel={t('pay.saving')} pending={once.busy} onCancel={onDone} />
    </form>
  );
}

/** What a reason settles: a pending withdrawal rejected, or a paid one the bank returned. */
export type ReasonDecision = 'reject' | 'reverse';
const REASON_SCHEMAS = { reject: RejectWithdrawalRequest, reverse: ReverseWithdrawalRequest } as const;
const PENDING_LABELS = { reject: 'reject.rejecting', reverse: 'reverse.saving' } as const;

/** The reject and return dialogs' form: a reason the user sees, sent once; the money goes back to the wallet. */
export function ReasonForm({ decision, withdrawal, once, onDone }: { decision: ReasonDecision; withdrawal: FinanceWithdrawalBody; once: SendOnce; onDone: () => void }) {
  const { t } = useTranslation('finance');
  const decide = useWithdrawalDecision(decision);
  const form = useSchemaForm(REASON_SCHEMAS[decision], { reason: '' });
  const onSubmit = form.handleSubmit((body) =>
    settle(once, (key) => decide.mutateAsync({ id: withdrawal.id, body, key }), {
      form,
      failed: t('actionFailed'),
      failure: t(`${decision}.failed`),
      success: { title: t(`${decision}.done`), description: t(`${decision}.doneDescription`, { amount: formatRupees(withdrawal.amount), name: withdrawal.user.name }) },
      onDone,
    }),
  );
  return (
    <form noValidate onSubmit={onSubmit} className="grid gap-4">
      <Summary withdrawal={withdrawal} />
      {decision === 'reverse' && withdrawal.reference && <p className="text-sm text-slate-700">{t('reverse.reference', { reference: withdrawal.reference })}</p>}
      <TextAreaField label={t(`${decision}.reason`)} placeholder={t(`${decision}.reasonPlaceholder`)} hint={t(`${decision}.reasonHint`)} {...form.field('reason')} />
      <FormActions variant="danger" submitLabel={t(`${decision}.confirm`)} pendingLabel={t(PENDING_LABELS[decision])} pending={once.busy} onCancel={onDone} />
    </form>
  );
}
