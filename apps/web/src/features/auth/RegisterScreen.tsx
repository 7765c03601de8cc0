import { useTranslation } from 'react-i18next';
import { Link, useNavigate, useSearch } from '@tanstack/react-router';
import { CONSENT_MESSAGE, InviteCodeInput, RegisterRequest } from '@kamai/contracts';
import { useId } from 'react';
import * as v from 'valibot';
import { Button } from '../../components/Button.tsx';
import { MobileField, NameFields, PasswordField, TextField } from '../../components/fields.tsx';
import { i18n } from '../../i18n/index.ts';
import { useServerTexts } from '../../i18n/serverTexts.ts';
import { apiRequest, serverErrorMessage, serverFieldErrors } from '../../lib/api.ts';
import { useSchemaForm } from '../../lib/form.ts';
import { toast } from '../../lib/toast.ts';
import { usePageTitle } from '../../lib/usePageTitle.ts';
import { useRegisterMutation } from './authMutations.ts';

/** The API's registration with the consent checkbox as the form holds it ('true' when ticked). */
const RegisterForm = v.object({
  ...RegisterRequest.entries,
  consent: v.pipe(v.string(), v.check((value) => value === 'true', CONSENT_MESSAGE), v.transform((): true => true)),
  // Optional: empty sends none.
  inviteCode: v.pipe(v.string(), v.trim(), v.transform((value) => (value === '' ? undefined : value)), v.optional(InviteCodeInput)),
});

/** Create an account. */
export function RegisterScreen() {
  const { t } = useTranslation('auth');
  usePageTitle(t('register.pageTitle'));
  const navigate = useNavigate();
  const register = useRegisterMutation();
  // An invite link (/register?invite=CODE) fills in the code; the person may still change or clear it.
  const search: { invite?: unknown } = useSearch({ strict: false });
  const invite = typeof search.invite === 'string' ? search.invite.slice(0, 20) : '';
  const form = useSchemaForm(RegisterForm, { firstName: '', lastName: '', mobile: '', password: '', consent: '', inviteCode: invite });
  const consentId = useId();
  const consent = form.field('consent');
  const texts = useServerTexts(Boolean(consent.error));

  // mutateAsync, not mutate's callbacks: at '/' this screen unmounts as soon as the user query
  // refreshes, and the success toast and navigation must still happen.
  const onSubmit = form.handleSubmit(async (account) => {
    try {
      // The language chosen on this device becomes the account's, so it follows the person to other devices.
      await register.mutateAsync(account);
      await apiRequest('PUT', '/api/profile', { language: i18n.language === 'hi' ? 'hi' : 'en' }).catch(() => undefined);
    } catch (error) {
      form.setServerErrors(serverFieldErrors(error));
      toast({
        variant: 'destructive',
        title: t('register.failed'),
        description: serverErrorMessage(error, t('register.failedBody')),
      });
      return;
    }
    toast({ title: t('register.welcome'), description: t('register.created') });
    void navigate({ to: '/' });
  });

  return (
    <section className="rounded-2xl border border-slate-200 bg-white p-6 shadow-sm">
      <h1 className="text-2xl font-bold tracking-tight">{t('register.heading')}</h1>
      <p className="mt-1 text-sm text-slate-600">{t('register.intro')}</p>
      <form noValidate onSubmit={onSubmit} className="mt-6 grid gap-4">
        <NameFields firstName={form.field('firstName')} lastName={form.field('lastName')} />
        <MobileField label={t('common:fields.mobile')} autoComplete="tel-national" {...form.field('mobile')} />
        <PasswordField label={t('common:fields.password')} autoComplete="new-password" hint={t('register.passwordHint')} {...form.field('password')} />
        <TextField label={t('register.inviteCode')} hint={t('register.inviteCodeHint')} autoComplete="off" autoCapitalize="characters" {...form.field('inviteCode')} />
        <div>
          <div className="flex items-start gap-3 text-sm text-slate-700">
            <input
              id={consentId}
              type="checkbox"
              checked={consent.value === 'true'}
              onChange={(event) => consent.onValueChange(event.target.checked ? 'true' : '')}
              aria-invalid={consent.error ? true : undefined}
              aria-describedby={consent.error ? `${consentId}-error` : undefined}
              className="mt-0.5 size-5 shrink-0 rounded accent-emerald-600"
            />
            <label htmlFor={consentId} className="min-h-11">
              {t('register.consent')}{' '}
              <Link to="/privacy-policy" className="font-semibold text-emerald-700 underline">
                {t('register.privacyPolicy')}
              </Link>
            </label>
          </div>
          {consent.error ? (
            <p id={`${consentId}-error`} role="alert" className="mt-1 text-sm text-red-700">
              {texts?.refusalInLanguage(consent.error)}
            </p>
          ) : null}
        </div>
        <Button type="submit" disabled={register.isPending} className="mt-2">
          {register.isPending ? t('register.submitting') : t('register.submit')}
        </Button>
      </form>
      <p className="mt-6 text-center text-sm text-slate-600">
        {t('register.haveAccount')}{' '}
        <Link to="/login" className="font-semibold text-emerald-700 hover:underline">
          {t('register.signIn')}
        </Link>
      </p>
    </section>
  );
}
