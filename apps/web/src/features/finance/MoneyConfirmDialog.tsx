import type { ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { Button } from '../../components/Button.tsx';
import { DialogActions, RefusalBox } from '../../components/DialogParts.tsx';
import { Dialog } from '../../components/Dialog.tsx';

/**
 * The confirmation every batch action asks for: its description names the count and the total, so
 * finance sees what moves before it moves. While `pending` (useSendOnce's busy) nothing closes it and
 * its confirm button is disabled. useConfirmedSend gives `open`, `pending`, `refusal` and `onClose`.
 */
export function MoneyConfirmDialog({
  open,
  title,
  description,
  confirmLabel,
  pendingLabel,
  pending,
  onConfirm,
  onClose,
  refusal,
  children,
}: {
  open: boolean;
  title: string;
  description: string;
  confirmLabel: string;
  pendingLabel: string;
  pending: boolean;
  onConfirm: () => void;
  onClose: () => void;
  /** Why the server refused the last send, shown under the dialog's own content. */
  refusal?: string | null;
  children?: ReactNode;
}) {
  const { t } = useTranslation();
  return (
    <Dialog open={open} onOpenChange={(next) => !next && onClose()} busy={pending} title={title} description={description}>
      {children}
      {refusal && <RefusalBox>{refusal}</RefusalBox>}
      <DialogActions cancelLabel={t('cancel')} onCancel={onClose} busy={pending} onConfirm={onConfirm}>
        {pending ? pendingLabel : confirmLabel}
      </DialogActions>
    </Dialog>
  );
}
