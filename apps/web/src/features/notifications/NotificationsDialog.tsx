import { useTranslation } from 'react-i18next';
import { notificationInLanguage } from '../../i18n/messages.ts';
import { serverErrorMessage } from '../../lib/api.ts';
import { useQuery } from '@tanstack/react-query';
import { useState } from 'react';
import type { ComponentType, SVGProps } from 'react';
import type { NotificationBody } from '@kamai/contracts';
import { Button, IconButton } from '../../components/Button.tsx';
import { Dialog } from '../../components/Dialog.tsx';
import { AlertTriangleIcon, BellIcon, CheckCircleIcon, CheckIcon, InfoIcon, TrashIcon, XCircleIcon } from '../../components/icons.tsx';
import { formatRelativeTime } from '../../lib/format.ts';
import { notificationsQuery, tasksQuery, userTasksQuery } from '../../lib/queries.ts';
import { Link } from '@tanstack/react-router';
import { taskListOf } from '@kamai/contracts';
import { toast } from '../../lib/toast.ts';
import { useUnreadCount } from './useUnreadCount.ts';
import { useDeleteNotificationMutation, useMarkAllReadMutation, useMarkReadMutation } from './notificationMutations.ts';

/** Notification failures show as text in the dialog, never as a toast. */
const NOTIFICATION_FAILURES = {
  markRead: 'failures.markRead',
  markAllRead: 'failures.markAllRead',
  delete: 'failures.delete',
} as const;

export function UnreadBadge({ count, className = '' }: { count: number; className?: string }) {
  const { t } = useTranslation('notifications');
  if (count === 0) return null;
  return (
    <span
      className={`inline-flex h-5 min-w-5 items-center justify-center rounded-full bg-red-700 px-1.5 text-xs font-bold text-white ${className}`}
      aria-label={t('unread', { count })}
    >
      {count > 99 ? '99+' : count}
    </span>
  );
}

/** Notifications dialog: unread badge, 'Mark All Read', per-item read and delete. */
export function NotificationsDialog({ open, onOpenChange }: { open: boolean; onOpenChange: (open: boolean) => void }) {
  const unread = useUnreadCount();
  const { t } = useTranslation('notifications');
  return (
    <Dialog open={open} onOpenChange={onOpenChange} title={t('title')} titleAside={<UnreadBadge count={unread} />}>
      <NotificationList unread={unread} />
    </Dialog>
  );
}

function NotificationList({ unread }: { unread: number }) {
  const notifications = useQuery(notificationsQuery());
  const markRead = useMarkReadMutation();
  const markAllRead = useMarkAllReadMutation();
  const remove = useDeleteNotificationMutation();
  const [failure, setFailure] = useState<string | null>(null);
  const { t } = useTranslation('notifications');

  const run = async (action: () => Promise<unknown>, failureText: string, onDone?: () => void) => {
    setFailure(null);
    try {
      await action();
    } catch {
      setFailure(failureText);
      return;
    }
    onDone?.();
  };

  const onMarkAllRead = () =>
    run(() => markAllRead.mutateAsync(), NOTIFICATION_FAILURES.markAllRead, () =>
      toast({ title: t('allRead'), description: t('allReadBody') }),
    );
  const onMarkRead = (id: string) => run(() => markRead.mutateAsync(id), NOTIFICATION_FAILURES.markRead);
  const onDelete = (id: string) =>
    run(() => remove.mutateAsync(id), NOTIFICATION_FAILURES.delete, () =>
      toast({ title: t('deleted'), description: t('deletedBody') }),
    );

  return (
    <div className="grid gap-3">
      <div className="flex items-center justify-between gap-3">
        <p className="text-sm text-slate-600">{unread === 0 ? t('caughtUp') : t('unread', { count: unread })}</p>
        {/* Offered only when something is unread (kept while its request runs, so focus stays). */}
        {(unread > 0 || markAllRead.isPending) && (
          <button
            type="button"
            onClick={() => void onMarkAllRead()}
            disabled={markAllRead.isPending}
            className="min-h-11 rounded-lg px-3 py-2 text-sm font-semibold text-emerald-700 hover:bg-emerald-50 focus:outline-none focus-visible:ring-2 focus-visible:ring-emerald-600 disabled:cursor-not-allowed disabled:text-slate-500 disabled:hover:bg-transparent"
          >
            {t('markAllRead')}
          </button>
        )}
      </div>

      {failure && (
        <p role="alert" className="rounded-xl bg-red-50 px-3 py-2 text-sm font-medium text-red-700">
          {t(failure as (typeof NOTIFICATION_FAILURES)[keyof typeof NOTIFICATION_FAILURES])}
        </p>
      )}

      {/* Spec section 9: the list is 400 px high and scrolls within. */}
      <div className="h-[400px] overflow-y-auto rounded-xl border border-slate-200" data-testid="notification-list">
        {notifications.isPending ? (
          <NotificationSkeleton />
        ) : notifications.isError ? (
          <div role="alert" className="grid h-full place-content-center gap-3 p-6 text-center text-sm text-slate-600">
            <p>{serverErrorMessage(notifications.error, t('loadFailed'))}</p>
            <Button variant="secondary" onClick={() => void notifications.refetch()}>
              {t('common:tryAgain')}
            </Button>
          </div>
        ) : notifications.data.length === 0 ? (
          <div className="grid h-full place-content-center justify-items-center gap-2 p-6 text-center">
            <span className="grid size-12 place-items-center rounded-full bg-slate-100 text-slate-400">
              <BellIcon className="size-6" />
            </span>
            <p className="font-semibold text-slate-800">{t('empty')}</p>
            <p className="text-sm text-slate-500">{t('emptyBody')}</p>
          </div>
        ) : (
          <ul aria-label={t('title')} className="divide-y divide-slate-100">
            {notifications.data.map((notification) => (
              <NotificationItem
                key={notification.id}
                notification={notification}
                onMarkRead={() => void onMarkRead(notification.id)}
                onDelete={() => void onDelete(notification.id)}
              />
            ))}
          </ul>
        )}
      </div>
    </div>
  );
}

