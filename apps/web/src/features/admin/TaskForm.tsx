import { useId, useState } from 'react';
import * as v from 'valibot';
import { TASK_DEFAULTS, TASK_TYPES, TaskInput } from '@kamai/contracts';
import type { TaskBody, TaskInputRequest, TaskType } from '@kamai/contracts';
import { Button } from '../../components/Button.tsx';
import { TextField } from '../../components/fields.tsx';
import { TextAreaField } from '../../components/TextAreaField.tsx';
import { serverFieldErrors } from '../../lib/api.ts';
import { useSchemaForm } from '../../lib/form.ts';

/**
 * The admin's task form (spec section 5): the text fields are checked with the same rules the API
 * uses (the contracts' TaskInput entries), so title, description, reward and time are required and
 * the URL must be a URL. Every task is sent active with the blue icon colour (spec section 9).
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
});

type TextValues = Record<keyof v.InferInput<typeof TaskFormSchema>, string>;

export const TASK_TYPE_LABELS: Record<TaskType, string> = {
  rating: 'Rating',
  website: 'Website',
  game: 'Game',
};

const NEW_TASK: TextValues = {
  title: '',
  description: '',
  rupeeReward: '10',
  estimatedTime: TASK_DEFAULTS.estimatedTime,
  taskType: TASK_DEFAULTS.taskType,
  taskUrl: '',
  proofInstructions: '',
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
  const form = useSchemaForm(TaskFormSchema, task ? valuesOf(task) : NEW_TASK);
  const [requiresProof, setRequiresProof] = useState(task?.requiresProof ?? TASK_DEFAULTS.requiresProof);
  const typeId = useId();
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
      });
    } catch (error) {
      form.setServerErrors(serverFieldErrors(error));
    }
  });

  return (
    <form noValidate onSubmit={onSubmit} className="grid gap-4">
      <TextField label="Title" value={form.values.title} onValueChange={(value) => form.setValue('title', value)} error={form.errors.title} />
      <TextAreaField
        label="Description"
        value={form.values.description}
        onValueChange={(value) => form.setValue('description', value)}
        error={form.errors.description}
      />
      <div className="grid grid-cols-2 gap-3">
        <TextField
          label="Rupee reward"
          // A small intrinsic width, so the two fields share the row on a phone.
          size={6}
          inputMode="decimal"
          prefix="₹"
          value={form.values.rupeeReward}
          onValueChange={(value) => form.setValue('rupeeReward', value)}
          error={form.errors.rupeeReward}
        />
        <TextField
          label="Estimated time"
          size={6}
          value={form.values.estimatedTime}
          onValueChange={(value) => form.setValue('estimatedTime', value)}
          error={form.errors.estimatedTime}
        />
      </div>
      <div className="grid gap-1.5">
        <label htmlFor={typeId} className="text-sm font-medium text-slate-700">
          Task type
        </label>
        <select
          id={typeId}
          value={form.values.taskType}
          onChange={(event) => form.setValue('taskType', event.target.value)}
          className="h-12 w-full rounded-xl border border-slate-300 bg-white px-3 text-base shadow-sm outline-none focus:border-emerald-600 focus:ring-2 focus:ring-emerald-100"
        >
          {TASK_TYPES.map((type) => (
            <option key={type} value={type}>
              {TASK_TYPE_LABELS[type]}
            </option>
          ))}
        </select>
        {form.errors.taskType && <p className="text-sm font-medium text-red-600">{form.errors.taskType}</p>}
      </div>
      <TextField
        label="Task URL"
        inputMode="url"
        autoCapitalize="none"
        autoCorrect="off"
        placeholder="https://"
        value={form.values.taskUrl}
        onValueChange={(value) => form.setValue('taskUrl', value)}
        error={form.errors.taskUrl}
      />
      <label htmlFor={proofId} className="flex items-center gap-3 rounded-xl border border-slate-200 px-3 py-3 text-sm font-medium text-slate-700">
        <input
          id={proofId}
          type="checkbox"
          checked={requiresProof}
          onChange={(event) => setRequiresProof(event.target.checked)}
          className="size-5 rounded accent-emerald-600"
        />
        Requires proof
      </label>
      <TextAreaField
        label="Proof instructions"
        placeholder="e.g. Upload a screenshot of your review"
        value={form.values.proofInstructions}
        onValueChange={(value) => form.setValue('proofInstructions', value)}
        error={form.errors.proofInstructions}
      />
      <div className="flex gap-2">
        {onCancel && (
          <Button variant="secondary" onClick={onCancel} disabled={pending}>
            Cancel
          </Button>
        )}
        <Button type="submit" disabled={pending}>
          {pending ? pendingLabel : submitLabel}
        </Button>
      </div>
    </form>
  );
}
