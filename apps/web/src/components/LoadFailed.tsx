import { useTranslation } from 'react-i18next';
import { useWhenBackOnline } from '../lib/backOnline.ts';
import { Button } from './Button.tsx';

/**
 * In place of a screen's list when it could not be read: what went wrong, and 'Try again'. It also
 * tries again by itself when the device comes back online (the usual reason a read failed).
 */
export function LoadFailed({ title, message, onRetry }: { title?: string; message: string; onRetry: () => void }) {
  const { t } = useTranslation();
  useWhenBackOnline(onRetry);
  return (
    <div role="alert" className="grid gap-3 rounded-2xl border border-red-200 bg-white p-5 text-sm text-slate-700 shadow-sm">
      {title && <p className="font-semibold text-slate-900">{title}</p>}
      <p>{message}</p>
      <Button variant="secondary" onClick={onRetry}>
        {t('tryAgain')}
      </Button>
    </div>
  );
}