const TYPE_ICONS: Record<string, { Icon: ComponentType<SVGProps<SVGSVGElement>>; className: string }> = {
  success: { Icon: CheckCircleIcon, className: 'bg-emerald-50 text-emerald-600' },
  warning: { Icon: AlertTriangleIcon, className: 'bg-amber-50 text-amber-600' },
  error: { Icon: XCircleIcon, className: 'bg-red-50 text-red-600' },
  info: { Icon: InfoIcon, className: 'bg-sky-50 text-sky-600' },
};

/** Spec: an icon by type; success, warning and error have their own, anything else is info. */
function notificationIcon(type: string) {
  return TYPE_ICONS[type] ?? TYPE_ICONS.info!;
}

function NotificationItem({
  notification,
  onMarkRead,
  onDelete,
}: {
  notification: NotificationBody;
  onMarkRead: () => void;
  onDelete: () => void;
}) {
  const { Icon, className } = notificationIcon(notification.type);
  const { t } = useTranslation('notifications');
  const text = notificationInLanguage(notification);
  return (
    <li
      data-type={notification.type}
      data-read={notification.isRead}
      className={`flex gap-3 px-3 py-3 ${notification.isRead ? 'bg-white' : 'bg-emerald-50/50'}`}
    >
      <span aria-hidden="true" className={`grid size-9 shrink-0 place-items-center rounded-full ${className}`}>
        <Icon className="size-5" />
      </span>
      <div className="min-w-0 flex-1">
        <p className={`text-sm ${notification.isRead ? 'font-medium text-slate-700' : 'font-semibold text-slate-900'}`}>
          {!notification.isRead && (
            <>
              <span aria-hidden="true" className="mr-1.5 inline-block size-2 rounded-full bg-emerald-500 align-middle" />
              <span className="sr-only">{t('unreadMark')} </span>
            </>
          )}
          {text.title}
        </p>
        <p className="mt-0.5 text-sm break-words text-slate-600">{text.message}</p>
        <TaskLink notification={notification} />
        <p className="mt-1 text-xs text-slate-600">
          <time dateTime={notification.createdAt}>{formatRelativeTime(notification.createdAt)}</time>
        </p>
      </div>
      <div className="flex shrink-0 flex-col gap-1">
        {!notification.isRead && (
          <IconButton
            label={t('markRead')}
            title={t('markRead')}
            onClick={onMarkRead}
            className="size-11 text-emerald-700 hover:bg-emerald-100 focus-visible:ring-emerald-600"
          >
            <CheckIcon className="size-4" />
          </IconButton>
        )}
        <IconButton
          label={t('delete')}
          title={t('deleteShort')}
          onClick={onDelete}
          className="size-11 text-slate-600 hover:bg-red-50 hover:text-red-600 focus-visible:ring-red-600"
        >
          <TrashIcon className="size-4" />
        </IconButton>
      </div>
    </li>
  );
}

/** The notifications about one of the person's proofs: they lead to the task's list, where its card shows where it stands. */
const TASK_NOTIFICATIONS: ReadonlySet<string> = new Set(['task_approved', 'proof_rejected', 'proof_needs_changes', 'appeal_upheld', 'appeal_overturned']);

/**
 * "See the task": the notification names its task (`taskId`; those written before it carried one
 * name it by the title it was submitted under, which the person's own task records carry too); none
 * when the task is gone.
 */
function TaskLink({ notification }: { notification: NotificationBody }) {
  const { t } = useTranslation('notifications');
  const about = notification.key !== undefined && TASK_NOTIFICATIONS.has(notification.key);
  const named = about ? notification.params?.taskId : undefined;
  const title = about && named === undefined ? notification.params?.taskTitle : undefined;
  const userTasks = useQuery({ ...userTasksQuery(), enabled: typeof title === 'string' });
  const tasks = useQuery({ ...tasksQuery(), enabled: about });
  const taskId = typeof named === 'string' ? named : userTasks.data?.find((record) => record.taskTitle === title)?.taskId;
  const task = taskId === undefined ? undefined : tasks.data?.find((candidate) => candidate.id === taskId);
  if (!task) return null;
  return (
    <Link to={`/tasks/${taskListOf(task)}`} className="inline-flex min-h-11 items-center text-sm font-semibold text-emerald-700 hover:underline">
      {t('seeTask')}
    </Link>
  );
}

function NotificationSkeleton() {
  const { t } = useTranslation('notifications');
  return (
    <div role="status" aria-label={t('loading')} className="divide-y divide-slate-100">
      {[0, 1, 2].map((row) => (
        <div key={row} className="flex animate-pulse gap-3 px-3 py-3">
          <span className="size-9 shrink-0 rounded-full bg-slate-200" />
          <span className="grid flex-1 gap-2">
            <span className="h-3.5 w-1/2 rounded bg-slate-200" />
            <span className="h-3 w-5/6 rounded bg-slate-100" />
          </span>
        </div>
      ))}
    </div>
  );
}
