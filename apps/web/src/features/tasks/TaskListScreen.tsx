import { useTranslation } from 'react-i18next';
import { useQuery } from '@tanstack/react-query';
import { useState } from 'react';
import { LoadFailed } from '../../components/LoadFailed.tsx';
import { serverErrorMessage } from '../../lib/api.ts';
import { tasksQuery, userTasksQuery } from '../../lib/queries.ts';
import { usePageTitle } from '../../lib/usePageTitle.ts';
import { statusOf, tasksForList } from './filters.ts';
import type { TaskList } from './filters.ts';
import { AppealDialog } from './AppealDialog.tsx';
import { ProofDialog } from './ProofDialog.tsx';
import { TaskCard } from './TaskCard.tsx';
import { TaskScreenHeader } from './TaskScreenHeader.tsx';
import type { TaskCardKind } from './TaskCard.tsx';

/** Task list screens: each list's words live in the tasks namespace under `lists.<list>`. */
const CARD_KIND: Record<TaskList, TaskCardKind> = { rating: 'rating', website: 'website', games: 'generic' };

/** One task list screen: back link, title, subtitle, then skeletons, the cards or the empty state. */
export function TaskListScreen({ list }: { list: TaskList }) {
  const { t } = useTranslation('tasks');
  const copy = {
    title: t(`lists.${list}.title`),
    subtitle: t(`lists.${list}.subtitle`),
    emptyTitle: t(`lists.${list}.emptyTitle`),
    emptyText: t(`lists.${list}.emptyText`),
    kind: CARD_KIND[list],
  };
  usePageTitle(copy.title);
  const tasks = useQuery(tasksQuery());
  const userTasks = useQuery(userTasksQuery());
  const [openTaskId, setOpenTaskId] = useState<string | null>(null);
  const [appealTaskId, setAppealTaskId] = useState<string | null>(null);

  const listed = tasks.data ? tasksForList(tasks.data, list) : [];
  const recordOf = (taskId: string) => userTasks.data?.find((record) => record.taskId === taskId);
  const openTask = listed.find((task) => task.id === openTaskId) ?? null;
  const appealTask = listed.find((task) => task.id === appealTaskId) ?? null;
  const failed = tasks.error ?? userTasks.error;

  return (
    <section className="grid gap-5">
      <TaskScreenHeader title={copy.title} subtitle={copy.subtitle} />

      {failed ? (
        <LoadFailed
          title={t('loadFailed')}
          message={serverErrorMessage(failed, t('common:error.body'))}
          error={failed}
          onRetry={() => void Promise.all([tasks.refetch(), userTasks.refetch()])}
        />
      ) : tasks.isPending || userTasks.isPending ? (
        <TaskSkeletons />
      ) : listed.length === 0 ? (
        <div className="grid justify-items-center gap-2 rounded-2xl border border-dashed border-slate-300 bg-white px-5 py-10 text-center">
          <p className="font-semibold text-slate-900">{copy.emptyTitle}</p>
          <p className="text-sm text-slate-600">{copy.emptyText}</p>
        </div>
      ) : (
        <ul className="grid gap-3">
          {listed.map((task) => (
            <li key={task.id}>
              <TaskCard
                task={task}
                record={recordOf(task.id)}
                status={statusOf(task.id, userTasks.data)}
                kind={copy.kind}
                onOpenProof={() => setOpenTaskId(task.id)}
                onOpenAppeal={() => setAppealTaskId(task.id)}
              />
            </li>
          ))}
        </ul>
      )}

      <ProofDialog
        task={openTask}
        record={openTask ? recordOf(openTask.id) : undefined}
        status={openTask ? statusOf(openTask.id, userTasks.data) : 'pending'}
        onClose={() => setOpenTaskId(null)}
      />
      <AppealDialog task={appealTask} record={appealTask ? recordOf(appealTask.id) : undefined} onClose={() => setAppealTaskId(null)} />
    </section>
  );
}

function TaskSkeletons() {
  const { t } = useTranslation('tasks');
  return (
    <div role="status" aria-label={t('loading')} className="grid gap-3">
      {[0, 1, 2].map((index) => (
        <div key={index} aria-hidden="true" className="grid animate-pulse gap-3 rounded-2xl border border-slate-200 bg-white p-4">
          <div className="flex justify-between gap-3">
            <div className="h-5 w-2/3 rounded bg-slate-200" />
            <div className="h-5 w-20 rounded-full bg-slate-100" />
          </div>
          <div className="h-4 w-full rounded bg-slate-100" />
          <div className="h-4 w-4/5 rounded bg-slate-100" />
          <div className="h-11 w-full rounded-xl bg-slate-100" />
        </div>
      ))}
    </div>
  );
}
