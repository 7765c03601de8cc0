import { useTranslation } from 'react-i18next';
import { useQuery } from '@tanstack/react-query';
import { useState } from 'react';
import { RejectRequest } from '@kamai/contracts';
import type { SubmissionBody } from '@kamai/contracts';
import { Button } from '../../components/Button.tsx';
import { Dialog } from '../../components/Dialog.tsx';
import { LoadFailed } from '../../components/LoadFailed.tsx';
import { NotAllowedScreen } from '../../components/NotAllowedScreen.tsx';
import { TextAreaField } from '../../components/fields.tsx';
import { serverErrorMessage, serverFieldErrors } from '../../lib/api.ts';
import { formatDateTime, formatRupees } from '../../lib/format.ts';
import { useSchemaForm } from '../../lib/form.ts';
import { currentUserQuery, submissionsQuery } from '../../lib/queries.ts';
import { canReview } from '../../lib/roles.ts';
import { toast } from '../../lib/toast.ts';
import { useSendOnce } from '../../lib/sendOnce.ts';
import { usePageTitle } from '../../lib/usePageTitle.ts';
import { useApproveMutation, useRejectMutation } from './reviewMutations.ts';
import { KycReviewLink } from '../kyc/KycLinks.tsx';

/**
 * /admin/review: the queue of proofs waiting for review, oldest first, for the reviewer and admin
 * roles. Approving credits the user's wallet and notifies them; rejecting needs a reason, which the
 * user sees on the task.
 */
export function ReviewScreen() {
  const { t } = useTranslation('review');
  const { data: user } = useQuery(currentUserQuery());
  if (!canReview(user)) return <NotAllowedScreen what={t('what')} />;
  return <ReviewQueue />;
}

function ReviewQueue() {
  const { t } = useTranslation('review');
  usePageTitle(t('title'));
  const queue = useQuery(submissionsQuery('submitted'));
  const [rejecting, setRejecting] = useState<SubmissionBody | null>(null);
  const [approving, setApproving] = useState<SubmissionBody | null>(null);

  return (
    <section className="grid gap-5">
      <header className="grid gap-1">
        <h1 className="text-2xl font-bold tracking-tight">{t('title')}</h1>
        <p className="text-sm text-slate-600">
          {queue.data ? t('waiting', { count: queue.data.length }) : t('intro')}
        </p>
        <KycReviewLink />
      </header>

      {queue.isPending ? (
        <div role="status" aria-label={t('loading')} className="grid gap-3">
          {[0, 1].map((index) => (
            <div key={index} className="h-72 animate-pulse rounded-2xl bg-white shadow-sm" />
          ))}
        </div>
      ) : queue.isError ? (
        <LoadFailed message={serverErrorMessage(queue.error, t('loadFailed'))} onRetry={() => void queue.refetch()} />
      ) : queue.data.length === 0 ? (
        <div className="grid justify-items-center gap-2 rounded-2xl border border-dashed border-slate-300 bg-white px-5 py-10 text-center">
          <p className="font-semibold text-slate-900">{t('caughtUp')}</p>
          <p className="text-sm text-slate-600">{t('empty')}</p>
        </div>
      ) : (
        <ul className="grid gap-4 lg:grid-cols-2">
          {queue.data.map((submission) => (
            <li key={submission.id}>
              <SubmissionCard submission={submission} onApprove={() => setApproving(submission)} onReject={() => setRejecting(submission)} />
            </li>
          ))}
        </ul>
      )}

      <ApproveDialog submission={approving} onClose={() => setApproving(null)} />
      <RejectDialog submission={rejecting} onClose={() => setRejecting(null)} />
    </section>
  );
}

