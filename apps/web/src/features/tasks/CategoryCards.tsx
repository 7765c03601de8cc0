import { Link } from '@tanstack/react-router';
import { taskListOf } from '@kamai/contracts';
import type { TaskList, TaskType } from '@kamai/contracts';
import type { ComponentType, SVGProps } from 'react';
import { ChevronRightIcon, ClockIcon, GamepadIcon, GlobeIcon, StarIcon } from '../../components/icons.tsx';
import { useTranslation } from 'react-i18next';
import { TASK_CATEGORIES, taskCount } from './categories.ts';

const looks: Record<TaskType, { Icon: ComponentType<SVGProps<SVGSVGElement>>; tile: string }> = {
  rating: { Icon: StarIcon, tile: 'bg-amber-100 text-amber-600' },
  website: { Icon: GlobeIcon, tile: 'bg-sky-100 text-sky-600' },
  game: { Icon: GamepadIcon, tile: 'bg-violet-100 text-violet-600' },
};

/**
 * The three category cards, each a link to its list, with the number of tasks that list shows
 * (`countTasksByList`, the one rule Home and Categories share); a placeholder while they load.
 */
export function CategoryCards({ counts }: { counts: Record<TaskList, number> | undefined }) {
  const { t } = useTranslation('categories');
  return (
    <ul className="grid gap-3">
      {TASK_CATEGORIES.map((category) => {
        const { Icon, tile } = looks[category.type];
        const count = counts ? taskCount(counts[taskListOf({ taskType: category.type })]) : undefined;
        return (
          <li key={category.type}>
            <Link
              to={category.to}
              data-testid={`category-${category.type}`}
              className="flex items-center gap-4 rounded-2xl border border-slate-200 bg-white p-4 shadow-sm transition hover:border-emerald-300 focus:outline-none focus-visible:ring-2 focus-visible:ring-emerald-600 focus-visible:ring-offset-2"
            >
              <span aria-hidden="true" className={`grid size-12 shrink-0 place-items-center rounded-xl ${tile}`}>
                <Icon className="size-6" />
              </span>
              <span className="grid min-w-0 flex-1 gap-1">
                <span className="flex items-center justify-between gap-2">
                  <span className="font-semibold text-slate-900">{t(`${category.type}.title`)}</span>
                  {count === undefined ? (
                    <span aria-hidden="true" className="h-5 w-14 animate-pulse rounded-full bg-slate-100" />
                  ) : (
                    <span data-testid="category-count" className="rounded-full bg-slate-100 px-2 py-0.5 text-xs font-medium whitespace-nowrap text-slate-700">
                      {count}
                    </span>
                  )}
                </span>
                <span className="text-sm text-slate-600">{t(`${category.type}.blurb`)}</span>
                <span className="flex items-center gap-3 text-xs font-medium text-slate-500">
                  <span className="text-emerald-700">{category.rewardRange}</span>
                  <span className="flex items-center gap-1">
                    <ClockIcon className="size-3.5" />
                    {t(`${category.type}.time`)}
                  </span>
                </span>
              </span>
              <ChevronRightIcon className="size-5 shrink-0 text-slate-400" />
            </Link>
          </li>
        );
      })}
    </ul>
  );
}
