import { useTranslation } from 'react-i18next';
import { APPEAL_NOTE_MAX_LENGTH, AppealRequest } from '@kamai/contracts';
import type { TaskBody, UserTaskBody } from '@kamai/contracts';
import { Button } from '../../components/Button.tsx';
import { DialogActions } from '../../components/DialogParts.tsx';
import { Dialog } from '../../components/Dialog.tsx';
import { TextAreaField } from '../../components/fields.tsx';
import { serverErrorMessage, serverFieldErrors } from '../../lib/api.ts';
import { useSchemaForm } from '../../lib/form.ts';
import { useSendOnce } from '../../lib/sendOnce.ts';
import { toast } from '../../lib/toast.ts';
import { ImagePicker, useImageUpload } from './ImagePicker.tsx';
import { useAppealMutation } from './taskMutations.ts';
import { useTaskTexts } from './taskText.tsx';

interface AppealDialogProps {
  /** The task whose rejected proof is appealed; null when the dialog is closed. */
  task: TaskBody | null;
  record: UserTaskBody | undefined;
  onClose: () => void;
}

/**
 * Appeal a rejection (once, within 7 days): a note, required, and optionally a new image uploaded
 * like a proof's. Another reviewer decides it; the task card then shows the appeal's state.
 */
export function AppealDialog({ task, record, onClose }: AppealDialogProps) {
  const { t } = useTranslation('tasks');
  const open = task !== null && record !== undefined;
  // The key is made when the dialog opens; the form's send uses it.
  const once = useSendOnce(open);
  return (
    <Dialog open={open} onOpenChange={(next) => !next && onClose()} busy={once.busy} title={t('appeal.title')} description={t('appeal.intro')}>
      {task && record && <AppealForm key={record.submissionId} task={task} record={record} once={once} onDone={onClose} />}
    </Dialog>
  );
}

function AppealForm({ task, record, once, onDone }: { task: TaskBody; record: UserTaskBody; once: ReturnType<typeof useSendOnce>; onDone: () => void }) {
  const { t } = useTranslation('tasks');
  const texts = useTaskTexts(task);
  const appeal = useAppealMutation();
  const image = useImageUpload();
  const form = useSchemaForm(AppealRequest, { note: '', proofImageUrl: '' });

  const onSubmit = form.handleSubmit(async ({ note }) => {
    if (image.uploading) return;
    const body = { note, proofImageUrl: image.upload.phase === 'done' ? image.upload.objectURL : null };
    let sent;
    try {
      sent = await once.send((key) => appeal.mutateAsync({ submissionId: record.submissionId, body, key }));
    } catch (error) {
      form.setServerErrors(serverFieldErrors(error));
      toast({ variant: 'destructive', title: t('appeal.failed'), description: serverErrorMessage(error, t('appeal.failedBody')) });
      return;
    }
    if (!sent) return;
    toast({ title: t('appeal.sent'), description: t('appeal.sentBody') });
    onDone();
  });

  return (
    <form noValidate onSubmit={onSubmit} className="grid gap-4" aria-label={t('appeal.formLabel')}>
      <p className="text-sm text-slate-700">
        <span lang={texts.title.lang} className="font-semibold">
          {texts.title.text}
        </span>
        {record.rejectionReason && (
          <>
            {' · '}
            {t('proof.rejectionReason')} {record.rejectionReason}
          </>
        )}
      </p>
      <TextAreaField label={t('appeal.note')} rows={4} maxLength={APPEAL_NOTE_MAX_LENGTH} placeholder={t('appeal.notePlaceholder')} {...form.field('note')} />
      <ImagePicker image={image} label={t('appeal.image')} disabled={once.busy} />
      <DialogActions cancelLabel={t('common:cancel')} onCancel={onDone} busy={once.busy} disabled={image.uploading}>
        {once.busy ? t('appeal.sending') : t('appeal.send')}
      </DialogActions>
    </form>
  );
}
