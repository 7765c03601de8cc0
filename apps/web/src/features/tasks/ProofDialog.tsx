import { Trans, useTranslation } from 'react-i18next';
import { serverMessage } from '../../i18n/messages.ts';
import { useId, useState } from 'react';
import type { FormEvent } from 'react';
import { PROOF_DESCRIPTION_MAX_LENGTH, TASK_MESSAGES } from '@kamai/contracts';
import type { TaskBody, UserTaskBody, UserTaskStatus } from '@kamai/contracts';
import { Button } from '../../components/Button.tsx';
import { Dialog } from '../../components/Dialog.tsx';
import { serverErrorMessage } from '../../lib/api.ts';
import { formatDateTime, formatRupees } from '../../lib/format.ts';
import { useSendOnce } from '../../lib/sendOnce.ts';
import { toast } from '../../lib/toast.ts';
import { canSubmitProof } from './filters.ts';
import { StatusBadge } from './StatusBadge.tsx';
import { HonestRatingNote } from './TaskCard.tsx';
import { CheckCircleIcon, ClockIcon, HourglassIcon } from '../../components/icons.tsx';
import { useSubmitProofMutation } from './taskMutations.ts';
import { EstimatedTime, useTaskTexts } from './taskText.tsx';
import { ImagePicker, useImageUpload } from './ImagePicker.tsx';
import { AppealState, ChangesRequested } from './ReviewOutcome.tsx';

interface ProofDialogProps {
  /** The task whose dialog is open; null when it is closed. */
  task: TaskBody | null;
  record: UserTaskBody | undefined;
  status: UserTaskStatus;
  onClose: () => void;
}

/**
 * The task detail and proof dialog: the task's instructions, proof requirements,
 * reward and time; the submission once one exists (image, description, time, rejection reason); the
 * upload form while a proof is wanted; 'Proof Under Review' or 'Task Completed!' otherwise.
 * Its form lives inside the dialog's content, so closing the dialog clears it.
 */
export function ProofDialog({ task, record, status, onClose }: ProofDialogProps) {
  const { t } = useTranslation('tasks');
  return (
    <Dialog
      open={task !== null}
      onOpenChange={(open) => {
        if (!open) onClose();
      }}
      title={task ? <ProofDialogTitle task={task} /> : ''}
      titleAside={<StatusBadge status={status} />}
    >
      {task && <ProofDialogBody key={task.id} task={task} record={record} status={status} onSubmitted={onClose} />}
    </Dialog>
  );
}

/** "Submit Proof - <title>", the title marked English when it has no Hindi on a Hindi page. */
function ProofDialogTitle({ task }: { task: TaskBody }) {
  const { t } = useTranslation('tasks');
  const { title } = useTaskTexts(task);
  return <Trans t={t} i18nKey="proof.dialogTitle" values={{ title: title.text }} components={{ task: <span lang={title.lang} /> }} />;
}

function ProofDialogBody({ task, record, status, onSubmitted }: { task: TaskBody; record: UserTaskBody | undefined; status: UserTaskStatus; onSubmitted: () => void }) {
  const reward = formatRupees(record?.rupeesEarned ?? task.rupeeReward);
  const { t } = useTranslation('tasks');
  const texts = useTaskTexts(task);
  return (
    <div className="grid gap-4">
      <section aria-label={t('proof.taskDetails')} className="grid gap-3">
        <div>
          <h3 className="text-sm font-semibold text-slate-900">{t('proof.instructions')}</h3>
          <p lang={texts.description.lang} className="mt-1 text-sm text-slate-600">
            {texts.description.text}
          </p>
        </div>
        <HonestRatingNote task={task} />
        {texts.proofInstructions && (
          <div className="rounded-xl bg-amber-50 px-3 py-2">
            <h3 className="text-sm font-semibold text-amber-900">{t('proof.requirements')}</h3>
            <p lang={texts.proofInstructions.lang} className="mt-1 text-sm text-amber-800">
              {texts.proofInstructions.text}
            </p>
          </div>
        )}
        <dl className="grid grid-cols-2 gap-2 text-sm">
          <div className="rounded-xl bg-emerald-50 px-3 py-2">
            <dt className="text-xs text-emerald-800">{t('proof.reward')}</dt>
            <dd className="font-bold text-emerald-700">{formatRupees(task.rupeeReward)}</dd>
          </div>
          <div className="rounded-xl bg-slate-50 px-3 py-2">
            <dt className="text-xs text-slate-600">{t('proof.time')}</dt>
            <dd className="flex items-center gap-1 font-semibold text-slate-800">
              <ClockIcon className="size-4" />
              <EstimatedTime task={task} />
            </dd>
          </div>
        </dl>
      </section>

      {record && <SubmissionDetails record={record} status={status} />}

      {status === 'submitted' && (
        <div role="status" className="flex items-start gap-3 rounded-xl border border-amber-200 bg-amber-50 p-3">
          <HourglassIcon className="mt-0.5 size-5 shrink-0 text-amber-600" />
          <div>
            <p className="font-semibold text-amber-900">{t('proof.underReview')}</p>
            <p className="text-sm text-amber-800">{t('proof.underReviewBody')}</p>
          </div>
        </div>
      )}
      {status === 'approved' && (
        <div role="status" className="flex items-start gap-3 rounded-xl border border-emerald-200 bg-emerald-50 p-3">
          <CheckCircleIcon className="mt-0.5 size-5 shrink-0 text-emerald-600" />
          <div>
            <p className="font-semibold text-emerald-900">{t('proof.completed')}</p>
            <p className="text-sm text-emerald-800">{t('proof.completedBody', { amount: reward })}</p>
          </div>
        </div>
      )}

      {(!record || canSubmitProof(task, status, record)) && task.requiresProof && <ProofForm task={task} resubmit={status === 'needs_changes'} onSubmitted={onSubmitted} />}
    </div>
  );
}

