import { useTranslation } from 'react-i18next';
import { useId, useState } from 'react';
import * as v from 'valibot';
import { MAX_COMPLETIONS_LIMIT, MAX_ESTIMATED_MINUTES, TASK_DEFAULTS, TASK_MESSAGES, TASK_TYPES, TaskHiEntries, TaskInput, isDay, istLastDayBefore } from '@kamai/contracts';
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
function wholeNumberText(max: number, message: string, emptyAllowed: boolean) {
  return v.pipe(
    v.string(),
    v.trim(),
    v.check((text) => (text === '' ? emptyAllowed : /^\d{1,7}$/.test(text) && Number(text) >= 1 && Number(text) <= max), message),
  );
}
const TaskFormSchema = v.object({
  title: entries.title,
  description: entries.description,
  rupeeReward: entries.rupeeReward,
  taskType: entries.taskType,
  taskUrl: entries.taskUrl,
  proofInstructions: entries.proofInstructions,
  titleHi: TaskHiEntries.entries.title,
  descriptionHi: TaskHiEntries.entries.description,
  proofInstructionsHi: TaskHiEntries.entries.proofInstructions,
  // Typed as text; the API checks the same rules (TaskInput).
  estimatedMinutes: wholeNumberText(MAX_ESTIMATED_MINUTES, TASK_MESSAGES.estimatedMinutes, false),
  // Empty means no limit and no end.
  maxCompletions: wholeNumberText(MAX_COMPLETIONS_LIMIT, TASK_MESSAGES.maxCompletions, true),
  expiresOn: v.pipe(v.string(), v.trim(), v.check((text) => text === '' || isDay(text), TASK_MESSAGES.expiresOn)),
});

const HI_FIELDS: Record<string, string> = { 'hi.title': 'titleHi', 'hi.description': 'descriptionHi', 'hi.proofInstructions': 'proofInstructionsHi', estimatedTime: 'estimatedMinutes' };

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
  estimatedMinutes: String(TASK_DEFAULTS.estimatedMinutes),
  taskType: TASK_DEFAULTS.taskType,
  taskUrl: '',
  proofInstructions: '',
  titleHi: '',
  descriptionHi: '',
  proofInstructionsHi: '',
  maxCompletions: '',
  expiresOn: '',
};

function valuesOf(task: TaskBody): TextValues {
  return {
    title: task.title,
    description: task.description,
    rupeeReward: task.rupeeReward,
    // A time written with no single number ("2-5 min") asks the admin for the minutes.
    estimatedMinutes: task.estimatedMinutes === null ? '' : String(task.estimatedMinutes),
    taskType: task.taskType,
    taskUrl: task.taskUrl ?? '',
    proofInstructions: task.proofInstructions ?? '',
    titleHi: task.hi?.title ?? '',
    descriptionHi: task.hi?.description ?? '',
    proofInstructionsHi: task.hi?.proofInstructions ?? '',
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
        estimatedMinutes: Number(values.estimatedMinutes.trim()),
        taskType: values.taskType as TaskType,
        taskUrl: values.taskUrl.trim() || null,
        requiresProof,
        proofInstructions: values.proofInstructions.trim() || null,
        hi: {
          title: values.titleHi.trim() || null,
          description: values.descriptionHi.trim() || null,
          proofInstructions: values.proofInstructionsHi.trim() || null,
        },
        isActive: TASK_DEFAULTS.isActive,
        iconColor: TASK_DEFAULTS.iconColor,
        maxCompletions: values.maxCompletions.trim() === '' ? null : Number(values.maxCompletions.trim()),
        expiresOn: values.expiresOn.trim() || null,
      });
    } catch (error) {
      // The API names the Hindi fields by their path (hi.title); the form by its own names.
      const fields = Object.entries(serverFieldErrors(error)).map(([field, message]) => [HI_FIELDS[field] ?? field, message]);
      form.setServerErrors(Object.fromEntries(fields));
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
        <TextField label={t('form.minutes')} size={6} inputMode="numeric" {...form.field('estimatedMinutes')} />
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
      {/* The Hindi texts; one left empty shows the English to Hindi readers. */}
      <fieldset className="grid gap-4 rounded-xl border border-slate-200 p-3">
        <legend className="px-1 text-sm font-semibold text-slate-700">{t('form.hindi')}</legend>
        <p className="text-xs text-slate-600">{t('form.hindiHint')}</p>
        <TextField label={t('form.titleHi')} lang="hi" {...form.field('titleHi')} />
        <TextAreaField label={t('form.descriptionHi')} lang="hi" {...form.field('descriptionHi')} />
        <TextAreaField label={t('form.proofInstructionsHi')} lang="hi" {...form.field('proofInstructionsHi')} />
      </fieldset>
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
