import { Outlet, createFileRoute, redirect } from '@tanstack/react-router';
import { SignedInLayout } from '../components/layouts.tsx';
import { currentUserQuery } from '../lib/queries.ts';

/**
 * The signed-in area: every route under it needs a user, and a signed-out visitor goes to /login.
 * The user lands in the route context, so child loaders can use it without another read.
 */
export const Route = createFileRoute('/_authed')({
  beforeLoad: async ({ context }) => {
    const user = await context.queryClient.ensureQueryData(currentUserQuery());
    if (!user) throw redirect({ to: '/login' });
    return { user };
  },
  component: SignedInArea,
});

function SignedInArea() {
  return (
    <SignedInLayout>
      <Outlet />
    </SignedInLayout>
  );
}
