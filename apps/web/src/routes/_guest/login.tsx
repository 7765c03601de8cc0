import { createFileRoute } from '@tanstack/react-router';
import { LoginScreen } from '../../features/auth/LoginScreen.tsx';
import type { LoginFormError } from '@kamai/contracts';
import { loginFormError } from '../../first-screen/errors.ts';
import { safeRedirect } from '../../lib/redirect.ts';

export const Route = createFileRoute('/_guest/login')({
  // Where signing in returns to: a page of the app only, anything else is dropped.
  // And the form sign-in's refusal (POST /api/auth/login/form sends the reader back with its code).
  validateSearch: (search: Record<string, unknown>): { redirect?: string; error?: LoginFormError } => {
    const redirect = safeRedirect(search.redirect);
    const error = loginFormError(search.error);
    return { ...(redirect ? { redirect } : {}), ...(error ? { error } : {}) };
  },
  component: LoginScreen,
});
