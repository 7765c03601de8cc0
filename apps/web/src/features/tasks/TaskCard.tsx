import { useQuery } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import type { TaskBody, UserTaskBody, UserTaskStatus } from '@kamai/contracts';
import { apiRequest } from '../../lib/api.ts';
import { taskSignalsQuery } from '../../lib/queries.ts';
import { formatDateTime, formatRupees } from '../../lib/format.ts';
import { canAppeal, canSubmitProof } from './filters.ts';
import { AppealState, ChangesRequested } from './ReviewOutcome.tsx';
import { StatusBadge } from './StatusBadge.tsx';
import { ClockIcon, ExternalLinkIcon, InfoIcon } from '../../components/icons.tsx';
import { EstimatedTime, useTaskTexts } from './taskText.tsx';

/** Which list shows the card; it names the button that opens the task's URL. */
export type TaskCardKind = 'rating' | 'website' | 'generic';

const START_LABELS = { rating: 'card.openApp', website: 'card.visitWebsite', generic: 'card.startNow' } as const satisfies Record<TaskCardKind, string>;

interface TaskCardProps {
  task: TaskBody;
  record: UserTaskBody | undefined;
  status: UserTaskStatus;
  kind: TaskCardKind;
  /** Opens the task detail (proof) dialog. */
  onOpenProof: () => void;
  /** Opens the appeal dialog of a rejected proof. */
  onOpenAppeal: () => void;
}

/** A task's reward and estimated time; `tinted` sets the reward on a green chip, as the users' lists do. */
export function RewardAndTime({ task, tinted = false }: { task: Pick<TaskBody, 'rupeeReward' | 'estimatedTime' | 'estimatedMinutes'>; tinted?: boolean }) {
  return (
    <div className="flex items-center gap-3 text-sm">
      <span className={`font-bold text-emerald-700 ${tinted ? 'rounded-lg bg-emerald-50 px-2 py-0.5' : ''}`}>{formatRupees(task.rupeeReward)}</span>
      <span className="flex items-center gap-1 text-slate-500">
        <ClockIcon className="size-4" />
        <EstimatedTime task={task} />
      </span>
    </div>
  );
}

/**
 * On a rating or review task: the reward is the same whatever the stars (app stores forbid rewards
 * for positive ratings, and paid five-star tasks are how task scams start).
 */
export function HonestRatingNote({ task }: { task: Pick<TaskBody, 'taskType'> }) {
  const { t } = useTranslation('tasks');
  if (task.taskType !== 'rating') return null;
  return (
    <p data-testid="honest-rating" className="flex gap-2 rounded-xl border border-sky-200 bg-sky-50 px-3 py-2 text-sm text-sky-900">
      <InfoIcon className="mt-0.5 size-4 shrink-0" />
      {t('honest')}
    </p>
  );
}

const actionClasses =
  'inline-flex h-11 flex-1 whitespace-nowrap items-center justify-center gap-2 rounded-xl px-3 text-sm font-semibold shadow-sm transition focus:outline-none focus-visible:ring-2 focus-visible:ring-offset-2';

/**
 * One task of a list: title, description, reward, time, status badge and proof
 * instructions. The start button opens the task URL in a new tab until the task is approved; Submit
 * Proof shows while a proof is wanted (pending or rejected; Resubmit proof when sent back for
 * changes, with the reason and deadline). Once a proof exists, View Proof opens the same dialog to
 * see it. A rejection offers Appeal until its last day; an appeal made shows its state.
 */
