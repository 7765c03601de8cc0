import { useQuery, useQueryClient } from '@tanstack/react-query';
import { useEffect, useId, useState } from 'react';
import type { FormEvent, ReactNode } from 'react';
import * as v from 'valibot';
import { BankAccount, UpiId } from '@kamai/contracts';
import type { SavedDestination } from '@kamai/contracts';
import { Button, FormActions } from '../../components/Button.tsx';
import { Dialog } from '../../components/Dialog.tsx';
import { TextField } from '../../components/fields.tsx';
import { HistoryIcon } from '../../components/icons.tsx';
import { errorStatus, parseApiError, serverFieldErrors } from '../../lib/api.ts';
import { useTranslation } from 'react-i18next';
import { formatRupees } from '../../lib/format.ts';
import { useSchemaForm } from '../../lib/form.ts';
import { savedDestinationQuery, withdrawalQuoteQuery } from '../../lib/queries.ts';
import { useSendOnce } from '../../lib/sendOnce.ts';
import { useSessionExpired } from '../../lib/session.ts';
import { toast } from '../../lib/toast.ts';
import { type IfscData, ifscBranchQuery, loadIfscData, lookupIfsc } from './ifsc.ts';
import { useWithdrawMutation } from './walletMutations.ts';
import type { WithdrawalInput } from './walletMutations.ts';
import { MIN_WITHDRAWAL_RUPEES, checkWithdrawalAmount, withdrawalFailureToast } from './withdrawal.ts';

interface WithdrawDialogProps {
  open: boolean;
  onOpenChange: (open: boolean) => void;
  /** The wallet balance, a wire amount such as "125.00". */
  balance: string;
}

/** Wallet: the 'Withdraw to Bank' dialog. */
export function WithdrawDialog({ open, onOpenChange, balance }: WithdrawDialogProps) {
  const { t } = useTranslation('wallet');
  const once = useSendOnce(open);
  // The title names where the money goes, as the form's choice changes.
  const [kind, setKind] = useState<'bank' | 'upi'>('bank');
  return (
    <Dialog
      open={open}
      onOpenChange={onOpenChange}
      busy={once.busy}
      title={kind === 'upi' ? t('withdraw.titleUpi') : t('withdraw.title')}
      description={
        <>
          {t('withdraw.available')} <strong className="font-semibold text-slate-900">{formatRupees(balance)}</strong>
        </>
      }
    >
      {/* Inside the dialog's content, so every opening starts from a fresh form. */}
      <WithdrawForm balance={balance} once={once} onDone={() => onOpenChange(false)} onKindChange={setKind} />
    </Dialog>
  );
}

type DestinationChoice = 'saved' | 'bank' | 'upi';

const UpiForm = v.object({ upiId: UpiId });

