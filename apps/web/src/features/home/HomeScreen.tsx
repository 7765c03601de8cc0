import { useQuery } from '@tanstack/react-query';
import { Link } from '@tanstack/react-router';
import { formatRupees } from '../../lib/format.ts';
import { currentUserQuery } from '../../lib/queries.ts';
import { usePageTitle } from '../../lib/usePageTitle.ts';

/** Home (spec section 2): greeting and total rupees earned. Renders nothing without a user. */
export function HomeScreen() {
  usePageTitle('Home');
  const { data: user } = useQuery(currentUserQuery());
  if (!user) return null;

  const name = user.firstName || user.username;
  return (
    <div className="grid gap-6">
      <header className="grid gap-1">
        <p className="text-sm text-slate-500">Welcome to Kamai</p>
        <h1 className="text-2xl font-bold tracking-tight">Hello, {name}</h1>
      </header>

      <section
        aria-labelledby="total-earned-label"
        className="rounded-2xl bg-gradient-to-br from-emerald-600 to-teal-600 p-5 text-white shadow-md"
      >
        <p id="total-earned-label" className="text-sm text-emerald-50">
          Total earned
        </p>
        <p className="mt-1 text-3xl font-bold tracking-tight" data-testid="total-rupees">
          {formatRupees(user.totalRupees)}
        </p>
      </section>

      <section aria-labelledby="tasks-heading" className="grid gap-3">
        <h2 id="tasks-heading" className="text-lg font-semibold">
          Earn with tasks
        </h2>
        <Link
          to="/tasks/categories"
          className="rounded-2xl border border-slate-200 bg-white p-5 shadow-sm transition hover:border-emerald-300"
        >
          <p className="font-semibold text-slate-900">Browse task categories</p>
          <p className="mt-1 text-sm text-slate-600">Rate apps, visit websites and play games to earn rupees.</p>
        </Link>
      </section>
    </div>
  );
}
