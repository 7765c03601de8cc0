import { LightbulbIcon } from '../../components/icons.tsx';
import { usePageTitle } from '../../lib/usePageTitle.ts';
import { TASK_CATEGORIES } from './categories.ts';
import { CategoryCards } from './CategoryCards.tsx';
import { TaskScreenHeader } from './TaskScreenHeader.tsx';

const QUICK_TIPS = [
  'Complete tasks honestly to avoid rejection',
  'Upload clear proof screenshots',
  'Check back regularly for new tasks',
] as const;

/** /tasks/categories (spec section 2): the three cards with static counts, and quick tips. */
export function TaskCategoriesScreen() {
  usePageTitle('Task Categories');
  return (
    <section className="grid gap-5">
      <TaskScreenHeader title="Task Categories" subtitle="Pick a category and start earning rupees." />
      <CategoryCards countOf={(type) => TASK_CATEGORIES.find((category) => category.type === type)?.staticCount} />
      <section aria-labelledby="quick-tips" className="rounded-2xl border border-amber-200 bg-amber-50 p-4">
        <h2 id="quick-tips" className="flex items-center gap-2 font-semibold text-amber-900">
          <LightbulbIcon className="size-5 text-amber-600" />
          Quick tips
        </h2>
        <ul className="mt-2 grid list-disc gap-1 pl-5 text-sm text-amber-900">
          {QUICK_TIPS.map((tip) => (
            <li key={tip}>{tip}</li>
          ))}
        </ul>
      </section>
    </section>
  );
}
