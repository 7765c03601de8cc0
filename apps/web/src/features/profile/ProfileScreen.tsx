import { useQuery } from '@tanstack/react-query';
import { Link } from '@tanstack/react-router';
import { currentUserQuery } from '../../lib/queries.ts';
import { usePageTitle } from '../../lib/usePageTitle.ts';
import { LogoutButton } from './LogoutButton.tsx';

/** Profile, for now: who is signed in, the static pages, and Logout. Settings dialogs come later. */
export function ProfileScreen() {
  usePageTitle('Profile');
  const { data: user } = useQuery(currentUserQuery());
  const fullName = [user?.firstName, user?.lastName].filter(Boolean).join(' ') || 'User';

  return (
    <section className="grid gap-6">
      <h1 className="text-2xl font-bold tracking-tight">Profile</h1>
      <div className="flex items-center gap-4 rounded-2xl border border-slate-200 bg-white p-5 shadow-sm">
        <span
          aria-hidden="true"
          className="grid size-14 shrink-0 place-items-center rounded-full bg-emerald-100 text-xl font-bold text-emerald-700"
        >
          {fullName.charAt(0).toUpperCase()}
        </span>
        <div className="min-w-0">
          <p className="truncate text-lg font-semibold">{fullName}</p>
          {user && <p className="text-sm text-slate-600">+91 {user.mobile}</p>}
        </div>
      </div>
      <nav aria-label="More" className="grid divide-y divide-slate-100 rounded-2xl border border-slate-200 bg-white shadow-sm">
        <Link to="/privacy-policy" className="px-5 py-4 text-sm font-medium hover:bg-slate-50">
          Privacy Policy
        </Link>
        <Link to="/delete-account" className="px-5 py-4 text-sm font-medium hover:bg-slate-50">
          Delete Account
        </Link>
      </nav>
      <LogoutButton />
    </section>
  );
}
