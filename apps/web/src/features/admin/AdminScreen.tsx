import { useTranslation } from 'react-i18next';
import { useQuery } from '@tanstack/react-query';
import { Link } from '@tanstack/react-router';
import { useState } from 'react';
import { TASK_MESSAGES, type TaskBody, type TaskFiguresBody, type TaskInputRequest, istLastDayBefore } from '@kamai/contracts';
import { Button, IconButton } from '../../components/Button.tsx';
import { DialogActions } from '../../components/DialogParts.tsx';
import { Dialog } from '../../components/Dialog.tsx';
import { LoadFailed } from '../../components/LoadFailed.tsx';
import { StaffPage, StaffPageHeader } from '../../components/StaffPage.tsx';
import { PencilIcon, TrashIcon } from '../../components/icons.tsx';
import { serverMessage } from '../../i18n/messages.ts';
import { errorStatus, serverErrorMessage } from '../../lib/api.ts';
import { formatDate, formatRupees } from '../../lib/format.ts';
import { adminTaskFiguresQuery, adminTaskQuery, adminTasksQuery } from '../../lib/queries.ts';
import { toast } from '../../lib/toast.ts';
import { useSendOnce } from '../../lib/sendOnce.ts';
import { RewardAndTime } from '../tasks/TaskCard.tsx';
import { useTaskTexts } from '../tasks/taskText.tsx';
import { useCreateTaskMutation, useDeleteTaskMutation, useUpdateTaskMutation } from './adminMutations.ts';
import { TASK_TYPE_LABELS, TaskForm } from './TaskForm.tsx';

/**
 * /admin: counts of all and active tasks, the Add Task form, and the
 * catalogue with edit and delete, inactive tasks flagged. Only for the admin role; the server
 * refuses the calls of anyone else, and the screen tells them so instead of failing.
 */
export function AdminScreen() {
  const { t } = useTranslation('admin');
  return (
    <StaffPage role="admin" what={t('what')}>
      <AdminPanel />
    </StaffPage>
  );
}

function AdminPanel() {
  const { t } = useTranslation('admin');
  const tasks = useQuery(adminTasksQuery());
  const figures = useQuery(adminTaskFiguresQuery());
  const figuresOf = new Map((figures.data ?? []).map((f) => [f.taskId, f]));
  const create = useCreateTaskMutation();
  const creating = useSendOnce();
  const [addFormKey, setAddFormKey] = useState(0);
  const [editing, setEditing] = useState<TaskBody | null>(null);
  const [deleting, setDeleting] = useState<TaskBody | null>(null);

  const total = tasks.data?.length;
  const active = tasks.data?.filter((task) => task.isActive).length;

  const onCreate = async (body: TaskInputRequest) => {
    let sent;
    try {
      sent = await creating.send(() => create.mutateAsync(body));
    } catch (error) {
      toast({ variant: 'destructive', title: t('createFailed'), description: serverErrorMessage(error, t('pleaseRetry')) });
      throw error;
    }
    if (!sent) return;
    toast({ title: t('created') });
    // A fresh form, back to the defaults.
    setAddFormKey((key) => key + 1);
  };

  return (
    <section className="grid gap-6">
      <StaffPageHeader title={t('title')} intro={t('intro')}>
        <Link to="/admin/review" className="inline-flex min-h-11 w-fit items-center text-sm font-medium text-emerald-700 hover:underline">
          {t('openReview')}
        </Link>
      </StaffPageHeader>

      <dl className="grid grid-cols-2 gap-3">
        <div className="rounded-2xl border border-slate-200 bg-white p-4 shadow-sm">
          <dt className="text-sm text-slate-600">{t('total')}</dt>
          <dd data-testid="total-tasks" className="mt-1 text-2xl font-bold">
            {total ?? '–'}
          </dd>
        </div>
        <div className="rounded-2xl border border-slate-200 bg-white p-4 shadow-sm">
          <dt className="text-sm text-slate-600">{t('active')}</dt>
          <dd data-testid="active-tasks" className="mt-1 text-2xl font-bold text-emerald-700">
            {active ?? '–'}
          </dd>
        </div>
      </dl>

      {/* At a desk the Add Task form and the catalogue sit side by side (the form first, as a phone
          shows it, so reading and Tab order match what is seen); on a phone they stack. */}
      <div data-testid="admin-columns" className="grid gap-6 lg:grid-cols-[minmax(0,2fr)_minmax(0,3fr)] lg:items-start">
        <section aria-labelledby="add-task-heading" className="grid gap-4 rounded-2xl border border-slate-200 bg-white p-5 shadow-sm">
          <h2 id="add-task-heading" className="text-lg font-semibold">
            {t('add')}
          </h2>
          <TaskForm key={addFormKey} submitLabel={t('add')} pendingLabel={t('adding')} pending={creating.busy} onSave={onCreate} />
        </section>

        <section aria-labelledby="catalogue-heading" className="grid gap-3">
          <h2 id="catalogue-heading" className="text-lg font-semibold">
            {t('all')}
          </h2>
          {tasks.isPending ? (
            <div role="status" aria-label={t('loading')} className="grid gap-3">
              {[0, 1].map((index) => (
                <div key={index} className="h-24 animate-pulse rounded-2xl bg-white shadow-sm" />
              ))}
            </div>
          ) : tasks.isError ? (
            <LoadFailed message={serverErrorMessage(tasks.error, t('loadFailed'))} error={tasks.error} onRetry={() => void tasks.refetch()} />
          ) : tasks.data.length === 0 ? (
            <p className="rounded-2xl border border-dashed border-slate-300 bg-white p-5 text-center text-sm text-slate-600">
              {t('empty')}
            </p>
          ) : (
            <ul className="grid gap-3 xl:grid-cols-2">
              {tasks.data.map((task) => (
                <li key={task.id}>
                  <AdminTaskRow task={task} figures={figuresOf.get(task.id)} onEdit={() => setEditing(task)} onDelete={() => setDeleting(task)} />
                </li>
              ))}
            </ul>
          )}
        </section>
      </div>

      <EditTaskDialog task={editing} onClose={() => setEditing(null)} />
      <DeleteTaskDialog task={deleting} onClose={() => setDeleting(null)} />
    </section>
  );
}