function SubmissionCard({ submission, onApprove, onReject }: { submission: SubmissionBody; onApprove: () => void; onReject: () => void }) {
  const { t } = useTranslation('review');
  const titleId = `submission-${submission.id}`;

  return (
    <article aria-labelledby={titleId} data-testid="submission" className="grid gap-3 rounded-2xl border border-slate-200 bg-white p-4 shadow-sm">
      <header className="flex items-start justify-between gap-3">
        <div className="min-w-0">
          <h2 id={titleId} className="font-semibold break-words text-slate-900">
            {submission.taskTitle}
          </h2>
          <p className="text-sm text-slate-600">
            {submission.userName} · +91 {submission.userMobile}
          </p>
        </div>
        <span className="shrink-0 rounded-lg bg-emerald-50 px-2 py-0.5 text-sm font-bold text-emerald-700">
          {formatRupees(submission.rupeeReward)}
        </span>
      </header>
      <a href={submission.proofImageUrl} target="_blank" rel="noopener noreferrer" className="block overflow-hidden rounded-xl bg-slate-100">
        <img src={submission.proofImageUrl} alt={t('proofFor', { title: submission.taskTitle })} className="max-h-80 w-full object-contain" />
      </a>
      <p className="text-sm break-words whitespace-pre-wrap text-slate-700">{submission.proofDescription}</p>
      <p className="text-xs text-slate-500">{t('submittedAt', { when: formatDateTime(submission.submittedAt) })}</p>
      <div className="flex gap-2">
        <Button variant="danger" onClick={onReject}>
          {t('reject')}
        </Button>
        <Button onClick={onApprove}>{t('approve')}</Button>
      </div>
    </article>
  );
}

/** Approving moves money: the reviewer confirms the amount and the person first. */
function ApproveDialog({ submission, onClose }: { submission: SubmissionBody | null; onClose: () => void }) {
  const { t } = useTranslation('review');
  const approve = useApproveMutation();
  const once = useSendOnce(submission !== null);
  const onConfirm = async () => {
    if (!submission) return;
    let sent;
    try {
      sent = await once.send((key) => approve.mutateAsync({ submissionId: submission.id, key }));
    } catch (error) {
      toast({ variant: 'destructive', title: t('approveFailed'), description: serverErrorMessage(error, t('approveFailedBody')) });
      return;
    }
    if (!sent) return;
    toast({ title: t('approved'), description: t('approvedBody', { amount: formatRupees(submission.rupeeReward), name: submission.userName }) });
    onClose();
  };
  return (
    <Dialog
      open={submission !== null}
      onOpenChange={(open) => !open && onClose()}
      busy={once.busy}
      title={t('approveTitle')}
      description={
        submission
          ? t('approveQuestion', { amount: formatRupees(submission.rupeeReward), name: submission.userName, mobile: submission.userMobile, title: submission.taskTitle })
          : undefined
      }
    >
      <div className="flex gap-2">
        <Button variant="secondary" onClick={onClose} disabled={once.busy}>
          {t('common:cancel')}
        </Button>
        <Button onClick={() => void onConfirm()} disabled={once.busy}>
          {once.busy ? t('approving') : t('approveAmount', { amount: submission ? formatRupees(submission.rupeeReward) : '' })}
        </Button>
      </div>
    </Dialog>
  );
}

function RejectDialog({ submission, onClose }: { submission: SubmissionBody | null; onClose: () => void }) {
  const { t } = useTranslation('review');
  return (
    <Dialog
      open={submission !== null}
      onOpenChange={(open) => !open && onClose()}
      title={t('rejectTitle')}
      description={submission ? t('rejectQuestion', { name: submission.userName, title: submission.taskTitle }) : undefined}
    >
      {submission && <RejectForm key={submission.id} submission={submission} onDone={onClose} />}
    </Dialog>
  );
}

function RejectForm({ submission, onDone }: { submission: SubmissionBody; onDone: () => void }) {
  const reject = useRejectMutation();
  const once = useSendOnce();
  const { t } = useTranslation('review');
  const form = useSchemaForm(RejectRequest, { reason: '' });

  const onSubmit = form.handleSubmit(async (body) => {
    let sent;
    try {
      sent = await once.send((key) => reject.mutateAsync({ submissionId: submission.id, body, key }));
    } catch (error) {
      form.setServerErrors(serverFieldErrors(error));
      toast({ variant: 'destructive', title: t('rejectFailed'), description: serverErrorMessage(error, t('rejectFailedBody')) });
      return;
    }
    if (!sent) return;
    toast({ title: t('rejected'), description: t('rejectedBody', { name: submission.userName }) });
    onDone();
  });

  return (
    <form noValidate onSubmit={onSubmit} className="grid gap-4">
      <TextAreaField
        label={t('reason')}
        rows={4}
        maxLength={500}
        placeholder={t('reasonPlaceholder')}
        {...form.field('reason')}
      />
      <div className="flex gap-2">
        <Button variant="secondary" onClick={onDone} disabled={once.busy}>
          {t('common:cancel')}
        </Button>
        <Button type="submit" variant="danger" disabled={once.busy}>
          {once.busy ? t('rejecting') : t('reject')}
        </Button>
      </div>
    </form>
  );
}
