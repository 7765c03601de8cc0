import { createFileRoute } from '@tanstack/react-router';
import { WebhooksScreen } from '../../../features/webhooks/WebhooksScreen.tsx';
import { hasRole } from '../../../lib/roles.ts';

export const Route = createFileRoute('/_authed/admin/webhooks')({
  // The query comes with the screen's code (imported here, it would sit in the first download).
  loader: async ({ context: { queryClient, user } }) => {
    if (!hasRole(user, 'admin')) return;
    const { webhooksQuery } = await import('../../../features/webhooks/webhookQueries.ts');
    void queryClient.prefetchQuery(webhooksQuery());
  },
  component: WebhooksScreen,
});
