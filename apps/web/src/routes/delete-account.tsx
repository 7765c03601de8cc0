import { createFileRoute } from '@tanstack/react-router';
import { StaticPageLayout } from '../components/layouts.tsx';
import { DeleteAccountPage } from '../features/static-pages/DeleteAccountPage.tsx';

/** Reachable signed in or out, so it sits outside both layouts and has no guard. */
export const Route = createFileRoute('/delete-account')({
  component: () => (
    <StaticPageLayout>
      <DeleteAccountPage />
    </StaticPageLayout>
  ),
});
