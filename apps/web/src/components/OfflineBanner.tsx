import { useLayoutEffect, useRef, useSyncExternalStore } from 'react';
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

/**
 * The line's height is published as the CSS variable `--offline-space` (as Toaster publishes
 * `--toast-space`): an open dialog starts below it, so the banner, drawn above everything, never
 * covers the top of a dialog.
 */
function OfflineLine() {
  const { t } = useTranslation();
  const line = useRef<HTMLParagraphElement>(null);
  useLayoutEffect(() => {
    const element = line.current;
    if (!element) return;
    const root = document.documentElement.style;
    const publish = () => root.setProperty('--offline-space', `${element.getBoundingClientRect().height}px`);
    publish();
    const observer = new ResizeObserver(publish);
    observer.observe(element);
    return () => {
      observer.disconnect();
      root.removeProperty('--offline-space');
    };
  }, []);
  return (
    <p ref={line} role="status" data-testid="offline-banner" className="sticky top-0 z-[60] bg-slate-900 px-4 py-2 text-center text-sm font-medium text-white">
      {t('offline.banner')}
    </p>
  );
}