function AdminTaskRow({ task, figures, onEdit, onDelete }: { task: TaskBody; figures: TaskFiguresBody | undefined; onEdit: () => void; onDelete: () => void }) {
  const titleId = `admin-task-${task.id}`;
  const { t } = useTranslation('admin');
  const texts = useTaskTexts(task);
  return (
    <article
      aria-labelledby={titleId}
      data-testid="admin-task"
      className={`grid gap-2 rounded-2xl border bg-white p-4 shadow-sm ${task.isActive ? 'border-slate-200' : 'border-dashed border-slate-300 opacity-80'}`}
    >
      <div className="flex items-start justify-between gap-3">
        <div className="grid min-w-0 gap-1">
          <h3 id={titleId} lang={texts.title.lang} className="font-semibold break-words text-slate-900">
            {texts.title.text}
          </h3>
          <div className="flex flex-wrap items-center gap-2 text-xs">
            <span className="rounded-full bg-slate-100 px-2 py-0.5 font-medium text-slate-700">{t(TASK_TYPE_LABELS[task.taskType])}</span>
            {!task.isActive && <span className="rounded-full bg-amber-100 px-2 py-0.5 font-semibold text-amber-800">{t('inactive')}</span>}
            {task.requiresProof && <span className="rounded-full bg-sky-50 px-2 py-0.5 font-medium text-sky-700">{t('proof')}</span>}
          </div>
        </div>
        <div className="flex shrink-0 gap-1">
          <IconButton label={t('edit', { title: texts.title.text })} onClick={onEdit} className="size-11 text-slate-600 hover:bg-slate-100 focus-visible:ring-emerald-600">
            <PencilIcon className="size-5" />
          </IconButton>
          <IconButton label={t('delete', { title: texts.title.text })} onClick={onDelete} className="size-11 text-red-600 hover:bg-red-50 focus-visible:ring-red-600">
            <TrashIcon className="size-5" />
          </IconButton>
        </div>
      </div>
      <p lang={texts.description.lang} className="line-clamp-2 text-sm text-slate-600">
        {texts.description.text}
      </p>
      <RewardAndTime task={task} />
      {figures && <TaskFigures figures={figures} maxCompletions={task.maxCompletions} />}
    </article>
  );
}

/** What a task costs and how its review goes: slots, money approved and under review, approval rate, end. */
function TaskFigures({ figures, maxCompletions }: { figures: TaskFiguresBody; maxCompletions: number | null }) {
  const { t } = useTranslation('admin');
  // The end is stored as the first instant after the last day; the admin typed (and reads) the last day.
  const lastDay = figures.expiresAt === null ? null : formatDate(`${istLastDayBefore(figures.expiresAt)}T12:00:00+05:30`);
  return (
    <ul data-testid="task-figures" className="flex flex-wrap gap-x-3 gap-y-1 text-xs text-slate-700">
      <li>
        {maxCompletions === null ? t('figures.slotsUnlimited', { used: figures.slotsUsed }) : t('figures.slots', { used: figures.slotsUsed, max: maxCompletions })}
        {figures.slotsLeft === 0 && <span className="ml-1 rounded-full bg-amber-100 px-2 font-semibold text-amber-800">{t('figures.full')}</span>}
      </li>
      <li>{t('figures.approved', { amount: formatRupees(figures.approvedRupees) })}</li>
      <li>{t('figures.underReview', { amount: formatRupees(figures.underReviewRupees) })}</li>
      <li>{figures.approvalRate === null ? t('figures.noRate') : t('figures.rate', { rate: `${Math.round(figures.approvalRate * 100)}%` })}</li>
      {lastDay && <li>{t(figures.expired ? 'figures.expired' : 'figures.expires', { date: lastDay })}</li>}
    </ul>
  );
}

/**
 * Edits are made on the revision the dialog loaded (its ETag). When another admin changed the task
 * meanwhile, the server answers 412: the dialog says so and reloads the task, so the admin sees the
 * newer version before saving again.
 */