export function TaskCard({ task, record, status, kind, onOpenProof, onOpenAppeal }: TaskCardProps) {
  const titleId = `task-${task.id}-title`;
  const showStart = status !== 'approved' && Boolean(task.taskUrl);
  const showSubmit = canSubmitProof(task, status, record);
  const showAppeal = canAppeal(record);
  const showView = task.requiresProof && (status === 'submitted' || status === 'approved');
  const earned = record?.rupeesEarned ?? task.rupeeReward;
  const { t } = useTranslation('tasks');
  const texts = useTaskTexts(task);

  return (
    <article aria-labelledby={titleId} data-testid="task-card" className="grid gap-3 rounded-2xl border border-slate-200 bg-white p-4 shadow-sm">
      <header className="flex items-start justify-between gap-3">
        <h2 id={titleId} lang={texts.title.lang} className="font-semibold text-slate-900">
          {texts.title.text}
        </h2>
        <StatusBadge status={status} />
      </header>
      <p lang={texts.description.lang} className="text-sm text-slate-600">
        {texts.description.text}
      </p>
      <HonestRatingNote task={task} />
      <RewardAndTime task={task} tinted />
      <TaskSignals taskId={task.id} />
      {task.requiresProof && texts.proofInstructions && (
        <p className="rounded-xl bg-slate-50 px-3 py-2 text-xs text-slate-600">
          <span className="font-semibold text-slate-700">{t('card.proof')} </span>
          <span lang={texts.proofInstructions.lang}>{texts.proofInstructions.text}</span>
        </p>
      )}
      {status === 'rejected' && record?.rejectionReason && (
        <p data-testid="rejection-reason" className="rounded-xl border border-red-200 bg-red-50 px-3 py-2 text-sm text-red-700">
          <span className="font-semibold">{t('card.rejected')} </span>
          {record.rejectionReason}
        </p>
      )}
      {record && <ChangesRequested record={record} />}
      {record && <AppealState record={record} />}
      {showAppeal && record?.appealBy && (
        <p data-testid="appeal-by" className="text-xs text-slate-600">
          {t('card.appealBy', { date: formatDateTime(record.appealBy, 'IST') })}
        </p>
      )}
      {status === 'submitted' && record?.decideBy && (
        <p data-testid="decide-by" className="text-xs text-slate-600">
          {t('card.decideBy', { date: formatDateTime(record.decideBy) })}
        </p>
      )}
      {status === 'approved' && (
        <p data-testid="earned" className="text-sm font-semibold text-emerald-700">
          {t('card.earned', { amount: formatRupees(earned) })}
        </p>
      )}
      {(showStart || showSubmit || showView || showAppeal) && (
        <div className="flex flex-wrap gap-2">
          {showStart && task.taskUrl && (
            <a
              href={task.taskUrl}
              target="_blank"
              rel="noopener noreferrer"
              // The time to proof counts from the first tap (the server keeps only that one).
              onClick={() => void apiRequest('POST', `/api/tasks/${task.id}/start`).catch(() => undefined)}
              className={`${actionClasses} border border-slate-300 bg-white text-slate-800 hover:bg-slate-50 focus-visible:ring-emerald-600`}
            >
              {t(START_LABELS[kind])}
              <ExternalLinkIcon className="size-4" />
            </a>
          )}
          {showSubmit && (
            <button type="button" onClick={onOpenProof} className={`${actionClasses} bg-emerald-700 text-white hover:bg-emerald-800 focus-visible:ring-emerald-600`}>
              {status === 'needs_changes' ? t('card.resubmit') : t('card.submitProof')}
            </button>
          )}
          {showAppeal && (
            <button type="button" onClick={onOpenAppeal} className={`${actionClasses} border border-slate-300 bg-white text-slate-800 hover:bg-slate-50 focus-visible:ring-emerald-600`}>
              {t('card.appeal')}
            </button>
          )}
          {showView && (
            <button type="button" onClick={onOpenProof} className={`${actionClasses} border border-slate-300 bg-white text-slate-800 hover:bg-slate-50 focus-visible:ring-emerald-600`}>
              {t('card.viewProof')}
            </button>
          )}
        </div>
      )}
    </article>
  );
}

/** How this task's proofs were reviewed in the last 30 days: the median wait and the share approved. */
function TaskSignals({ taskId }: { taskId: string }) {
  const { t } = useTranslation('tasks');
  const { data } = useQuery(taskSignalsQuery());
  if (!data) return null;
  const signal = data.find((s) => s.taskId === taskId);
  if (!signal) return <p data-testid="task-signals" className="text-xs text-slate-600">{t('card.signals.none')}</p>;
  const minutes = signal.medianReviewMinutes;
  const wait =
    minutes < 60
      ? t('card.signals.minutes', { count: minutes })
      : minutes < 48 * 60
        ? t('card.signals.hours', { count: Math.round(minutes / 60) })
        : t('card.signals.days', { count: Math.round(minutes / 1440) });
  return (
    <p data-testid="task-signals" className="text-xs text-slate-600">
      {t('card.signals.line', { wait, percent: signal.approvalPercent, count: signal.decisions })}
    </p>
  );
}
