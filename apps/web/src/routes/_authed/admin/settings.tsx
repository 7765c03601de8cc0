import { createFileRoute } from '@tanstack/react-router';
import { SettingsScreen } from '../../../features/settings/SettingsScreen.tsx';
import { hasRole } from '../../../lib/roles.ts';
import { settingsQuery } from '../../../lib/queries.ts';

export const Route = createFileRoute('/_authed/admin/settings')({
  loader: async ({ context: { queryClient, user } }) => {
    if (!hasRole(user, 'admin')) return;
    void queryClient.prefetchQuery(settingsQuery());
  },
  component: SettingsScreen,
});
