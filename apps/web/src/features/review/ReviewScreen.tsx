import { useTranslation } from 'react-i18next';
import { useQuery } from '@tanstack/react-query';
import { useEffect, useRef, useState } from 'react';
import { BULK_REVIEW_MAX, RejectRequest, formatPaise, parseRupees } from '@kamai/contracts';
import type { SubmissionBody } from '@kamai/contracts';
import { Button } from '../../components/Button.tsx';
import { DialogActions } from '../../components/DialogParts.tsx';
import { Dialog } from '../../components/Dialog.tsx';
import { LoadFailed } from '../../components/LoadFailed.tsx';
import { StaffPage, StaffPageHeader } from '../../components/StaffPage.tsx';
import { TextAreaField } from '../../components/fields.tsx';
import { serverErrorMessage, serverFieldErrors } from '../../lib/api.ts';
import { formatDateTime, formatRupees } from '../../lib/format.ts';
import { useSchemaForm } from '../../lib/form.ts';
import { submissionsQuery } from '../../lib/queries.ts';
import { toast } from '../../lib/toast.ts';
import { useSendOnce } from '../../lib/sendOnce.ts';
import { useApproveMutation, useBulkReviewMutation, useRejectMutation, useRequestChangesMutation } from './reviewMutations.ts';
import { DEFAULT_CANNED_REASONS } from '@kamai/contracts';
import { settingsQuery } from '../../lib/queries.ts';
import { ProofFlags } from './ProofFlags.tsx';
import { readerText } from '../tasks/taskText.tsx';

/**
 * /admin/review: the queue of proofs waiting for review, oldest first, for the reviewer and admin
 * roles. Approving credits the user's wallet and notifies them; rejecting needs a reason, which the
 * user sees on the task.
 */
export function ReviewScreen() {
  const { t } = useTranslation('review');
  return (
    <StaffPage role="reviewer" what={t('what')}>
      <ReviewQueue />
    </StaffPage>
  );
}

/** Keys a reviewer works the queue with; ignored while typing or while a dialog is open. */
const SHORTCUTS = { next: ['j', 'ArrowDown'], previous: ['k', 'ArrowUp'], approve: ['a'], reject: ['r'], select: ['x'] } as const;
type Shortcut = keyof typeof SHORTCUTS;
const shortcutOf = (key: string) => (Object.keys(SHORTCUTS) as Shortcut[]).find((name) => (SHORTCUTS[name] as readonly string[]).includes(key));

