import type { PushAlertsBody, PushPublicKeyAnswer } from '@kamai/contracts';
import { queryOptions } from '@tanstack/react-query';
import { apiRequest, getJson, readJson } from './api.ts';

/** Whether this browser can receive alerts outside the app (service worker, Push API, notifications). */
export function pushSupported(): boolean {
  return typeof window !== 'undefined' && 'serviceWorker' in navigator && 'PushManager' in window && 'Notification' in window;
}

/** 'default' (not asked yet), 'granted', 'denied', or 'unsupported'. */
export function alertPermission(): NotificationPermission | 'unsupported' {
  return pushSupported() ? Notification.permission : 'unsupported';
}

/** This browser's subscription, if alerts are on here. */
export async function currentSubscription(): Promise<PushSubscription | null> {
  if (!pushSupported()) return null;
  const registration = await navigator.serviceWorker.getRegistration();
  return (await registration?.pushManager.getSubscription()) ?? null;
}

const fromBase64Url = (text: string): ArrayBuffer => {
  const base64 = text.replace(/-/g, '+').replace(/_/g, '/');
  return Uint8Array.from(atob(base64 + '='.repeat((4 - (base64.length % 4)) % 4)), (c) => c.charCodeAt(0)).buffer;
};

/**
 * Asks for permission (only ever from a tap), subscribes this browser with the server's VAPID key and
 * tells the server. Answers false when the person said no.
 */
export async function turnOnAlerts(): Promise<boolean> {
  if ((await Notification.requestPermission()) !== 'granted') return false;
  const registration = await navigator.serviceWorker.ready;
  const key = await readJson<PushPublicKeyAnswer>(await apiRequest('GET', '/api/push/public-key'));
  if (!key) throw new Error('no push key');
  const subscription =
    (await registration.pushManager.getSubscription()) ??
    (await registration.pushManager.subscribe({ userVisibleOnly: true, applicationServerKey: fromBase64Url(key.publicKey) }));
  const { endpoint, keys } = subscription.toJSON();
  await apiRequest('POST', '/api/push/subscriptions', { endpoint, keys });
  return true;
}

/** Stops alerts to this browser, here and on the server. */
export async function turnOffAlerts(): Promise<void> {
  const subscription = await currentSubscription();
  if (!subscription) return;
  await apiRequest('DELETE', '/api/push/subscriptions', { endpoint: subscription.endpoint });
  await subscription.unsubscribe();
}

/** The alert kinds the signed-in person receives. */
export const pushAlertsQuery = () =>
  queryOptions({
    queryKey: ['/api/push/alerts'],
    queryFn: getJson<PushAlertsBody>(),
  });