function WithdrawForm({
  balance,
  once,
  onDone,
  onKindChange,
}: {
  balance: string;
  once: ReturnType<typeof useSendOnce>;
  onDone: () => void;
  onKindChange: (kind: 'bank' | 'upi') => void;
}) {
  const withdraw = useWithdrawMutation();
  const queryClient = useQueryClient();
  const { t } = useTranslation('wallet');
  const sessionExpired = useSessionExpired();
  const { data: savedBody } = useQuery(savedDestinationQuery());
  const saved = savedBody?.destination ?? null;

  const [amount, setAmount] = useState(String(MIN_WITHDRAWAL_RUPEES));
  const [choice, setChoice] = useState<DestinationChoice | null>(null);
  // Until the user picks, the saved destination is offered first when there is one.
  const destination: DestinationChoice = choice ?? (saved ? 'saved' : 'bank');
  const kind = destination === 'saved' ? (saved?.kind ?? 'bank') : destination;
  useEffect(() => onKindChange(kind), [kind, onKindChange]);
  const bankForm = useSchemaForm(BankAccount, { accountNumber: '', ifsc: '', holderName: '' });
  const upiForm = useSchemaForm(UpiForm, { upiId: '' });
  // Safer bank details: the account number typed twice (no pasting the second), the IFSC checked
  // offline against the bank list, and a last look at where the money goes before it is sent.
  const [confirmAccount, setConfirmAccount] = useState('');
  const [confirmError, setConfirmError] = useState<string | undefined>();
  const [ifscData, setIfscData] = useState<IfscData | null>(null);
  const [review, setReview] = useState<{ input: WithdrawalInput; amount: string; to: string } | null>(null);
  useEffect(() => {
    if (destination === 'bank' && !ifscData) void loadIfscData().then(setIfscData);
  }, [destination, ifscData]);
  const ifscTyped = bankForm.values.ifsc.trim();
  const ifscLookup = ifscData && ifscTyped.length === 11 ? lookupIfsc(ifscTyped, ifscData) : null;
  // The branch is asked of the server only for a code the bank list already knows.
  const branchQuery = useQuery({ ...ifscBranchQuery(ifscTyped.toUpperCase()), enabled: destination === 'bank' && ifscLookup?.valid === true });
  const branch = ifscLookup?.valid ? branchQuery.data : undefined;
  /** The branch for the confirmation: asked now if the field's lookup has not answered; none on failure. */
  const branchFor = (code: string) => queryClient.fetchQuery(ifscBranchQuery(code)).catch(() => null);

  /** True when the request was answered (either way), false for an ignored second press. */
  const send = async (input: WithdrawalInput): Promise<boolean> => {
    let sent;
    try {
      sent = await once.send((key) => withdraw.mutateAsync({ ...input, key }));
    } catch (error) {
      if (errorStatus(error) === 401) {
        sessionExpired();
        return true;
      }
      const fields = serverFieldErrors(error);
      bankForm.setServerErrors(
        Object.fromEntries(
          Object.entries(fields)
            .filter(([field]) => field.startsWith('bankAccount.'))
            .map(([field, message]) => [field.slice('bankAccount.'.length), message]),
        ),
      );
      upiForm.setServerErrors(fields);
      if (parseApiError(error)?.body?.error.code === 'destination_required') setChoice('bank');
      const { title, message } = withdrawalFailureToast(parseApiError(error)?.body);
      toast({ variant: 'destructive', title, description: message });
      return true;
    }
    if (!sent) return false;
    toast({ title: t('withdraw.requested'), description: t('withdraw.requestedBody') });
    onDone();
    return true;
  };

  const confirm = (input: WithdrawalInput, to: string) => setReview({ input, amount: input.amount, to });

  const onSubmit = (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    if (once.busy) return;
    const checked = checkWithdrawalAmount(amount, balance);
    if (!checked.ok) {
      toast({ variant: 'destructive', title: checked.title, description: checked.message });
      return;
    }
    if (destination === 'saved') {
      if (saved?.kind === 'upi') confirm({ amount: checked.amount }, saved.label);
      if (saved?.kind === 'bank') {
        void branchFor(saved.ifsc).then((named) =>
          confirm(
            { amount: checked.amount },
            named
              ? t('withdraw.toSavedBankBranch', { bank: named.bank, branch: named.branch, label: saved.label, holder: saved.holderName })
              : t('withdraw.toSavedBank', { label: saved.label, holder: saved.holderName }),
          ),
        );
      }
    } else if (destination === 'bank') {
      const matches = confirmAccount.trim() === bankForm.values.accountNumber.trim();
      setConfirmError(matches ? undefined : t('withdraw.accountMismatch'));
      bankForm.handleSubmit(async (bankAccount) => {
        const data = ifscData ?? (await loadIfscData());
        const found = lookupIfsc(bankAccount.ifsc, data);
        if (!found.valid) {
          bankForm.setServerErrors({ ifsc: t('withdraw.ifscUnknown') });
          return;
        }
        if (!matches) return;
        const named = await branchFor(bankAccount.ifsc);
        const account = { last4: bankAccount.accountNumber.slice(-4), holder: bankAccount.holderName };
        confirm(
          { amount: checked.amount, bankAccount },
          named ? t('withdraw.toBankBranch', { bank: named.bank, branch: named.branch, ...account }) : t('withdraw.toBank', { bank: found.bankName, ...account }),
        );
      })(event);
    } else {
      upiForm.handleSubmit(({ upiId }) => confirm({ amount: checked.amount, upiId }, t('withdraw.toUpi', { upiId })))(event);
    }
  };

  if (review) {
    return (
      <ConfirmWithdrawal
        amount={review.amount}
        to={review.to}
        pending={once.busy}
        onConfirm={() => void send(review.input).then((answered) => answered && setReview(null))}
        onBack={() => setReview(null)}
      />
    );
  }

  return (
    <form noValidate onSubmit={onSubmit} className="grid gap-5">
      <TextField
        label={t('withdraw.amount')}
        type="number"
        inputMode="decimal"
        min={MIN_WITHDRAWAL_RUPEES}
        max={Number(balance)}
        step="0.01"
        value={amount}
        onValueChange={setAmount}
        hint={t('withdraw.amountHint', { min: formatRupees(MIN_WITHDRAWAL_RUPEES), max: formatRupees(balance) })}
      />

      <fieldset className="grid gap-2">
        <legend className="mb-1.5 text-sm font-medium text-slate-700">{t('withdraw.sendTo')}</legend>
        {saved && (
          <Choice name="destination" checked={destination === 'saved'} onSelect={() => setChoice('saved')} label={t('withdraw.savedAccount')}>
            <SavedDestinationLine saved={saved} />
          </Choice>
        )}
        <div className="grid grid-cols-2 gap-2">
          <Choice name="destination" checked={destination === 'bank'} onSelect={() => setChoice('bank')} label={saved ? t('withdraw.newBank') : t('withdraw.bank')} />
          <Choice name="destination" checked={destination === 'upi'} onSelect={() => setChoice('upi')} label={saved ? t('withdraw.newUpi') : t('withdraw.upi')} />
        </div>
      </fieldset>

      {destination === 'bank' && (
        <div className="grid gap-4">
          <TextField
            label={t('withdraw.accountNumber')}
            inputMode="numeric"
            autoComplete="off"
            placeholder={t('withdraw.accountNumberPlaceholder')}
            {...bankForm.field('accountNumber')}
          />
          <TextField
            label={t('withdraw.accountNumberAgain')}
            inputMode="numeric"
            autoComplete="off"
            value={confirmAccount}
            onValueChange={(value) => {
              setConfirmAccount(value);
              if (confirmError) setConfirmError(value.trim() === bankForm.values.accountNumber.trim() ? undefined : t('withdraw.accountMismatch'));
            }}
            // Typed, not pasted: a copied typo would match itself.
            onPaste={(event) => event.preventDefault()}
            onDrop={(event) => event.preventDefault()}
            error={confirmError}
            hint={t('withdraw.accountNumberAgainHint')}
          />
          <TextField
            label={t('withdraw.ifsc')}
            autoCapitalize="characters"
            autoComplete="off"
            placeholder={t('withdraw.ifscPlaceholder')}
            {...bankForm.field('ifsc')}
            onValueChange={(value) => bankForm.setValue('ifsc', value.toUpperCase())}
            hint={
              ifscLookup?.valid
                ? branch
                  ? t('withdraw.ifscBranch', { bank: branch.bank, branch: branch.branch })
                  : branchQuery.isPending
                    ? ifscLookup.bankName
                    : t('withdraw.ifscBank', { bank: ifscLookup.bankName })
                : // Said once: not again as a hint when the field's error already says it.
                  ifscLookup && bankForm.errors.ifsc !== t('withdraw.ifscUnknown')
                  ? t('withdraw.ifscUnknown')
                  : undefined
            }
          />
          <TextField
            label={t('withdraw.holderName')}
            autoCapitalize="words"
            autoComplete="name"
            placeholder={t('withdraw.holderNamePlaceholder')}
            {...bankForm.field('holderName')}
          />
        </div>
      )}
      {destination === 'upi' && (
        <TextField
          label={t('withdraw.upi')}
          autoCapitalize="none"
          autoComplete="off"
          placeholder={t('withdraw.upiPlaceholder')}
          {...upiForm.field('upiId')}
        />
      )}

      <p className="flex items-start gap-2 rounded-xl bg-amber-50 p-3 text-sm text-amber-900">
        <HistoryIcon className="mt-0.5 size-4 shrink-0" />
        {t('withdraw.processing')}
      </p>

      <FormActions submitLabel={t('withdraw.submit')} pendingLabel={t('withdraw.submitting')} pending={once.busy} onCancel={onDone} />
    </form>
  );
}

