import { LOGIN_FORM_ERRORS, type LoginFormError } from '@kamai/contracts';

/**
 * The `auth` text of each refusal the form sign-in sends back to `/login?error=<code>`: the server's
 * form shows it (signInPage.ts) and so does LoginScreen once it has taken over, in the same place.
 */
export const LOGIN_ERROR_TEXT: Record<LoginFormError, 'login.invalid' | 'login.tooMany'> = {
  invalid_credentials: 'login.invalid',
  validation_failed: 'login.invalid',
  too_many_attempts: 'login.tooMany',
};

export function loginFormError(value: unknown): LoginFormError | undefined {
  return LOGIN_FORM_ERRORS.find((code) => code === value);
}

export const loginErrorClasses = 'text-sm font-medium text-red-600';
