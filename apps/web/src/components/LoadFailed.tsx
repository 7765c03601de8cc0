import { useTranslation } from 'react-i18next';
import { useWhenBackOnline } from '../lib/backOnline.ts';
import { isNetworkFailure } from '../lib/http.ts';
import { Button } from './Button.tsx';

/**
 * In place of a screen's list when it could not be read: what went wrong, and 'Try again'. It also
 * tries again by itself when the device comes back online (the usual reason a read failed), and,
 * when the network was the reason, every few seconds while the device says it is online.
 */
export function LoadFailed({ title, message, error, onRetry }: { title?: string; message: string; error: unknown; onRetry: () => void }) {
  const { t } = useTranslation();
  const offline = isNetworkFailure(error);
  useWhenBackOnline(onRetry, offline);
  return (
    <div role="alert" className="grid gap-3 rounded-2xl border border-red-200 bg-white p-5 text-sm text-slate-700 shadow-sm">
      {title && <p className="font-semibold text-slate-900">{title}</p>}
      <p>{message}</p>
      {offline && <p>{t('offline.retrying')}</p>}
      <Button variant="secondary" onClick={onRetry}>
        {t('tryAgain')}
      </Button>
    </div>
  );
}