function ReviewQueue() {
  const { t } = useTranslation('review');
  const queue = useQuery(submissionsQuery('submitted'));
  const [rejecting, setRejecting] = useState<SubmissionBody | null>(null);
  const [approving, setApproving] = useState<SubmissionBody | null>(null);
  const [askingChanges, setAskingChanges] = useState<SubmissionBody | null>(null);
  const [selected, setSelected] = useState<ReadonlySet<string>>(new Set());
  const [bulk, setBulk] = useState<'approve' | 'reject' | null>(null);
  const [current, setCurrent] = useState(0);
  const cards = useRef(new Map<string, HTMLElement>());

  const items = queue.data ?? [];
  // Only proofs still in the queue stay selected (others were decided meanwhile).
  const chosen = items.filter((submission) => selected.has(submission.id)).slice(0, BULK_REVIEW_MAX);
  const toggle = (id: string) =>
    setSelected((before) => {
      const next = new Set(before);
      if (!next.delete(id)) next.add(id);
      return next;
    });

  const dialogOpen = approving !== null || rejecting !== null || askingChanges !== null || bulk !== null;
  // Read by the key handler, which keys pressed faster than React renders must still see current.
  const latest = useRef({ items, current, dialogOpen });
  latest.current = { ...latest.current, items, dialogOpen };
  const moveTo = (index: number) => {
    latest.current.current = index;
    setCurrent(index);
  };
  useEffect(() => {
    const onKey = (event: KeyboardEvent) => {
      const { items: list, current: at, dialogOpen: busy } = latest.current;
      if (busy || event.altKey || event.ctrlKey || event.metaKey || list.length === 0) return;
      // Typing is typing.
      const target = event.target as HTMLElement | null;
      if (target && (target.isContentEditable || ['INPUT', 'TEXTAREA', 'SELECT'].includes(target.tagName))) return;
      const shortcut = shortcutOf(event.key);
      if (!shortcut) return;
      event.preventDefault();
      const index = Math.min(at, list.length - 1);
      const submission = list[index]!;
      if (shortcut === 'next' || shortcut === 'previous') {
        const to = Math.max(0, Math.min(list.length - 1, index + (shortcut === 'next' ? 1 : -1)));
        moveTo(to);
        cards.current.get(list[to]!.id)?.focus();
      } else if (shortcut === 'approve') setApproving(submission);
      else if (shortcut === 'reject') setRejecting(submission);
      else toggle(submission.id);
    };
    document.addEventListener('keydown', onKey);
    return () => document.removeEventListener('keydown', onKey);
  }, []);

  return (
    <section className="grid gap-5">
      <StaffPageHeader title={t('title')} intro={queue.data ? t('waiting', { count: queue.data.length }) : t('intro')}>
        <p className="text-xs text-slate-500">{t('shortcuts')}</p>
      </StaffPageHeader>

      {queue.isPending ? (
        <div role="status" aria-label={t('loading')} className="grid gap-3">
          {[0, 1].map((index) => (
            <div key={index} className="h-72 animate-pulse rounded-2xl bg-white shadow-sm" />
          ))}
        </div>
      ) : queue.isError ? (
        <LoadFailed message={serverErrorMessage(queue.error, t('loadFailed'))} error={queue.error} onRetry={() => void queue.refetch()} />
      ) : queue.data.length === 0 ? (
        <div className="grid justify-items-center gap-2 rounded-2xl border border-dashed border-slate-300 bg-white px-5 py-10 text-center">
          <p className="font-semibold text-slate-900">{t('caughtUp')}</p>
          <p className="text-sm text-slate-600">{t('empty')}</p>
        </div>
      ) : (
        <>
          <div role="toolbar" aria-label={t('selection')} className="grid gap-2 sm:grid-cols-3">
            <p className="text-sm text-slate-600 sm:col-span-3" aria-live="polite">
              {t('selectedCount', { count: chosen.length })}
            </p>
            <Button
              variant="secondary"
              onClick={() => setSelected(chosen.length === items.length ? new Set() : new Set(items.slice(0, BULK_REVIEW_MAX).map((s) => s.id)))}
            >
              {chosen.length === items.length ? t('selectNone') : t('selectAll')}
            </Button>
            <Button variant="danger" disabled={chosen.length === 0} onClick={() => setBulk('reject')}>
              {t('rejectSelected')}
            </Button>
            <Button disabled={chosen.length === 0} onClick={() => setBulk('approve')}>
              {t('approveSelected')}
            </Button>
          </div>
          <ul className="grid gap-4 lg:grid-cols-2">
            {queue.data.map((submission, index) => (
              <li key={submission.id}>
                <SubmissionCard
                  ref={(node) => {
                    if (node) cards.current.set(submission.id, node);
                    else cards.current.delete(submission.id);
                  }}
                  submission={submission}
                  current={index === Math.min(current, items.length - 1)}
                  selected={selected.has(submission.id)}
                  onFocus={() => moveTo(index)}
                  onToggle={() => toggle(submission.id)}
                  onApprove={() => setApproving(submission)}
                  onReject={() => setRejecting(submission)}
                  onRequestChanges={() => setAskingChanges(submission)}
                />
              </li>
            ))}
          </ul>
        </>
      )}

      <ApproveDialog submission={approving} onClose={() => setApproving(null)} />
      <RejectDialog submission={rejecting} decision="reject" onClose={() => setRejecting(null)} />
      <RejectDialog submission={askingChanges} decision="changes" onClose={() => setAskingChanges(null)} />
      <BulkDialog
        decision={bulk}
        submissions={chosen}
        onClose={() => setBulk(null)}
        onDone={() => {
          setSelected(new Set());
          setBulk(null);
        }}
      />
    </section>
  );
}

interface SubmissionCardProps {
  ref: (node: HTMLElement | null) => void;
  submission: SubmissionBody;
  current: boolean;
  selected: boolean;
  onFocus: () => void;
  onToggle: () => void;
  onApprove: () => void;
  onReject: () => void;
  onRequestChanges: () => void;
}

