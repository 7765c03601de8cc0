import { useTranslation } from 'react-i18next';
import type { UserTaskBody } from '@kamai/contracts';
import { formatDateTime } from '../../lib/format.ts';

/**
 * A proof sent back for changes: the reviewer's reason and the deadline to send it again, in India
 * time (the server's 48 hours; unanswered, it counts as rejected). On the task card and in its dialog.
 */
export function ChangesRequested({ record }: { record: UserTaskBody }) {
  const { t } = useTranslation('tasks');
  if (record.status !== 'needs_changes') return null;
  return (
    <div data-testid="changes-requested" className="grid gap-1 rounded-xl border border-orange-200 bg-orange-50 px-3 py-2 text-sm text-orange-900">
      <p className="break-words">
        <span className="font-semibold">{t('changes.reason')} </span>
        {record.changesReason}
      </p>
      {record.resubmitBy && <p className="text-xs">{t('changes.resubmitBy', { date: formatDateTime(record.resubmitBy, 'IST') })}</p>}
    </div>
  );
}

const APPEAL_TONES = {
  open: 'border-sky-200 bg-sky-50 text-sky-900',
  upheld: 'border-red-200 bg-red-50 text-red-800',
  overturned: 'border-emerald-200 bg-emerald-50 text-emerald-900',
} as const;

/** The appeal of the task's latest rejection: waiting, or decided with the deciding reviewer's reason. */
export function AppealState({ record }: { record: UserTaskBody }) {
  const { t } = useTranslation('tasks');
  const appeal = record.appeal;
  if (!appeal) return null;
  return (
    <p data-testid="appeal-state" className={`rounded-xl border px-3 py-2 text-sm break-words ${APPEAL_TONES[appeal.status]}`}>
      <span className="font-semibold">{t(`appealState.${appeal.status}`)}</span>
      {appeal.decisionReason && <> {appeal.decisionReason}</>}
    </p>
  );
}
