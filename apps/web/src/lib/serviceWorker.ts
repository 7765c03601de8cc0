/**
 * Runs `work` after the page's load event, when the main thread is idle: work the first screen does
 * not need (the service worker, other screens' texts) must not compete with its rendering.
 */
export function whenIdleAfterLoad(work: () => void): void {
  const idle = () => (typeof requestIdleCallback === 'function' ? requestIdleCallback(() => work(), { timeout: 3000 }) : setTimeout(work, 200));
  if (document.readyState === 'complete') idle();
  else window.addEventListener('load', idle, { once: true });
}

/**
 * Registers the app-shell service worker (public/sw.js) in production builds, from this module
 * rather than an inline script, so a Content-Security-Policy without 'unsafe-inline' allows it.
 */
export function registerServiceWorker(): void {
  if (!import.meta.env.PROD || !('serviceWorker' in navigator)) return;
  whenIdleAfterLoad(() => {
    navigator.serviceWorker.register('/sw.js').catch(() => {
      // Without it the app still works online; it only will not open offline.
    });
  });
}
