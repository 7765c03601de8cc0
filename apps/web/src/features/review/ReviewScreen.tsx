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
import { usePageTitle } from '../../lib/usePageTitle.ts';
import { useApproveMutation, useRejectMutation } from './reviewMutations.ts';
import { KycReviewLink } from '../kyc/KycLinks.tsx';

/**
 * /admin/review: the queue of proofs waiting for review, oldest first, for the reviewer and admin
 * roles. Approving credits the user's wallet and notifies them; rejecting needs a reason, which the
 * user sees on the task.
 */
export function ReviewScreen() {
  const { data: user } = useQuery(currentUserQuery());
  if (!canReview(user)) return <NotAllowedScreen what="the review queue" />;
  return <ReviewQueue />;
}

function ReviewQueue() {
  usePageTitle('Proof Review');
  const queue = useQuery(submissionsQuery('submitted'));
  const [rejecting, setRejecting] = useState<SubmissionBody | null>(null);

  return (
    <section className="grid gap-5">
      <header className="grid gap-1">
        <h1 className="text-2xl font-bold tracking-tight">Proof Review</h1>
        <p className="text-sm text-slate-600">
          {queue.data ? `${queue.data.length} waiting for review` : 'Proofs waiting for review, oldest first.'}
        </p>
        <KycReviewLink />
      </header>

      {queue.isPending ? (
        <div role="status" aria-label="Loading submissions" className="grid gap-3">
          {[0, 1].map((index) => (
            <div key={index} className="h-72 animate-pulse rounded-2xl bg-white shadow-sm" />
          ))}
        </div>
      ) : queue.isError ? (
        <LoadFailed message={serverErrorMessage(queue.error, 'We could not load the review queue.')} onRetry={() => void queue.refetch()} />
      ) : queue.data.length === 0 ? (
        <div className="grid justify-items-center gap-2 rounded-2xl border border-dashed border-slate-300 bg-white px-5 py-10 text-center">
          <p className="font-semibold text-slate-900">All caught up</p>
          <p className="text-sm text-slate-600">No proofs are waiting for review.</p>
        </div>
      ) : (
        <ul className="grid gap-4">
          {queue.data.map((submission) => (
            <li key={submission.id}>
              <SubmissionCard submission={submission} onReject={() => setRejecting(submission)} />
            </li>
          ))}
        </ul>
      )}

      <RejectDialog submission={rejecting} onClose={() => setRejecting(null)} />
    </section>
  );
}

function SubmissionCard({ submission, onReject }: { submission: SubmissionBody; onReject: () => void }) {
  const approve = useApproveMutation();
  const titleId = `submission-${submission.id}`;

  const onApprove = async () => {
    try {
      await approve.mutateAsync(submission.id);
    } catch (error) {
      toast({ variant: 'destructive', title: 'Approval Failed', description: serverErrorMessage(error, 'Failed to approve proof') });
      return;
    }
    toast({ title: 'Proof Approved', description: `${formatRupees(submission.rupeeReward)} credited to ${submission.userName}.` });
  };

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
        <img src={submission.proofImageUrl} alt={`Proof for ${submission.taskTitle}`} className="max-h-80 w-full object-contain" />
      </a>
      <p className="text-sm break-words whitespace-pre-wrap text-slate-700">{submission.proofDescription}</p>
      <p className="text-xs text-slate-500">Submitted {formatDateTime(submission.submittedAt)}</p>
      <div className="flex gap-2">
        <Button variant="danger" onClick={onReject} disabled={approve.isPending}>
          Reject
        </Button>
        <Button onClick={() => void onApprove()} disabled={approve.isPending}>
          {approve.isPending ? 'Approving...' : 'Approve'}
        </Button>
      </div>
    </article>
  );
}

function RejectDialog({ submission, onClose }: { submission: SubmissionBody | null; onClose: () => void }) {
  return (
    <Dialog
      open={submission !== null}
      onOpenChange={(open) => !open && onClose()}
      title="Reject proof"
      description={submission ? `Tell ${submission.userName} why the proof for "${submission.taskTitle}" was not accepted.` : undefined}
    >
      {submission && <RejectForm key={submission.id} submission={submission} onDone={onClose} />}
    </Dialog>
  );
}

function RejectForm({ submission, onDone }: { submission: SubmissionBody; onDone: () => void }) {
  const reject = useRejectMutation();
  const form = useSchemaForm(RejectRequest, { reason: '' });

  const onSubmit = form.handleSubmit(async (body) => {
    try {
      await reject.mutateAsync({ submissionId: submission.id, body });
    } catch (error) {
      form.setServerErrors(serverFieldErrors(error));
      toast({ variant: 'destructive', title: 'Rejection Failed', description: serverErrorMessage(error, 'Failed to reject proof') });
      return;
    }
    toast({ title: 'Proof Rejected', description: `${submission.userName} can submit it again.` });
    onDone();
  });

  return (
    <form noValidate onSubmit={onSubmit} className="grid gap-4">
      <TextAreaField
        label="Reason"
        rows={4}
        maxLength={500}
        placeholder="e.g. The screenshot does not show your review"
        {...form.field('reason')}
      />
      <div className="flex gap-2">
        <Button variant="secondary" onClick={onDone} disabled={reject.isPending}>
          Cancel
        </Button>
        <Button type="submit" variant="danger" disabled={reject.isPending}>
          {reject.isPending ? 'Rejecting...' : 'Reject'}
        </Button>
      </div>
    </form>
  );
}
