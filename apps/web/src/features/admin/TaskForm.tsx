import { useTranslation } from 'react-i18next';
import { useId, useState } from 'react';
import * as v from 'valibot';
import { MAX_COMPLETIONS_LIMIT, TASK_DEFAULTS, TASK_MESSAGES, TASK_TYPES, TaskInput, isDay, istLastDayBefore } from '@kamai/contracts';
import type { TaskBody, TaskInputRequest, TaskType } from '@kamai/contracts';
import { Button } from '../../components/Button.tsx';
import { SelectField, TextAreaField, TextField } from '../../components/fields.tsx';
import { serverFieldErrors } from '../../lib/api.ts';
import { useSchemaForm } from '../../lib/form.ts';

/**
 * The admin's task form: the text fields are checked with the same rules the API
 * uses (the contracts' TaskInput entries), so title, description, reward and time are required and
 * the URL must be a URL. Every task is sent active with the blue icon colour.
 */
const { entries } = TaskInput.pipe[0];
const TaskFormSchema = v.object({
  title: entries.title,
  description: entries.description,
  rupeeReward: entries.rupeeReward,
  estimatedTime: entries.estimatedTime,
  taskType: entries.taskType,
  taskUrl: entries.taskUrl,
  proofInstructions: entries.proofInstructions,
  // Typed as text: empty means no limit and no end; the API checks the same rules (TaskInput).
  maxCompletions: v.pipe(
    v.string(),
    v.trim(),
    v.check((text) => text === '' || (/^\d{1,7}$/.test(text) && Number(text) >= 1 && Number(text) <= MAX_COMPLETIONS_LIMIT), TASK_MESSAGES.maxCompletions),
  ),
  expiresOn: v.pipe(v.string(), v.trim(), v.check((text) => text === '' || isDay(text), TASK_MESSAGES.expiresOn)),
});

type TextValues = Record<keyof v.InferInput<typeof TaskFormSchema>, string>;

/** Locale keys (admin namespace) of the task types: Rating, Website, Game. */
export const TASK_TYPE_LABELS = {
  rating: 'types.rating',
  website: 'types.website',
  game: 'types.game',
} as const satisfies Record<TaskType, string>;

const NEW_TASK: TextValues = {
  title: '',
  description: '',
  rupeeReward: '10',
  estimatedTime: TASK_DEFAULTS.estimatedTime,
  taskType: TASK_DEFAULTS.taskType,
  taskUrl: '',
  proofInstructions: '',
  maxCompletions: '',
  expiresOn: '',
};

function valuesOf(task: TaskBody): TextValues {
  return {
    title: task.title,
    description: task.description,
    rupeeReward: task.rupeeReward,
    estimatedTime: task.estimatedTime,
    taskType: task.taskType,
    taskUrl: task.taskUrl ?? '',
    proofInstructions: task.proofInstructions ?? '',
    maxCompletions: task.maxCompletions === null ? '' : String(task.maxCompletions),
    expiresOn: task.expiresAt === null ? '' : istLastDayBefore(task.expiresAt),
  };
}

interface TaskFormProps {
  /** The task being edited; a new task's form starts from the defaults. */
  task?: TaskBody;
  submitLabel: string;
  pendingLabel: string;
  pending: boolean;
  /** Sends the body; rejects with the API's error so the form can mark the fields it names. */
  onSave: (body: TaskInputRequest) => Promise<unknown>;
  onCancel?: () => void;
}

export function TaskForm({ task, submitLabel, pendingLabel, pending, onSave, onCancel }: TaskFormProps) {
  const { t } = useTranslation('admin');
  const form = useSchemaForm(TaskFormSchema, task ? valuesOf(task) : NEW_TASK);
  const [requiresProof, setRequiresProof] = useState(task?.requiresProof ?? TASK_DEFAULTS.requiresProof);
  const proofId = useId();

  const onSubmit = form.handleSubmit(async () => {
    const { values } = form;
    try {
      await onSave({
        title: values.title.trim(),
        description: values.description.trim(),
        rupeeReward: values.rupeeReward.trim(),
        estimatedTime: values.estimatedTime.trim(),
        taskType: values.taskType as TaskType,
        taskUrl: values.taskUrl.trim() || null,
        requiresProof,
        proofInstructions: values.proofInstructions.trim() || null,
        isActive: TASK_DEFAULTS.isActive,
        iconColor: TASK_DEFAULTS.iconColor,
        maxCompletions: values.maxCompletions.trim() === '' ? null : Number(values.maxCompletions.trim()),
        expiresOn: values.expiresOn.trim() || null,
      });
    } catch (error) {
      form.setServerErrors(serverFieldErrors(error));
    }
  });

  return (
    <form noValidate onSubmit={onSubmit} className="grid gap-4">
      <TextField label={t('form.title')} {...form.field('title')} />
      <TextAreaField label={t('form.description')} {...form.field('description')} />
      <div className="grid grid-cols-2 gap-3">
        <TextField
          label={t('form.reward')}
          // A small intrinsic width, so the two fields share the row on a phone.
          size={6}
          inputMode="decimal"
          prefix="₹"
          {...form.field('rupeeReward')}
        />
        <TextField label={t('form.time')} size={6} {...form.field('estimatedTime')} />
      </div>
      <SelectField label={t('form.type')} {...form.field('taskType')}>
        {TASK_TYPES.map((type) => (
          <option key={type} value={type}>
            {t(TASK_TYPE_LABELS[type])}
          </option>
        ))}
      </SelectField>
      <TextField
        label={t('form.url')}
        inputMode="url"
        autoCapitalize="none"
        autoCorrect="off"
        placeholder="https://"
        {...form.field('taskUrl')}
      />
      <div className="grid grid-cols-1 gap-3 sm:grid-cols-2">
        <TextField label={t('form.maxCompletions')} hint={t('form.maxCompletionsHint')} size={6} inputMode="numeric" {...form.field('maxCompletions')} />
        <TextField label={t('form.expiresOn')} hint={t('form.expiresOnHint')} type="date" {...form.field('expiresOn')} />
      </div>
      <label htmlFor={proofId} className="flex items-center gap-3 rounded-xl border border-slate-200 px-3 py-3 text-sm font-medium text-slate-700">
        <input
          id={proofId}
          type="checkbox"
          checked={requiresProof}
          onChange={(event) => setRequiresProof(event.target.checked)}
          className="size-5 rounded accent-emerald-600"
        />
        {t('form.requiresProof')}
      </label>
      <TextAreaField
        label={t('form.proofInstructions')}
        placeholder={t('form.proofPlaceholder')}
        {...form.field('proofInstructions')}
      />
      <div className="flex gap-2">
        {onCancel && (
          <Button variant="secondary" onClick={onCancel} disabled={pending}>
            {t('common:cancel')}
          </Button>
        )}
        <Button type="submit" disabled={pending}>
          {pending ? pendingLabel : submitLabel}
        </Button>
      </div>
    </form>
  );
}
