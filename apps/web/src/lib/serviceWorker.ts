import { afterFirstScreen } from './afterFirstScreen.ts';

/**
 * Registers the app-shell service worker (public/sw.js) in production builds, from this module
 * rather than an inline script, so a Content-Security-Policy without 'unsafe-inline' allows it.
 * After the first screen: registering (and the worker's install fetches) must not delay it.
 */
export function registerServiceWorker(): void {
  if (!import.meta.env.PROD || !('serviceWorker' in navigator)) return;
  afterFirstScreen(() => {
    navigator.serviceWorker.register('/sw.js').catch(() => {
      // Without it the app still works online; it only will not open offline.
    });
  });
}
