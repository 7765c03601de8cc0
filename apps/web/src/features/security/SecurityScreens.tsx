import { useMutation, useQuery, useQueryClient, queryOptions } from '@tanstack/react-query';
import { Link, useNavigate } from '@tanstack/react-router';
import { useTranslation } from 'react-i18next';
import * as v from 'valibot';
import { ChangePasswordRequest, type SessionBody, deviceLabelParts } from '@kamai/contracts';
import { Button, FormActions } from '../../components/Button.tsx';
import { PasswordField } from '../../components/fields.tsx';
import { apiRequest, getJson, serverErrorMessage, serverFieldErrors } from '../../lib/api.ts';
import { formatDateTime } from '../../lib/format.ts';
import { useSchemaForm } from '../../lib/form.ts';
import { toast } from '../../lib/toast.ts';
import { usePageTitle } from '../../lib/usePageTitle.ts';

export const sessionsQuery = () => queryOptions({ queryKey: ['/api/auth/sessions'], queryFn: getJson<SessionBody[]>() });

function BackToProfile() {
  const { t } = useTranslation('security');
  return (
    <Link to="/profile" className="inline-flex min-h-11 w-fit items-center text-sm font-medium text-emerald-700 underline-offset-4 hover:underline">
      {t('backToProfile')}
    </Link>
  );
}

/** Profile > Signed-in devices: where the user is signed in; sign one out, or all of them. */
export function SignedInDevicesScreen() {
  const { t } = useTranslation('security');
  usePageTitle(t('devices.title'));
  const queryClient = useQueryClient();
  const navigate = useNavigate();
  const { data: sessions, isPending, isError } = useQuery(sessionsQuery());
  const revoke = useMutation({
    mutationFn: async (id: string) => apiRequest('DELETE', `/api/auth/sessions/${id}`),
    onSuccess: () => queryClient.invalidateQueries({ queryKey: sessionsQuery().queryKey }),
  });
  const signOutAll = useMutation({ mutationFn: async () => apiRequest('POST', '/api/auth/logout-all') });
  const deviceName = (label: string) => {
    const { browser, system } = deviceLabelParts(label);
    if (browser && system) return t('devices.deviceOn', { browser, system });
    return browser ?? system ?? t('devices.unknown');
  };

  const onRevoke = async (id: string) => {
    try {
      await revoke.mutateAsync(id);
      toast({ title: t('devices.signedOutTitle'), description: t('devices.signedOutDescription') });
    } catch (error) {
      toast({ variant: 'destructive', title: t('failedTitle'), description: serverErrorMessage(error, t('failedDescription')) });
    }
  };
  const onSignOutAll = async () => {
    try {
      await signOutAll.mutateAsync();
    } catch (error) {
      toast({ variant: 'destructive', title: t('failedTitle'), description: serverErrorMessage(error, t('failedDescription')) });
      return;
    }
    queryClient.clear();
    void navigate({ to: '/login' });
  };

  return (
    <section className="grid gap-6">
      <BackToProfile />
      <header className="grid gap-1">
        <h1 className="text-2xl font-bold tracking-tight">{t('devices.title')}</h1>
        <p className="text-sm text-slate-600">{t('devices.intro')}</p>
      </header>
      {isPending && <p className="text-sm text-slate-600">{t('loading')}</p>}
      {isError && <p className="text-sm text-red-700">{t('failedDescription')}</p>}
      {sessions && (
        <ul aria-label={t('devices.title')} className="divide-y divide-slate-100 overflow-hidden rounded-2xl border border-slate-200 bg-white shadow-sm">
          {sessions.map((session) => (
            <li key={session.id} className="flex items-center justify-between gap-3 p-4">
              <div className="grid gap-0.5">
                <span className="font-medium text-slate-900">
                  {deviceName(session.device)}
                  {session.current && <span className="ml-2 rounded-full bg-emerald-100 px-2 py-0.5 text-xs text-emerald-800">{t('devices.thisDevice')}</span>}
                </span>
                <span className="text-xs text-slate-600">{t('devices.lastSeen', { when: formatDateTime(session.lastSeenAt) })}</span>
              </div>
              {!session.current && (
                <Button variant="secondary" onClick={() => void onRevoke(session.id)} disabled={revoke.isPending}>
                  {t('devices.signOut')}
                </Button>
              )}
            </li>
          ))}
        </ul>
      )}
      <Button variant="danger" onClick={() => void onSignOutAll()} disabled={signOutAll.isPending}>
        {t('devices.signOutAll')}
      </Button>
    </section>
  );
}

const PasswordForm = v.object({ currentPassword: ChangePasswordRequest.entries.currentPassword, newPassword: ChangePasswordRequest.entries.newPassword });

/** Profile > Change password: the current one, then the new one; every other device is signed out. */
export function ChangePasswordScreen() {
  const { t } = useTranslation('security');
  usePageTitle(t('password.title'));
  const queryClient = useQueryClient();
  const navigate = useNavigate();
  const change = useMutation({
    mutationFn: async (body: { currentPassword: string; newPassword: string }) => apiRequest('PUT', '/api/auth/password', body),
  });
  const form = useSchemaForm(PasswordForm, { currentPassword: '', newPassword: '' });
  const onSubmit = form.handleSubmit(async (values) => {
    try {
      await change.mutateAsync(values);
    } catch (error) {
      form.setServerErrors(serverFieldErrors(error));
      toast({ variant: 'destructive', title: t('failedTitle'), description: serverErrorMessage(error, t('failedDescription')) });
      return;
    }
    await queryClient.invalidateQueries({ queryKey: sessionsQuery().queryKey });
    toast({ title: t('password.changedTitle'), description: t('password.changedDescription') });
    void navigate({ to: '/profile' });
  });

  return (
    <section className="grid gap-6">
      <BackToProfile />
      <header className="grid gap-1">
        <h1 className="text-2xl font-bold tracking-tight">{t('password.title')}</h1>
        <p className="text-sm text-slate-600">{t('password.intro')}</p>
      </header>
      <form noValidate onSubmit={onSubmit} className="grid gap-4 rounded-2xl border border-slate-200 bg-white p-5 shadow-sm">
        <PasswordField label={t('password.current')} autoComplete="current-password" {...form.field('currentPassword')} />
        <PasswordField label={t('password.new')} autoComplete="new-password" {...form.field('newPassword')} />
        <FormActions submitLabel={t('password.submit')} pendingLabel={t('password.pending')} pending={change.isPending} onCancel={() => void navigate({ to: '/profile' })} />
      </form>
    </section>
  );
}
