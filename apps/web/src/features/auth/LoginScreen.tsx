import { Link, useNavigate, useSearch } from '@tanstack/react-router';
import { LoginRequest } from '@kamai/contracts';
import { Button } from '../../components/Button.tsx';
import { MobileField, PasswordField } from '../../components/fields.tsx';
import { serverErrorMessage, serverFieldErrors } from '../../lib/serverError.ts';
import { useSchemaForm } from '../../lib/form.ts';
import { safeRedirect } from '../../lib/redirect.ts';
import { toast } from '../../lib/toast.ts';
import { usePageTitle } from '../../lib/usePageTitle.ts';
import { useTranslation } from 'react-i18next';
import { useLayoutEffect, useRef, useState } from 'react';
import { LOGIN_ERROR_TEXT, loginErrorClasses, loginFormError } from '../../first-screen/errors.ts';
import { takeOverDrawnForm, typedBeforeTheApp } from '../../first-screen/takeover.ts';
import { cardClasses, forgotLinkClasses, linkClasses } from '../../components/styles.ts';
import { useLoginMutation } from './authMutations.ts';

/** How takeOverDrawnForm finds the app's fields in its form. */
const TAKEOVER_FIELDS = { mobile: 'input[type="tel"]', password: 'input[autocomplete="current-password"]' } as const;

/** Sign in with mobile number and password. Shown at /login and at / signed out. */
export function LoginScreen() {
  const { t } = useTranslation('auth');
  usePageTitle(t('login.pageTitle'));
  const navigate = useNavigate();
  // A signed-out deep link (/tasks/rating) came here with `redirect`: signing in returns there.
  const search: { redirect?: unknown; error?: unknown } = useSearch({ strict: false });
  const returnTo = safeRedirect(search.redirect) ?? '/';
  const login = useLoginMutation();
  // The server drew this form into the page before the app came (first-screen/): what was typed there stays.
  const [typed] = useState(typedBeforeTheApp);
  const form = useSchemaForm(LoginRequest, typed ?? { mobile: '', password: '' });
  const formElement = useRef<HTMLFormElement>(null);
  useLayoutEffect(() => takeOverDrawnForm(formElement.current, TAKEOVER_FIELDS, form.setValue), []);
  // The form sign-in's refusal (`/login?error=…`), in the place the server's form showed it, until the next try.
  const [formError, setFormError] = useState(() => loginFormError(search.error));

  // mutateAsync, not mutate's callbacks: at '/' this screen unmounts as soon as the user query
  // refreshes, and the success toast and navigation must still happen.
  const onSubmit = form.handleSubmit(async (credentials) => {
    setFormError(undefined);
    try {
      await login.mutateAsync(credentials);
    } catch (error) {
      form.setServerErrors(serverFieldErrors(error));
      toast({
        variant: 'destructive',
        title: t('login.failed'),
        description: serverErrorMessage(error, t('login.invalid')),
      });
      return;
    }
    toast({ title: t('login.welcomeBack'), description: t('login.loggedIn') });
    void navigate({ href: returnTo });
  });

  return (
    <section className={cardClasses}>
      <h1 className="text-2xl font-bold tracking-tight">{t('login.heading')}</h1>
      <p className="mt-1 text-sm text-slate-600">{t('login.intro')}</p>
      <form ref={formElement} noValidate onSubmit={onSubmit} className="mt-6 grid gap-4">
        {formError && (
          <p role="alert" className={loginErrorClasses}>
            {t(LOGIN_ERROR_TEXT[formError])}
          </p>
        )}
        <MobileField label={t('common:fields.mobile')} autoComplete="tel-national" {...form.field('mobile')} />
        <PasswordField label={t('common:fields.password')} autoComplete="current-password" placeholder={t('login.passwordPlaceholder')} {...form.field('password')} />
        <Link to="/forgot-password" className={forgotLinkClasses}>
          {t('login.forgot')}
        </Link>
        <Button type="submit" disabled={login.isPending} className="mt-2">
          {login.isPending ? t('login.submitting') : t('login.submit')}
        </Button>
      </form>
      <p className="mt-6 text-center text-sm text-slate-600">
        {t('login.newHere')}{' '}
        <Link to="/register" className={linkClasses}>
          {t('login.createAccount')}
        </Link>
      </p>
    </section>
  );
}
