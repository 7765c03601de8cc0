import { createFileRoute, redirect } from '@tanstack/react-router';
import { StaticPageLayout } from '../components/layouts.tsx';
import { ConsentScreen } from '../features/consent/ConsentScreen.tsx';
import { loadNamespaces } from '../i18n/index.ts';
import { currentUserQuery } from '../lib/queries.ts';

/**
 * Outside the signed-in layout, whose screens all lead here while consent is missing: signed out goes
 * to sign in, someone with a consent record goes home.
 */
export const Route = createFileRoute('/consent')({
  beforeLoad: async ({ context }) => {
    const user = await context.queryClient.ensureQueryData(currentUserQuery());
    if (!user) throw redirect({ to: '/login', search: { redirect: '/consent' } });
    if (!user.consentRequired) throw redirect({ to: '/' });
  },
  loader: () => loadNamespaces('auth'),
  component: () => (
    <StaticPageLayout>
      <ConsentScreen />
    </StaticPageLayout>
  ),
});
