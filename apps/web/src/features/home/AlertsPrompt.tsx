import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Button } from '../../components/Button.tsx';
import { alertPermission, turnOnAlerts } from '../../lib/push.ts';
import { toast } from '../../lib/toast.ts';

const DISMISSED = 'kamai.alertsPrompt';

/**
 * Offers alerts outside the app once the person has had work approved: never on a first visit (a
 * permission asked of a stranger is refused for good), only when the browser has not been asked, and
 * not again after "Not now" on this browser. The browser's own question comes only from the tap.
 */
export function AlertsPrompt({ hasApproval }: { hasApproval: boolean }) {
  const [hidden, setHidden] = useState(() => localStorage.getItem(DISMISSED) !== null);
  if (!hasApproval || hidden || alertPermission() !== 'default') return null;
  return (
    <AlertsPromptCard
      onClose={() => {
        localStorage.setItem(DISMISSED, 'shown');
        setHidden(true);
      }}
    />
  );
}

/**
 * The prompt itself. Its texts are the `profile` namespace's, which is not in the first download: only
 * a shown prompt asks for them, so Home does not wait for that file every time it opens.
 */
function AlertsPromptCard({ onClose: close }: { onClose: () => void }) {
  const { t } = useTranslation('profile');
  const [pending, setPending] = useState(false);
  const accept = async () => {
    setPending(true);
    try {
      await turnOnAlerts();
    } catch {
      toast({ variant: 'destructive', title: t('alerts.failed') });
    } finally {
      setPending(false);
      close();
    }
  };

  return (
    <section aria-labelledby="alerts-prompt-title" className="grid gap-3 rounded-2xl border border-emerald-200 bg-emerald-50 p-4" data-testid="alerts-prompt">
      <h2 id="alerts-prompt-title" className="font-semibold text-emerald-900">
        {t('alerts.prompt.title')}
      </h2>
      <p className="text-sm text-emerald-900">{t('alerts.prompt.body')}</p>
      <div className="grid gap-2">
        <Button disabled={pending} onClick={() => void accept()}>
          {pending ? t('alerts.working') : t('alerts.prompt.accept')}
        </Button>
        <Button variant="secondary" disabled={pending} onClick={close}>
          {t('alerts.prompt.later')}
        </Button>
      </div>
    </section>
  );
}
