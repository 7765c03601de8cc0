import { createFileRoute } from '@tanstack/react-router';
import { LoginScreen } from '../../features/auth/LoginScreen.tsx';
import { safeRedirect } from '../../lib/redirect.ts';

export const Route = createFileRoute('/_guest/login')({
  // Where signing in returns to: a page of the app only, anything else is dropped.
  validateSearch: (search: Record<string, unknown>): { redirect?: string } => {
    const redirect = safeRedirect(search.redirect);
    return redirect ? { redirect } : {};
  },
  component: LoginScreen,
});
