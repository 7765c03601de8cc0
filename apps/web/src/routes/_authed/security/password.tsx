import { createFileRoute } from '@tanstack/react-router';
import { ChangePasswordScreen } from '../../../features/security/SecurityScreens.tsx';

export const Route = createFileRoute('/_authed/security/password')({
  component: ChangePasswordScreen,
});
