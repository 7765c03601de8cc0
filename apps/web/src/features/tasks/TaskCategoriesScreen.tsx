import { useQuery } from '@tanstack/react-query';
import { countTasksByList } from '@kamai/contracts';
import { LoadFailed } from '../../components/LoadFailed.tsx';
import { serverErrorMessage } from '../../lib/api.ts';
import { tasksQuery } from '../../lib/queries.ts';
import { LightbulbIcon } from '../../components/icons.tsx';
import { usePageTitle } from '../../lib/usePageTitle.ts';
import { useTranslation } from 'react-i18next';
import { CategoryCards } from './CategoryCards.tsx';
import { TaskScreenHeader } from './TaskScreenHeader.tsx';

const QUICK_TIPS = ['tips.honest', 'tips.clearProof', 'tips.checkBack'] as const;

/** /tasks/categories: the three cards with the tasks each list holds, and quick tips. */
export function TaskCategoriesScreen() {
  const { t } = useTranslation('tasks');
  usePageTitle(t('categoriesScreen.title'));
  const tasks = useQuery(tasksQuery());
  return (
    <section className="grid gap-5">
      <TaskScreenHeader title={t('categoriesScreen.title')} subtitle={t('categoriesScreen.subtitle')} />
      {tasks.isError ? (
        <LoadFailed title={t('loadFailed')} message={serverErrorMessage(tasks.error, t('common:error.body'))} error={tasks.error} onRetry={() => void tasks.refetch()} />
      ) : (
        <CategoryCards counts={tasks.data ? countTasksByList(tasks.data) : undefined} />
      )}
      <section aria-labelledby="quick-tips" className="rounded-2xl border border-amber-200 bg-amber-50 p-4">
        <h2 id="quick-tips" className="flex items-center gap-2 font-semibold text-amber-900">
          <LightbulbIcon className="size-5 text-amber-600" />
          {t('tips.title')}
        </h2>
        <ul className="mt-2 grid list-disc gap-1 pl-5 text-sm text-amber-900">
          {QUICK_TIPS.map((tip) => (
            <li key={tip}>{t(tip)}</li>
          ))}
        </ul>
      </section>
    </section>
  );
}
