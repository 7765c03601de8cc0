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
import { useLoginMutation } from './authMutations.ts';

/** Sign in with mobile number and password. Shown at /login and at / signed out. */
export function LoginScreen() {
  const { t } = useTranslation('auth');
  usePageTitle(t('login.pageTitle'));
  const navigate = useNavigate();
  // A signed-out deep link (/tasks/rating) came here with `redirect`: signing in returns there.
  const search: { redirect?: unknown } = useSearch({ strict: false });
  const returnTo = safeRedirect(search.redirect) ?? '/';
  const login = useLoginMutation();
  const form = useSchemaForm(LoginRequest, { mobile: '', password: '' });

  // mutateAsync, not mutate's callbacks: at '/' this screen unmounts as soon as the user query
  // refreshes, and the success toast and navigation must still happen.
  const onSubmit = form.handleSubmit(async (credentials) => {
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
    <section className="rounded-2xl border border-slate-200 bg-white p-6 shadow-sm">
      <h1 className="text-2xl font-bold tracking-tight">{t('login.heading')}</h1>
      <p className="mt-1 text-sm text-slate-600">{t('login.intro')}</p>
      <form noValidate onSubmit={onSubmit} className="mt-6 grid gap-4">
        <MobileField label={t('common:fields.mobile')} autoComplete="tel-national" {...form.field('mobile')} />
        <PasswordField label={t('common:fields.password')} autoComplete="current-password" placeholder={t('login.passwordPlaceholder')} {...form.field('password')} />
        <Link to="/forgot-password" className="-mt-2 inline-flex min-h-11 items-center justify-self-end text-sm font-semibold text-emerald-700 hover:underline">
          {t('login.forgot')}
        </Link>
        <Button type="submit" disabled={login.isPending} className="mt-2">
          {login.isPending ? t('login.submitting') : t('login.submit')}
        </Button>
      </form>
      <p className="mt-6 text-center text-sm text-slate-600">
        {t('login.newHere')}{' '}
        <Link to="/register" className="font-semibold text-emerald-700 hover:underline">
          {t('login.createAccount')}
        </Link>
      </p>
    </section>
  );
}