/**
 * A task dialog's revision: the task as the dialog loaded it (with its ETag), and what a write made
 * on a revision another admin has since moved past (412) does: the notice, a toast, and a reload.
 */
function useTaskRevision(task: TaskBody | null, onClose: () => void, failedTitle: string) {
  const { t } = useTranslation('admin');
  const current = useQuery({ ...adminTaskQuery(task?.id ?? ''), enabled: task !== null });
  const [changed, setChanged] = useState(false);

  const close = () => {
    setChanged(false);
    onClose();
  };

  /** Runs `write` on the loaded revision: true when it went through, false when it was stale; other failures are toasted and thrown. */
  const writeOnRevision = async (write: (id: string, etag: string) => Promise<unknown>): Promise<boolean> => {
    if (!task || !current.data) return false;
    try {
      await write(task.id, current.data.etag);
      return true;
    } catch (error) {
      if (errorStatus(error) === 412) {
        setChanged(true);
        toast({ variant: 'destructive', title: failedTitle, description: changedBySomeoneElse() });
        await current.refetch();
        return false;
      }
      toast({ variant: 'destructive', title: failedTitle, description: serverErrorMessage(error, t('pleaseRetry')) });
      throw error;
    }
  };

  return { current, changed, close, writeOnRevision };
}

/**
 * Edits are made on the revision the dialog loaded (its ETag). When another admin changed the task
 * meanwhile, the server answers 412: the dialog says so and reloads the task, so the admin sees the
 * newer version before saving again.
 */
function EditTaskDialog({ task, onClose }: { task: TaskBody | null; onClose: () => void }) {
  const update = useUpdateTaskMutation();
  const saving = useSendOnce(task !== null);
  const { t } = useTranslation('admin');
  const { current, changed, close, writeOnRevision } = useTaskRevision(task, onClose, t('updateFailed'));

  // A refusal other than a stale revision is thrown on, so the form can mark the fields it names.
  const onSave = async (body: TaskInputRequest) => {
    // A second press would write on the revision the first one replaced: it is ignored.
    const sent = await saving.send(() => writeOnRevision((id, etag) => update.mutateAsync({ id, task: body, etag })));
    if (!sent?.value) return;
    toast({ title: t('updated') });
    close();
  };

  return (
    <Dialog open={task !== null} onOpenChange={(open) => !open && close()} busy={saving.busy} title={t('editTitle')}>
      {changed && <ChangedNotice />}
      {task && current.isError && (
        <LoadFailed message={serverErrorMessage(current.error, t('loadTaskFailed'))} error={current.error} onRetry={() => void current.refetch()} />
      )}
      {task && !current.data && !current.isError && (
        <div role="status" aria-label={t('loadingTask')} className="h-40 animate-pulse rounded-2xl bg-slate-100" />
      )}
      {task && current.data && (
        <TaskForm
          // A reloaded revision starts a fresh form with its values.
          key={`${task.id} ${current.data.etag}`}
          task={current.data.task}
          submitLabel={t('save')}
          pendingLabel={t('saving')}
          pending={saving.busy}
          onSave={onSave}
          onCancel={close}
        />
      )}
    </Dialog>
  );
}

/** The server's 412 text, by its key in the reader's language. */
const changedBySomeoneElse = () => serverMessage({ key: 'task.changedBySomeoneElse' }, TASK_MESSAGES.changedBySomeoneElse);

function ChangedNotice() {
  const { t } = useTranslation('admin');
  return (
    <p role="alert" className="rounded-xl border border-amber-300 bg-amber-50 p-3 text-sm text-amber-900">
      {t('changedNotice', { message: changedBySomeoneElse() })}
    </p>
  );
}

function DeleteTaskDialog({ task, onClose }: { task: TaskBody | null; onClose: () => void }) {
  const remove = useDeleteTaskMutation();
  const deleting = useSendOnce(task !== null);
  const { t } = useTranslation('admin');
  const { current, changed, close, writeOnRevision } = useTaskRevision(task, onClose, t('deleteFailed'));

  const onDelete = async () => {
    // Any other refusal was toasted; the dialog stays open for another try.
    const deleted = await deleting.send(() => writeOnRevision((id, etag) => remove.mutateAsync({ id, etag }))).catch(() => undefined);
    if (!deleted?.value) return;
    toast({ title: t('deleted') });
    close();
  };

  const shown = current.data?.task ?? task;
  return (
    <Dialog
      open={task !== null}
      onOpenChange={(open) => !open && close()}
      busy={deleting.busy}
      title={t('deleteTitle')}
      description={shown ? t('deleteQuestion', { title: shown.title }) : undefined}
    >
      {changed && <ChangedNotice />}
      <DialogActions cancelLabel={t('common:cancel')} onCancel={close} busy={deleting.busy} onConfirm={() => void onDelete()} variant="danger" disabled={!current.data}>
        {deleting.busy ? t('deleting') : t('deleteShort')}
      </DialogActions>
    </Dialog>
  );
}
