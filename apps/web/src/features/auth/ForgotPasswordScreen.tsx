import { useTranslation } from 'react-i18next';
import { Link, useNavigate } from '@tanstack/react-router';
import { useState } from 'react';
import * as v from 'valibot';
import { PASSWORD_RESET_CODE_TTL_MS, PasswordResetConfirmRequest, PasswordResetRequest } from '@kamai/contracts';
import { Button } from '../../components/Button.tsx';
import { MobileField, PasswordField, TextField } from '../../components/fields.tsx';
import { apiRequest, serverErrorMessage, serverFieldErrors } from '../../lib/api.ts';
import { useSchemaForm } from '../../lib/form.ts';
import { useSendOnce } from '../../lib/sendOnce.ts';
import { toast } from '../../lib/toast.ts';
import { usePageTitle } from '../../lib/usePageTitle.ts';

const CodeForm = v.omit(PasswordResetConfirmRequest, ['mobile']);

/**
 * A forgotten password: the mobile number gets a 6-digit code by SMS, and the code with a new
 * password sets it. The server answers the same whether or not the number has an account, so the
 * screen says "if". Setting the password signs the account out everywhere: the person signs in again.
 */
export function ForgotPasswordScreen() {
  const { t } = useTranslation('auth');
  usePageTitle(t('forgot.pageTitle'));
  const navigate = useNavigate();
  const [mobile, setMobile] = useState<string | null>(null);
  const sending = useSendOnce();
  const confirming = useSendOnce();
  const mobileForm = useSchemaForm(PasswordResetRequest, { mobile: '' });
  const codeForm = useSchemaForm(CodeForm, { code: '', newPassword: '' });

  const failed = (form: { setServerErrors: (fields: Record<string, string>) => void }, error: unknown) => {
    form.setServerErrors(serverFieldErrors(error));
    toast({ variant: 'destructive', title: t('forgot.failed'), description: serverErrorMessage(error, t('forgot.failedBody')) });
  };

  const onSend = mobileForm.handleSubmit(async (body) => {
    try {
      const sent = await sending.send(() => apiRequest('POST', '/api/auth/password-reset', body));
      if (!sent) return;
    } catch (error) {
      failed(mobileForm, error);
      return;
    }
    setMobile(body.mobile);
  });

  const onConfirm = codeForm.handleSubmit(async (body) => {
    if (!mobile) return;
    try {
      const sent = await confirming.send(() => apiRequest('POST', '/api/auth/password-reset/confirm', { mobile, ...body }));
      if (!sent) return;
    } catch (error) {
      failed(codeForm, error);
      return;
    }
    toast({ title: t('forgot.done'), description: t('forgot.doneBody') });
    void navigate({ to: '/login' });
  });

  return (
    <section className="rounded-2xl border border-slate-200 bg-white p-6 shadow-sm">
      <h1 className="text-2xl font-bold tracking-tight">{t('forgot.heading')}</h1>
      {mobile === null ? (
        <>
          <p className="mt-1 text-sm text-slate-600">{t('forgot.intro')}</p>
          <form noValidate onSubmit={onSend} className="mt-6 grid gap-4">
            <MobileField label={t('common:fields.mobile')} autoComplete="tel-national" {...mobileForm.field('mobile')} />
            <Button type="submit" disabled={sending.busy} className="mt-2">
              {sending.busy ? t('forgot.sending') : t('forgot.send')}
            </Button>
          </form>
        </>
      ) : (
        <>
          <p role="status" className="mt-1 text-sm text-slate-600">
            {t('forgot.sent', { mobile: `+91 ${mobile}`, minutes: PASSWORD_RESET_CODE_TTL_MS / 60_000 })}
          </p>
          <form noValidate onSubmit={onConfirm} className="mt-6 grid gap-4">
            <TextField label={t('forgot.code')} inputMode="numeric" autoComplete="one-time-code" maxLength={6} {...codeForm.field('code')} />
            <PasswordField label={t('forgot.newPassword')} autoComplete="new-password" hint={t('register.passwordHint')} {...codeForm.field('newPassword')} />
            <Button type="submit" disabled={confirming.busy} className="mt-2">
              {confirming.busy ? t('forgot.saving') : t('forgot.save')}
            </Button>
            <Button variant="secondary" onClick={() => setMobile(null)} disabled={confirming.busy}>
              {t('forgot.again')}
            </Button>
          </form>
        </>
      )}
      <p className="mt-6 text-center text-sm text-slate-600">
        <Link to="/login" className="inline-flex min-h-11 items-center font-semibold text-emerald-700 hover:underline">
          {t('forgot.backToSignIn')}
        </Link>
      </p>
    </section>
  );
}