/** The last look before money leaves: how much, to which bank and account (last four digits) or UPI ID. */
function ConfirmWithdrawal({ amount, to, pending, onConfirm, onBack }: { amount: string; to: string; pending: boolean; onConfirm: () => void; onBack: () => void }) {
  const { t } = useTranslation('wallet');
  const headingId = useId();
  // The tax a withdrawal of this amount has withheld, by the rule the server charges with (docs/tax.md).
  const quote = useQuery(withdrawalQuoteQuery(amount));
  const tax = quote.data?.tax ?? null;
  return (
    <section aria-labelledby={headingId} className="grid gap-4" data-testid="withdraw-confirm">
      <h3 id={headingId} className="text-base font-semibold text-slate-900">
        {t('withdraw.confirmTitle')}
      </h3>
      <p className="rounded-xl border border-emerald-200 bg-emerald-50 p-4 text-base text-slate-900">
        <strong className="text-xl font-bold tabular-nums">{formatRupees(amount)}</strong> {t('withdraw.to')} <span className="font-semibold">{to}</span>
      </p>
      {tax && quote.data && (
        <p className="rounded-xl bg-amber-50 p-3 text-sm text-amber-900" data-testid="withdraw-tax">
          {t('withdraw.taxLine', { net: formatRupees(quote.data.net), tax: formatRupees(tax.amount), label: tax.label })}
        </p>
      )}
      <p className="text-sm text-slate-600">{t('withdraw.confirmHint')}</p>
      <div className="grid gap-2">
        {/* Not before the quote answered: tax is shown before the person confirms, never after. */}
        <Button onClick={onConfirm} disabled={pending || quote.isPending}>
          {pending ? t('withdraw.submitting') : t('withdraw.confirm')}
        </Button>
        <Button variant="secondary" onClick={onBack} disabled={pending}>
          {t('withdraw.edit')}
        </Button>
      </div>
    </section>
  );
}

function SavedDestinationLine({ saved }: { saved: SavedDestination }) {
  return (
    <span className="block text-sm text-slate-600">
      {saved.label}
      {saved.kind === 'bank' && <span className="block text-xs text-slate-500">{saved.holderName}</span>}
    </span>
  );
}

/** One option of a radio group, drawn as a card; the native radio keeps it keyboard and screen-reader friendly. */
function Choice({
  name,
  checked,
  onSelect,
  label,
  children,
}: {
  name: string;
  checked: boolean;
  onSelect: () => void;
  label: string;
  children?: ReactNode;
}) {
  return (
    <label
      className={`flex min-h-11 cursor-pointer items-start gap-2.5 rounded-xl border px-3 py-2.5 transition ${
        checked ? 'border-emerald-600 bg-emerald-50 ring-1 ring-emerald-600' : 'border-slate-300 bg-white hover:border-slate-400'
      }`}
    >
      <input type="radio" name={name} checked={checked} onChange={onSelect} className="mt-0.5 size-4 accent-emerald-600" />
      <span className="min-w-0">
        <span className="block text-sm font-semibold text-slate-900">{label}</span>
        {children}
      </span>
    </label>
  );
}
