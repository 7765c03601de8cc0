import type { UserTaskStatus } from '@kamai/contracts';
import { useTranslation } from 'react-i18next';
import { STATUS_LABEL_KEYS } from './filters.ts';

const tones: Record<UserTaskStatus, string> = {
  pending: 'bg-slate-100 text-slate-700',
  submitted: 'bg-amber-100 text-amber-800',
  approved: 'bg-emerald-100 text-emerald-800',
  rejected: 'bg-red-100 text-red-700',
  needs_changes: 'bg-orange-100 text-orange-800',
};

/** The task status badge: Not Started, Under Review, Completed or Rejected. */
export function StatusBadge({ status }: { status: UserTaskStatus }) {
  const { t } = useTranslation('tasks');
  return (
    <span
      data-testid="task-status"
      className={`inline-flex shrink-0 items-center rounded-full px-2.5 py-0.5 text-xs font-semibold whitespace-nowrap ${tones[status]}`}
    >
      {t(STATUS_LABEL_KEYS[status])}
    </span>
  );
}
