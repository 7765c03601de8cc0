import { useQuery } from '@tanstack/react-query';
import { useId, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { WEBHOOK_EVENT_KINDS, type WebhookEndpointBody, type WebhookEndpointCreatedBody, type WebhookEventKind } from '@kamai/contracts';
import { Button } from '../../components/Button.tsx';
import { DialogActions, RefusalBox } from '../../components/DialogParts.tsx';
import { Dialog } from '../../components/Dialog.tsx';
import { LoadFailed } from '../../components/LoadFailed.tsx';
import { StaffPage, StaffPageHeader } from '../../components/StaffPage.tsx';
import { TextField } from '../../components/fields.tsx';
import { serverErrorMessage, serverFieldErrors } from '../../lib/api.ts';
import { formatDateTime } from '../../lib/format.ts';
import { useSendOnce } from '../../lib/sendOnce.ts';
import { toast } from '../../lib/toast.ts';
import { useDeleteWebhook, useRegisterWebhook, webhookDeliveriesQuery, webhooksQuery } from './webhookQueries.ts';

/**
 * /admin/webhooks: the endpoints finance and BI tools receive signed events at (docs/api.md#webhooks),
 * for the admin role: register one (its secret is shown once, with a copy button), read its delivery
 * log, delete it.
 */
export function WebhooksScreen() {
  const { t } = useTranslation('webhooks');
  return (
    <StaffPage role="admin" what={t('what')}>
      <WebhookList />
    </StaffPage>
  );
}

function WebhookList() {
  const { t } = useTranslation('webhooks');
  const list = useQuery(webhooksQuery());
  const [registering, setRegistering] = useState(false);
  const [logOf, setLogOf] = useState<WebhookEndpointBody | null>(null);
  const [deleting, setDeleting] = useState<WebhookEndpointBody | null>(null);

  return (
    <section className="grid gap-5">
      <StaffPageHeader title={t('title')} intro={t('intro')} />
      <Button onClick={() => setRegistering(true)}>{t('register')}</Button>

      {list.isPending ? (
        <div role="status" aria-label={t('loading')} className="h-32 animate-pulse rounded-2xl bg-white shadow-sm" />
      ) : list.isError ? (
        <LoadFailed message={serverErrorMessage(list.error, t('loadFailed'))} error={list.error} onRetry={() => void list.refetch()} />
      ) : list.data.length === 0 ? (
        <p className="rounded-2xl border border-dashed border-slate-300 bg-white p-5 text-center text-sm text-slate-600">{t('empty')}</p>
      ) : (
        <ul className="grid gap-4 lg:grid-cols-2">
          {list.data.map((endpoint) => (
            <li key={endpoint.id}>
              <EndpointCard endpoint={endpoint} onLog={() => setLogOf(endpoint)} onDelete={() => setDeleting(endpoint)} />
            </li>
          ))}
        </ul>
      )}

      <RegisterDialog open={registering} onClose={() => setRegistering(false)} />
      <DeliveryLogDialog endpoint={logOf} onClose={() => setLogOf(null)} />
      <DeleteDialog endpoint={deleting} onClose={() => setDeleting(null)} />
    </section>
  );
}

function EndpointCard({ endpoint, onLog, onDelete }: { endpoint: WebhookEndpointBody; onLog: () => void; onDelete: () => void }) {
  const { t } = useTranslation('webhooks');
  const titleId = `webhook-${endpoint.id}`;
  return (
    <article aria-labelledby={titleId} data-testid="webhook-endpoint" className="grid gap-3 rounded-2xl border border-slate-200 bg-white p-4 shadow-sm">
      <h2 id={titleId} className="font-semibold break-all text-slate-900">
        {endpoint.url}
      </h2>
      <ul aria-label={t('events')} className="flex flex-wrap gap-1.5">
        {endpoint.events.map((kind) => (
          <li key={kind} className="rounded-full bg-emerald-50 px-2.5 py-1 text-xs font-semibold text-emerald-900">
            {t(`kinds.${kind}`)}
          </li>
        ))}
      </ul>
      <p className="text-xs text-slate-600">{t('createdAt', { at: formatDateTime(endpoint.createdAt) })}</p>
      <div className="grid grid-cols-1 gap-2 sm:grid-cols-2">
        <Button variant="secondary" onClick={onLog} aria-describedby={titleId}>
          {t('log')}
        </Button>
        <Button variant="danger" onClick={onDelete} aria-describedby={titleId}>
          {t('delete')}
        </Button>
      </div>
    </article>
  );
}

/** Register an endpoint; on success the same dialog shows the secret, once, with a copy button. */
function RegisterDialog({ open, onClose }: { open: boolean; onClose: () => void }) {
  const { t } = useTranslation('webhooks');
  const register = useRegisterWebhook();
  const once = useSendOnce(open);
  const [url, setUrl] = useState('');
  const [kinds, setKinds] = useState<ReadonlySet<WebhookEventKind>>(() => new Set(WEBHOOK_EVENT_KINDS));
  const [errors, setErrors] = useState<{ url?: string; events?: string; form?: string }>({});
  const [created, setCreated] = useState<WebhookEndpointCreatedBody | null>(null);
  const groupId = useId();
  const close = () => {
    setUrl('');
    setKinds(new Set(WEBHOOK_EVENT_KINDS));
    setErrors({});
    setCreated(null);
    onClose();
  };
  const toggle = (kind: WebhookEventKind, on: boolean) =>
    setKinds((current) => {
      const next = new Set(current);
      if (on) next.add(kind);
      else next.delete(kind);
      return next;
    });
  const onSubmit = async () => {
    let sent;
    try {
      sent = await once.send(() => register.mutateAsync({ url: url.trim(), events: WEBHOOK_EVENT_KINDS.filter((kind) => kinds.has(kind)) }));
    } catch (error) {
      const fields = serverFieldErrors(error);
      setErrors({ url: fields.url, events: fields.events, form: fields.url || fields.events ? undefined : serverErrorMessage(error, t('failed')) });
      return;
    }
    if (!sent) return;
    setErrors({});
    setCreated(sent.value);
  };
  const copy = async () => {
    if (!created) return;
    try {
      await navigator.clipboard.writeText(created.secret);
      toast({ title: t('copied') });
    } catch {
      toast({ title: t('copyFailed') });
    }
  };

  return (
    <Dialog open={open} onOpenChange={(next) => !next && close()} busy={once.busy} title={created ? t('secretTitle') : t('registerTitle')} description={created ? t('secretOnce') : t('registerText')}>
      {created ? (
        <>
          <p className="text-sm break-all text-slate-700">{created.url}</p>
          <code data-testid="webhook-secret" className="block rounded-xl border border-slate-200 bg-slate-50 px-3 py-3 font-mono text-sm break-all text-slate-900">
            {created.secret}
          </code>
          <Button variant="secondary" onClick={() => void copy()}>
            {t('copy')}
          </Button>
          <Button onClick={close}>{t('done')}</Button>
        </>
      ) : (
        <form
          className="grid gap-4"
          onSubmit={(event) => {
            event.preventDefault();
            void onSubmit();
          }}
        >
          <TextField label={t('url')} hint={t('urlHint')} type="text" inputMode="url" autoComplete="off" value={url} onValueChange={setUrl} error={errors.url} />
          <fieldset aria-describedby={errors.events ? `${groupId}-error` : undefined} className="grid gap-1">
            <legend className="mb-1 text-sm font-medium text-slate-700">{t('events')}</legend>
            {WEBHOOK_EVENT_KINDS.map((kind) => (
              <label key={kind} className="flex min-h-11 items-center gap-3 rounded-xl px-1 text-sm text-slate-800">
                <input type="checkbox" className="size-5 accent-emerald-700" checked={kinds.has(kind)} onChange={(event) => toggle(kind, event.target.checked)} />
                {t(`kinds.${kind}`)}
              </label>
            ))}
            {errors.events && (
              <p id={`${groupId}-error`} className="text-sm font-medium text-red-700">
                {errors.events}
              </p>
            )}
          </fieldset>
          {errors.form && (
            <RefusalBox>{errors.form}</RefusalBox>
          )}
          <Button type="submit" disabled={once.busy}>
            {once.busy ? t('registering') : t('registerSubmit')}
          </Button>
          <Button variant="secondary" onClick={close} disabled={once.busy}>
            {t('cancel')}
          </Button>
        </form>
      )}
    </Dialog>
  );
}

const STATUS_CLASSES = {
  pending: 'bg-amber-100 text-amber-900',
  delivered: 'bg-emerald-100 text-emerald-900',
  failed: 'bg-red-100 text-red-800',
  cancelled: 'bg-slate-100 text-slate-700',
} as const;

function DeliveryLogDialog({ endpoint, onClose }: { endpoint: WebhookEndpointBody | null; onClose: () => void }) {
  const { t } = useTranslation('webhooks');
  const log = useQuery({ ...webhookDeliveriesQuery(endpoint?.id ?? ''), enabled: endpoint !== null });
  return (
    <Dialog open={endpoint !== null} onOpenChange={(next) => !next && onClose()} title={t('logTitle')} description={endpoint && <span className="break-all">{endpoint.url}</span>}>
      {log.isPending ? (
        <div role="status" aria-label={t('loading')} className="h-24 animate-pulse rounded-xl bg-slate-100" />
      ) : log.isError ? (
        <LoadFailed message={serverErrorMessage(log.error, t('loadFailed'))} error={log.error} onRetry={() => void log.refetch()} />
      ) : log.data.length === 0 ? (
        <p className="text-sm text-slate-600">{t('noDeliveries')}</p>
      ) : (
        <ul className="grid gap-2" data-testid="webhook-deliveries">
          {log.data.map((delivery) => (
            <li key={delivery.id} className="grid gap-1 rounded-xl border border-slate-200 p-3 text-sm">
              <div className="flex flex-wrap items-center justify-between gap-2">
                <span className="font-semibold text-slate-900">{t(`kinds.${delivery.event}`)}</span>
                <span className={`rounded-full px-2.5 py-0.5 text-xs font-semibold ${STATUS_CLASSES[delivery.status]}`}>{t(`status.${delivery.status}`)}</span>
              </div>
              <p className="text-xs text-slate-600">
                {t('attempts', { count: delivery.attempts })}
                {delivery.lastStatusCode !== null && t('lastStatus', { code: delivery.lastStatusCode })}
                {delivery.lastError && t('lastError', { error: delivery.lastError })}
              </p>
              <p className="text-xs text-slate-600">
                {delivery.deliveredAt
                  ? t('deliveredAt', { at: formatDateTime(delivery.deliveredAt) })
                  : delivery.nextAttemptAt
                    ? t('nextAttemptAt', { at: formatDateTime(delivery.nextAttemptAt) })
                    : t('createdAt', { at: formatDateTime(delivery.createdAt) })}
              </p>
              <p className="text-xs break-all text-slate-500">{t('deliveryId', { id: delivery.id, position: delivery.position })}</p>
            </li>
          ))}
        </ul>
      )}
      <Button variant="secondary" onClick={onClose}>
        {t('close')}
      </Button>
    </Dialog>
  );
}

function DeleteDialog({ endpoint, onClose }: { endpoint: WebhookEndpointBody | null; onClose: () => void }) {
  const { t } = useTranslation('webhooks');
  const remove = useDeleteWebhook();
  const once = useSendOnce(endpoint !== null);
  const [refusal, setRefusal] = useState<string | null>(null);
  const close = () => {
    setRefusal(null);
    onClose();
  };
  const onConfirm = async () => {
    if (!endpoint) return;
    let sent;
    try {
      sent = await once.send(() => remove.mutateAsync(endpoint.id));
    } catch (error) {
      setRefusal(serverErrorMessage(error, t('failed')));
      return;
    }
    if (!sent) return;
    toast({ title: t('deleted') });
    close();
  };
  return (
    <Dialog open={endpoint !== null} onOpenChange={(next) => !next && close()} busy={once.busy} title={t('deleteTitle')} description={endpoint && <span className="break-all">{endpoint.url}</span>}>
      <p className="text-sm text-slate-700">{t('deleteText')}</p>
      {refusal && (
        <RefusalBox>{refusal}</RefusalBox>
      )}
      <DialogActions cancelLabel={t('cancel')} onCancel={close} busy={once.busy} onConfirm={() => void onConfirm()} variant="danger">
        {once.busy ? t('deleting') : t('deleteConfirm')}
      </DialogActions>
    </Dialog>
  );
}
