import { FINANCE_ALERTS, PUSH_ALERT_KINDS, type PushAlertKind, type PushAlertsBody } from '@kamai/contracts';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useEffect, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Button } from '../../components/Button.tsx';
import { apiRequest, readJson } from '../../lib/api.ts';
import { currentUserQuery } from '../../lib/queries.ts';
import { alertPermission, currentSubscription, pushAlertsQuery, turnOffAlerts, turnOnAlerts } from '../../lib/push.ts';
import { toast } from '../../lib/toast.ts';

/**
 * Profile's "Alerts outside the app": alerts on or off on this phone, and which kinds the person
 * wants (for every browser of theirs, and the payout SMS). Money alerts come at night too; the others
 * wait for the morning (docs/push.md).
 */
export function AlertsSection() {
  const { t } = useTranslation('profile');
  const queryClient = useQueryClient();
  const { data } = useQuery(pushAlertsQuery());
  // A balance's warning reaches finance only: nobody else is offered it.
  const { data: user } = useQuery(currentUserQuery());
  const finance = user?.roles.includes('finance') ?? false;
  const kinds = PUSH_ALERT_KINDS.filter((kind) => finance || !FINANCE_ALERTS.includes(kind));
  const [on, setOn] = useState<boolean | null>(null);
  const [permission, setPermission] = useState(alertPermission);
  useEffect(() => {
    void currentSubscription().then((subscription) => setOn(subscription !== null));
  }, []);

  const toggle = useMutation({
    mutationFn: async () => {
      if (on) {
        await turnOffAlerts();
        return false;
      }
      return turnOnAlerts();
    },
    onSuccess: (nowOn) => {
      setOn(nowOn);
      setPermission(alertPermission());
    },
    onError: () => toast({ variant: 'destructive', title: t('alerts.failed') }),
  });

  const choose = useMutation({
    mutationFn: async (alerts: PushAlertKind[]) => readJson<PushAlertsBody>(await apiRequest('PUT', '/api/push/alerts', { alerts })),
    onSuccess: (answer) => answer && queryClient.setQueryData(pushAlertsQuery().queryKey, answer),
    onError: () => toast({ variant: 'destructive', title: t('alerts.failed') }),
  });
  const chosen = data?.alerts ?? [];
  const flip = (kind: PushAlertKind) => choose.mutate(chosen.includes(kind) ? chosen.filter((k) => k !== kind) : [...chosen, kind]);

  return (
    <section aria-labelledby="alerts-heading" className="grid gap-3 rounded-2xl border border-slate-200 bg-white p-4 shadow-sm" data-testid="alerts-section">
      <h2 id="alerts-heading" className="text-sm font-semibold text-slate-800">
        {t('alerts.heading')}
      </h2>
      <p className="text-sm text-slate-600">{t('alerts.explain')}</p>
      {permission === 'unsupported' ? (
        <p className="text-sm text-slate-600">{t('alerts.unsupported')}</p>
      ) : permission === 'denied' ? (
        <p className="text-sm text-slate-600">{t('alerts.blocked')}</p>
      ) : (
        <Button variant={on ? 'secondary' : 'primary'} disabled={on === null || toggle.isPending} onClick={() => toggle.mutate()}>
          {toggle.isPending ? t('alerts.working') : on ? t('alerts.turnOff') : t('alerts.turnOn')}
        </Button>
      )}
      <fieldset className="grid gap-1" disabled={!data || choose.isPending}>
        <legend className="mb-1 text-sm font-medium text-slate-800">{t('alerts.choose')}</legend>
        {kinds.map((kind) => (
          <label key={kind} className="flex min-h-11 cursor-pointer items-center gap-3 text-sm text-slate-800">
            <input type="checkbox" className="size-5 shrink-0 accent-emerald-700" checked={chosen.includes(kind)} onChange={() => flip(kind)} />
            <span>{t(`alerts.kinds.${kind}`)}</span>
          </label>
        ))}
      </fieldset>
    </section>
  );
}
