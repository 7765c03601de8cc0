import { useTranslation } from 'react-i18next';
import { Button } from '../../components/Button.tsx';
import { DialogActions } from '../../components/DialogParts.tsx';
import { Dialog } from '../../components/Dialog.tsx';
import { formatRupees } from '../../lib/format.ts';
import type { LedgerPerson } from './ledgerPerson.ts';

export interface AdjustmentToConfirm {
  direction: 'credit' | 'debit';
  /** Decimal string, e.g. "1500.00". */
  amount: string;
  mobile: string;
  reason: string;
  /** The IST day it takes effect, when not today. */
  effectiveDate?: string;
  /** What it corrects (an id), when it is a correction. */
  corrects?: string;
}

/**
 * An adjustment moves money: before it is requested or approved, finance sees the amount, the way
 * it goes and whose wallet it is (name and number), with the reason and the balance now. `person`
 * is null while their name is still loading, or when it could not be read; the number alone names
 * them then.
 */
export function AdjustmentConfirmDialog({
  adjustment,
  person,
  title,
  confirmLabel,
  pendingLabel,
  pending,
  onConfirm,
  onClose,
}: {
  adjustment: AdjustmentToConfirm | null;
  person: LedgerPerson | null;
  title: string;
  confirmLabel: string;
  pendingLabel: string;
  pending: boolean;
  onConfirm: () => void;
  onClose: () => void;
}) {
  const { t } = useTranslation('finance');
  const who = adjustment
    ? person
      ? t('confirm.person', { name: person.name, mobile: adjustment.mobile })
      : t('confirm.mobileOnly', { mobile: adjustment.mobile })
    : '';
  return (
    <Dialog
      open={adjustment !== null}
      onOpenChange={(open) => !open && onClose()}
      busy={pending}
      title={title}
      description={
        adjustment ? t(adjustment.direction === 'credit' ? 'confirm.credit' : 'confirm.debit', { amount: formatRupees(adjustment.amount), person: who }) : undefined
      }
    >
      {adjustment && (
        <dl className="grid grid-cols-[auto_1fr] gap-x-3 gap-y-1 rounded-xl bg-slate-50 p-3 text-sm">
          <dt className="text-slate-600">{t('confirm.reason')}</dt>
          <dd className="break-words text-slate-900">{adjustment.reason}</dd>
          {adjustment.effectiveDate && (
            <>
              <dt className="text-slate-600">{t('confirm.effectiveDate')}</dt>
              <dd className="tabular-nums text-slate-900">{adjustment.effectiveDate}</dd>
            </>
          )}
          {adjustment.corrects && (
            <>
              <dt className="text-slate-600">{t('confirm.corrects')}</dt>
              <dd className="break-all text-slate-900">{adjustment.corrects}</dd>
            </>
          )}
          {person && (
            <>
              <dt className="text-slate-600">{t('confirm.balance')}</dt>
              <dd className="tabular-nums text-slate-900">{formatRupees(person.balance)}</dd>
            </>
          )}
        </dl>
      )}
      <DialogActions cancelLabel={t('common:cancel')} onCancel={onClose} busy={pending} onConfirm={onConfirm} variant={adjustment?.direction === 'debit' ? 'danger' : 'primary'}>
        {pending ? pendingLabel : confirmLabel}
      </DialogActions>
    </Dialog>
  );
}
