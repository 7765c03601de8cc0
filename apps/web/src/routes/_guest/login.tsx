import { createFileRoute } from '@tanstack/react-router';
import { LoginScreen } from '../../features/auth/LoginScreen.tsx';

export const Route = createFileRoute('/_guest/login')({
  component: LoginScreen,
});
