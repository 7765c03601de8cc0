import { useTranslation } from 'react-i18next';
import type { TaskBody } from '@kamai/contracts';

/**
 * A task text as a reader sees it: the Hindi where the task has one, otherwise the English, marked
 * `lang="en"` on a Hindi page so a screen reader switches voice and the browser hyphenates right.
 */
export interface ReaderText {
  text: string;
  lang: 'en' | undefined;
}

export function readerText(english: string, hindi: string | null | undefined, language: string): ReaderText {
  if (language !== 'hi') return { text: english, lang: undefined };
  return hindi ? { text: hindi, lang: undefined } : { text: english, lang: 'en' };
}

/** The task's title, description and proof instructions in the reader's language. */
export function useTaskTexts(task: Pick<TaskBody, 'title' | 'description' | 'proofInstructions' | 'hi'>) {
  const { i18n } = useTranslation();
  const language = i18n.language;
  return {
    title: readerText(task.title, task.hi?.title, language),
    description: readerText(task.description, task.hi?.description, language),
    proofInstructions: task.proofInstructions === null ? null : readerText(task.proofInstructions, task.hi?.proofInstructions, language),
  };
}

/** "5 min" / "5 मिनट"; a time written as text with no single number of minutes ("2-5 min") shows as written. */
export function EstimatedTime({ task }: { task: Pick<TaskBody, 'estimatedTime' | 'estimatedMinutes'> }) {
  const { t, i18n } = useTranslation('tasks');
  if (task.estimatedMinutes !== null) return <>{t('minutes', { count: task.estimatedMinutes })}</>;
  return <span lang={i18n.language === 'hi' ? 'en' : undefined}>{task.estimatedTime}</span>;
}
