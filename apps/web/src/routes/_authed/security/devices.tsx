import { createFileRoute } from '@tanstack/react-router';
import { SignedInDevicesScreen } from '../../../features/security/SecurityScreens.tsx';

export const Route = createFileRoute('/_authed/security/devices')({
  // The query comes with the screen's code (imported here, it would sit in the first download).
  loader: async ({ context }) => {
    const { sessionsQuery } = await import('../../../features/security/SecurityScreens.tsx');
    void context.queryClient.prefetchQuery(sessionsQuery());
  },
  component: SignedInDevicesScreen,
});
