import { createFileRoute } from '@tanstack/react-router';
import { StaticPageLayout } from '../components/layouts.tsx';
import { PrivacyPolicyPage } from '../features/static-pages/PrivacyPolicyPage.tsx';

/** Reachable signed in or out, so it sits outside both layouts and has no guard. */
export const Route = createFileRoute('/privacy-policy')({
  component: () => (
    <StaticPageLayout>
      <PrivacyPolicyPage />
    </StaticPageLayout>
  ),
});
