import { Outlet, createFileRoute, redirect } from '@tanstack/react-router';
import { GuestLayout } from '../components/layouts.tsx';
import { currentUserQuery } from '../lib/queries.ts';

/** The signed-out screens (/login, /register): a signed-in user is sent home instead. */
export const Route = createFileRoute('/_guest')({
  beforeLoad: async ({ context }) => {
    const user = await context.queryClient.ensureQueryData(currentUserQuery());
    if (user) throw redirect({ to: '/' });
  },
  component: GuestArea,
});

function GuestArea() {
  return (
    <GuestLayout>
      <Outlet />
    </GuestLayout>
  );
}
