import { Outlet, createFileRoute, redirect } from '@tanstack/react-router';
import { GuestLayout } from '../components/layouts.tsx';
import { loadNamespaces } from '../i18n/index.ts';
import { currentUserQuery } from '../lib/queries.ts';
import { safeRedirect } from '../lib/redirect.ts';

/** The signed-out screens (/login, /register): a signed-in user is sent home (or where /login's `redirect` says) instead. */
export const Route = createFileRoute('/_guest')({
  beforeLoad: async ({ context, search }) => {
    const user = await context.queryClient.ensureQueryData(currentUserQuery());
    if (user) throw redirect({ href: safeRedirect((search as { redirect?: unknown }).redirect) ?? '/' });
  },
  // The sign-in and registration texts, fetched while the screen's code loads.
  loader: () => loadNamespaces('auth'),
  component: GuestArea,
});

function GuestArea() {
  return (
    <GuestLayout>
      <Outlet />
    </GuestLayout>
  );
}
