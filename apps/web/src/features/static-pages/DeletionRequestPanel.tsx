import { queryOptions, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { DeletionRequestCreate, type MyDeletionBody } from '@kamai/contracts';
import { useTranslation } from 'react-i18next';
import { Button } from '../../components/Button.tsx';
import { PasswordField } from '../../components/fields.tsx';
import { apiRequest, serverErrorMessage, serverFieldErrors } from '../../lib/api.ts';
import { formatDateTime } from '../../lib/format.ts';
import { useSchemaForm } from '../../lib/form.ts';
import { useSendOnce } from '../../lib/sendOnce.ts';
import { getJson } from '../../lib/http.ts';
import { toast } from '../../lib/toast.ts';

const deletionRequestQuery = () =>
  queryOptions({ queryKey: ['/api/profile/deletion-request'], queryFn: getJson<MyDeletionBody>() });

/**
 * For a signed-in user: ask for the account's deletion with the password again, or see the pending
 * request with the end of its cooling-off and cancel it. Each sends once however often it is pressed,
 * until the screen shows the answer.
 */
export function DeletionRequestPanel() {
  const { t } = useTranslation('static-pages');
  const queryClient = useQueryClient();
  const current = useQuery(deletionRequestQuery());
  const once = useSendOnce();
  const form = useSchemaForm(DeletionRequestCreate, { password: '' });
  const refresh = () => queryClient.invalidateQueries({ queryKey: deletionRequestQuery().queryKey });
  const request = useMutation({ mutationFn: (body: { password: string }) => apiRequest('POST', '/api/profile/deletion-request', body) });
  const cancel = useMutation({ mutationFn: () => apiRequest('DELETE', '/api/profile/deletion-request') });

  /** Sends, then reloads the request, so the button stays busy until the screen has changed. */
  const sendOnce = async (run: () => Promise<unknown>, done: string, failed: (error: unknown) => void) => {
    let sent;
    try {
      sent = await once.send(async () => {
        await run();
        await refresh();
      });
    } catch (error) {
      failed(error);
      toast({ variant: 'destructive', title: t('deleteAccount.self.failed'), description: serverErrorMessage(error, t('deleteAccount.self.failed')) });
      return;
    }
    if (sent) toast({ title: done });
  };

  const onSubmit = form.handleSubmit((values) =>
    sendOnce(() => request.mutateAsync(values), t('deleteAccount.self.requestedTitle'), (error) => form.setServerErrors(serverFieldErrors(error))),
  );
  const onCancel = () => sendOnce(() => cancel.mutateAsync(), t('deleteAccount.self.cancelledTitle'), () => undefined);

  const pending = current.data?.request?.status === 'pending' ? current.data.request : null;
  return (
    <section aria-labelledby="self-deletion-heading" className="grid gap-3 rounded-2xl border border-red-200 bg-white p-5 shadow-sm">
      <h2 id="self-deletion-heading" className="text-lg font-semibold text-slate-900">
        {t('deleteAccount.self.title')}
      </h2>
      {pending ? (
        <div className="grid gap-3" data-testid="deletion-pending">
          <p className="text-[15px] leading-relaxed text-slate-700">
            {t('deleteAccount.self.pending', { date: formatDateTime(pending.coolingOffEndsAt) })}
          </p>
          <Button variant="secondary" disabled={once.busy} onClick={() => void onCancel()}>
            {t('deleteAccount.self.cancel')}
          </Button>
        </div>
      ) : (
        <form noValidate onSubmit={onSubmit} className="grid gap-3">
          <p className="text-[15px] leading-relaxed text-slate-700">{t('deleteAccount.self.intro')}</p>
          <PasswordField label={t('deleteAccount.self.password')} autoComplete="current-password" {...form.field('password')} />
          <Button type="submit" variant="danger" disabled={once.busy}>
            {once.busy ? t('deleteAccount.self.submitting') : t('deleteAccount.self.submit')}
          </Button>
        </form>
      )}
    </section>
  );
}
