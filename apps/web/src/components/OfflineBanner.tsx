import { useSyncExternalStore } from 'react';
import { useTranslation } from 'react-i18next';

function subscribe(onChange: () => void): () => void {
  window.addEventListener('online', onChange);
  window.addEventListener('offline', onChange);
  return () => {
    window.removeEventListener('online', onChange);
    window.removeEventListener('offline', onChange);
  };
}

/** "You are offline": a clear line at the top while the device has no network. */
export function OfflineBanner() {
  const online = useSyncExternalStore(subscribe, () => navigator.onLine, () => true);
  // Online, it renders nothing and asks for no texts: the app's root must not wait (suspend) for them.
  return online ? null : <OfflineLine />;
}

function OfflineLine() {
  const { t } = useTranslation();
  return (
    <p role="status" data-testid="offline-banner" className="sticky top-0 z-[60] bg-slate-900 px-4 py-2 text-center text-sm font-medium text-white">
      {t('offline.banner')}
    </p>
  );
}
