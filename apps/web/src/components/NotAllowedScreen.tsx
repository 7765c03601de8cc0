import { Link } from '@tanstack/react-router';
import { usePageTitle } from '../lib/usePageTitle.ts';

/**
 * Shown in place of a staff screen to a signed-in user without its role. The server refuses the
 * screen's calls anyway; this keeps the page from looking broken.
 */
export function NotAllowedScreen({ what = 'this page' }: { what?: string }) {
  usePageTitle('Not allowed');
  return (
    <section className="grid gap-4 pt-10 text-center">
      <div className="rounded-2xl border border-slate-200 bg-white p-6 shadow-sm">
        <span aria-hidden="true" className="mx-auto grid size-14 place-items-center rounded-full bg-amber-100 text-amber-700">
          <svg viewBox="0 0 24 24" className="size-7" fill="none" stroke="currentColor" strokeWidth="2" strokeLinecap="round" strokeLinejoin="round">
            <rect x="4" y="11" width="16" height="10" rx="2" />
            <path d="M8 11V7a4 4 0 0 1 8 0v4" />
          </svg>
        </span>
        <h1 className="mt-4 text-2xl font-bold tracking-tight text-slate-900">Not allowed</h1>
        <p className="mt-2 text-sm text-slate-600">Your account does not have permission to open {what}.</p>
      </div>
      <Link to="/" className="text-sm font-medium text-emerald-700 hover:underline">
        Go to home
      </Link>
    </section>
  );
}