function SubmissionCard({ ref, submission, current, selected, onFocus, onToggle, onApprove, onReject, onRequestChanges }: SubmissionCardProps) {
  const { t, i18n } = useTranslation('review');
  const titleId = `submission-${submission.id}`;
  const title = readerText(submission.taskTitle, submission.taskTitleHi, i18n.language);

  return (
    <article
      ref={ref}
      tabIndex={-1}
      onFocus={onFocus}
      aria-labelledby={titleId}
      aria-current={current ? 'true' : undefined}
      data-testid="submission"
      className={`grid gap-3 rounded-2xl border bg-white p-4 shadow-sm outline-none focus:ring-2 focus:ring-blue-600 ${current ? 'border-blue-600' : 'border-slate-200'}`}
    >
      <label className="flex min-h-11 items-center gap-2 text-sm text-slate-700">
        <input type="checkbox" checked={selected} onChange={onToggle} className="h-4 w-4" />
        {t('select', { title: title.text, name: submission.userName })}
      </label>
      <header className="flex items-start justify-between gap-3">
        <div className="min-w-0">
          <h2 id={titleId} lang={title.lang} className="font-semibold break-words text-slate-900">
            {title.text}
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
        <img src={submission.proofImageUrl} alt={t('proofFor', { title: title.text })} className="max-h-80 w-full object-contain" />
      </a>
      <p className="text-sm break-words whitespace-pre-wrap text-slate-700">{submission.proofDescription}</p>
      <p className="text-xs text-slate-500">{t('submittedAt', { when: formatDateTime(submission.submittedAt) })}</p>
      <ProofFlags submission={submission} />
      <div className="grid grid-cols-2 gap-2">
        <Button variant="danger" onClick={onReject}>
          {t('reject')}
        </Button>
        <Button variant="secondary" onClick={onRequestChanges} className="leading-tight">
          {t('requestChanges')}
        </Button>
        <Button onClick={onApprove} className="col-span-2">
          {t('approve')}
        </Button>
      </div>
    </article>
  );
}

/** Approving moves money: the reviewer confirms the amount and the person first. */
function ApproveDialog({ submission, onClose }: { submission: SubmissionBody | null; onClose: () => void }) {
  const { t, i18n } = useTranslation('review');
  const taskTitle = submission && readerText(submission.taskTitle, submission.taskTitleHi, i18n.language).text;
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
          ? t('approveQuestion', { amount: formatRupees(submission.rupeeReward), name: submission.userName, mobile: submission.userMobile, title: taskTitle })
          : undefined
      }
    >
      <DialogActions cancelLabel={t('common:cancel')} onCancel={onClose} busy={once.busy} onConfirm={() => void onConfirm()}>
        {once.busy ? t('approving') : t('approveAmount', { amount: submission ? formatRupees(submission.rupeeReward) : '' })}
      </DialogActions>
    </Dialog>
  );
}

/** The reviewer's two ways to turn a proof down: rejected, or sent back for changes (48 hours to send it again). */
type TurnDown = 'reject' | 'changes';
const TURN_DOWN_TEXTS = {
  reject: { title: 'rejectTitle', question: 'rejectQuestion', send: 'reject', sending: 'rejecting', failed: 'rejectFailed', failedBody: 'rejectFailedBody', done: 'rejected', doneBody: 'rejectedBody' },
  changes: { title: 'changesTitle', question: 'changesQuestion', send: 'requestChanges', sending: 'sending', failed: 'changesFailed', failedBody: 'changesFailedBody', done: 'changesSent', doneBody: 'changesSentBody' },
} as const satisfies Record<TurnDown, Record<string, string>>;

function RejectDialog({ submission, decision, onClose }: { submission: SubmissionBody | null; decision: TurnDown; onClose: () => void }) {
  const { t, i18n } = useTranslation('review');
  const taskTitle = submission && readerText(submission.taskTitle, submission.taskTitleHi, i18n.language).text;
  const texts = TURN_DOWN_TEXTS[decision];
  return (
    <Dialog
      open={submission !== null}
      onOpenChange={(open) => !open && onClose()}
      title={t(texts.title)}
      description={submission ? t(texts.question, { name: submission.userName, title: taskTitle }) : undefined}
    >
      {submission && <RejectForm key={submission.id} submission={submission} decision={decision} onDone={onClose} />}
    </Dialog>
  );
}

/** The reason form of a rejection or a change request: the same canned reasons, the same one send per press. */
function RejectForm({ submission, decision, onDone }: { submission: SubmissionBody; decision: TurnDown; onDone: () => void }) {
  const reject = useRejectMutation();
  const requestChanges = useRequestChangesMutation();
  const mutation = decision === 'reject' ? reject : requestChanges;
  const texts = TURN_DOWN_TEXTS[decision];
  const once = useSendOnce();
  const { t } = useTranslation('review');
  const form = useSchemaForm(RejectRequest, { reason: '' });

  const onSubmit = form.handleSubmit(async (body) => {
    let sent;
    try {
      sent = await once.send((key) => mutation.mutateAsync({ submissionId: submission.id, body, key }));
    } catch (error) {
      form.setServerErrors(serverFieldErrors(error));
      toast({ variant: 'destructive', title: t(texts.failed), description: serverErrorMessage(error, t(texts.failedBody)) });
      return;
    }
    if (!sent) return;
    toast({ title: t(texts.done), description: t(texts.doneBody, { name: submission.userName }) });
    onDone();
  });

  return (
    <form noValidate onSubmit={onSubmit} className="grid gap-4">
      <CannedReasons onPick={form.field('reason').onValueChange} />
      <TextAreaField
        label={t('reason')}
        rows={4}
        maxLength={500}
        placeholder={t('reasonPlaceholder')}
        {...form.field('reason')}
      />
      <DialogActions cancelLabel={t('common:cancel')} onCancel={onDone} busy={once.busy} variant={decision === 'reject' ? 'danger' : 'primary'}>
        {once.busy ? t(texts.sending) : t(texts.send)}
      </DialogActions>
    </form>
  );
}

