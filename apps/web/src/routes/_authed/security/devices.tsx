import { createFileRoute } from '@tanstack/react-router';
import { SignedInDevicesScreen, sessionsQuery } from '../../../features/security/SecurityScreens.tsx';

export const Route = createFileRoute('/_authed/security/devices')({
  loader: ({ context }) => {
    void context.queryClient.prefetchQuery(sessionsQuery());
  },
  component: SignedInDevicesScreen,
});