function SubmissionDetails({ record, status }: { record: UserTaskBody; status: UserTaskStatus }) {
  const { t } = useTranslation('tasks');
  return (
    <section aria-label={t('proof.yourSubmission')} className="grid gap-2 rounded-xl border border-slate-200 p-3">
      <h3 className="text-sm font-semibold text-slate-900">{t('proof.yourSubmission')}</h3>
      <img
        src={record.proofImageUrl}
        alt={t('proof.yourProof')}
        className="max-h-64 w-full rounded-lg bg-slate-100 object-contain"
      />
      <p className="text-sm break-words whitespace-pre-wrap text-slate-700">{record.proofDescription}</p>
      <p className="text-xs text-slate-500">{t('proof.submittedAt', { when: formatDateTime(record.submittedAt) })}</p>
      {status === 'rejected' && record.rejectionReason && (
        <p data-testid="dialog-rejection-reason" className="rounded-lg bg-red-50 px-3 py-2 text-sm text-red-700">
          <span className="font-semibold">{t('proof.rejectionReason')} </span>
          {record.rejectionReason}
        </p>
      )}
      <ChangesRequested record={record} />
      <AppealState record={record} />
    </section>
  );
}

/** The proof form; `resubmit` when the proof was sent back for changes (the same submission, sent again). */
function ProofForm({ task, resubmit, onSubmitted }: { task: TaskBody; resubmit: boolean; onSubmitted: () => void }) {
  const descriptionId = useId();
  const counterId = useId();
  const submit = useSubmitProofMutation();
  const once = useSendOnce();
  const { t } = useTranslation('tasks');
  const image = useImageUpload();
  const { upload, uploading } = image;
  /** Whether Submit was pressed with the proof missing: its text is then an alert. */
  const [formAlert, setFormAlert] = useState(false);
  const proofMissing = serverMessage({ key: 'task.proofMissing' }, TASK_MESSAGES.proofMissing);
  const [description, setDescription] = useState('');

  const missing = upload.phase !== 'done' || description.trim().length === 0;

  const onSubmit = async (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    if (upload.phase !== 'done' || description.trim().length === 0) {
      setFormAlert(true);
      return;
    }
    setFormAlert(false);
    const proof = { proofImageUrl: upload.objectURL, proofDescription: description.trim() };
    let sent;
    try {
      sent = await once.send((key) => submit.mutateAsync({ taskId: task.id, proof, key }));
    } catch (error) {
      toast({ variant: 'destructive', title: t('proof.submitFailed'), description: serverErrorMessage(error, t('proof.submitFailedBody')) });
      return;
    }
    if (!sent) return;
    toast({ title: t('proof.submitted'), description: t('proof.submittedBody') });
    onSubmitted();
  };

  return (
    <form noValidate onSubmit={(event) => void onSubmit(event)} className="grid gap-4 border-t border-slate-100 pt-4" aria-label={t('proof.formLabel')}>
      <ImagePicker image={image} label={t('proof.image')} disabled={once.busy} />

      <div className="grid gap-1.5">
        <label htmlFor={descriptionId} className="text-sm font-medium text-slate-700">
          {/* A rating task's proof is the review written, not the stars given. */}
          {task.taskType === 'rating' ? t('proof.review') : t('proof.description')}
        </label>
        <textarea
          id={descriptionId}
          value={description}
          maxLength={PROOF_DESCRIPTION_MAX_LENGTH}
          onChange={(event) => setDescription(event.target.value.slice(0, PROOF_DESCRIPTION_MAX_LENGTH))}
          aria-describedby={counterId}
          rows={4}
          placeholder={task.taskType === 'rating' ? t('proof.reviewPlaceholder') : t('proof.descriptionPlaceholder')}
          className="w-full resize-none rounded-xl border border-slate-300 bg-white px-3 py-2 text-base shadow-sm outline-none placeholder:text-slate-500 focus:border-emerald-600 focus:ring-2 focus:ring-emerald-600"
        />
        <p id={counterId} data-testid="description-counter" className="text-right text-xs text-slate-500">
          {description.length}/{PROOF_DESCRIPTION_MAX_LENGTH}
        </p>
      </div>

      <div className="grid gap-2">
        <Button type="submit" disabled={missing || once.busy || uploading}>
          {once.busy ? t('proof.submitting') : resubmit ? t('card.resubmit') : t('card.submitProof')}
        </Button>
        {formAlert && missing ? (
          <p role="alert" className="text-center text-sm font-medium text-red-700">
            {proofMissing}
          </p>
        ) : (
          missing && <p className="text-center text-xs text-slate-500">{proofMissing}</p>
        )}
      </div>
    </form>
  );
}