/** Total of the proofs' rewards, in paise summed exactly, as rupees. */
function totalRupees(submissions: readonly SubmissionBody[]): string {
  return formatPaise(submissions.reduce((sum, submission) => sum + (parseRupees(submission.rupeeReward) ?? 0), 0));
}

/**
 * Approve or reject the selected proofs at once. The confirmation names how many and the rupees
 * involved; one press sends once (the key is made when the dialog opens), and the answer says what
 * became of each, so proofs decided meanwhile by someone else are counted, not lost.
 */
function BulkDialog({
  decision,
  submissions,
  onClose,
  onDone,
}: {
  decision: 'approve' | 'reject' | null;
  submissions: readonly SubmissionBody[];
  onClose: () => void;
  onDone: () => void;
}) {
  const { t } = useTranslation('review');
  const mutation = useBulkReviewMutation();
  const once = useSendOnce(decision !== null);
  const [reason, setReason] = useState('');
  const [reasonError, setReasonError] = useState<string | undefined>();
  const count = submissions.length;
  const amount = formatRupees(totalRupees(submissions));

  const onConfirm = async () => {
    if (!decision) return;
    if (decision === 'reject' && reason.trim() === '') {
      setReasonError(t('reasonRequired'));
      return;
    }
    let sent;
    try {
      sent = await once.send((key) =>
        mutation.mutateAsync({ body: { ids: submissions.map((s) => s.id), decision, reason: decision === 'reject' ? reason : '' }, key }),
      );
    } catch (error) {
      setReasonError(serverFieldErrors(error).reason);
      toast({ variant: 'destructive', title: t('bulkFailed'), description: serverErrorMessage(error, t('bulkFailedBody')) });
      return;
    }
    if (!sent) return;
    const tally = new Map<string, number>();
    for (const { result } of sent.value?.results ?? []) tally.set(result, (tally.get(result) ?? 0) + 1);
    toast({ title: t('bulkDone'), description: [...tally].map(([result, n]) => t(`result.${result}`, { count: n })).join(' · ') });
    setReason('');
    onDone();
  };

  return (
    <Dialog
      open={decision !== null}
      onOpenChange={(open) => !open && onClose()}
      busy={once.busy}
      title={decision === 'reject' ? t('rejectSelectedTitle', { count }) : t('approveSelectedTitle', { count })}
      description={decision === 'reject' ? t('rejectSelectedQuestion', { count, amount }) : t('approveSelectedQuestion', { count, amount })}
    >
      <div className="grid gap-4">
        {decision === 'reject' && (
          <CannedReasons
            onPick={(text) => {
              setReason(text);
              setReasonError(undefined);
            }}
          />
        )}
        {decision === 'reject' && (
          <TextAreaField
            label={t('reason')}
            rows={3}
            maxLength={500}
            placeholder={t('reasonPlaceholder')}
            value={reason}
            onValueChange={(value: string) => {
              setReason(value);
              setReasonError(undefined);
            }}
            error={reasonError}
          />
        )}
        <DialogActions cancelLabel={t('common:cancel')} onCancel={onClose} busy={once.busy} onConfirm={() => void onConfirm()} variant={decision === 'reject' ? 'danger' : 'primary'} disabled={count === 0}>
          {once.busy
            ? t('sending')
            : decision === 'reject'
              ? t('rejectCount', { count })
              : t('approveCount', { count, amount })}
        </DialogActions>
      </div>
    </Dialog>
  );
}


/**
 * Reasons reviewers give most, as one tap each, in the reviewer's language; still editable. The
 * list is an admin's setting (the defaults until set).
 */
function CannedReasons({ onPick }: { onPick: (text: string) => void }) {
  const { t, i18n } = useTranslation('review');
  const reasons = useQuery(settingsQuery()).data?.cannedReasons ?? DEFAULT_CANNED_REASONS;
  const language = i18n.language === 'hi' ? 'hi' : 'en';
  return (
    <div role="group" aria-label={t('cannedReasons')} className="flex flex-wrap gap-2">
      {reasons.map((reason) => (
        <button
          key={reason.en}
          type="button"
          onClick={() => onPick(reason[language])}
          className="min-h-11 rounded-full border border-slate-300 bg-white px-4 py-2 text-sm text-slate-800 hover:bg-slate-50 focus:outline-none focus-visible:ring-2 focus-visible:ring-blue-600"
        >
          {reason[language]}
        </button>
      ))}
    </div>
  );
}
