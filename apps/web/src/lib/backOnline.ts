import { onlineManager } from '@tanstack/react-query';
import { useEffect, useRef } from 'react';

/** How often a card that failed for want of a network tries again while the device says it is online. */
export const OFFLINE_RETRY_MS = 3000;

/**
 * Calls `retry` when the device comes back online, so an offline card recovers without a tap.
 * Two sources, as neither alone is enough: the window's `online` event (a page loaded offline never
 * told TanStack Query it was offline, so its onlineManager sees no change), and the onlineManager
 * (which tests and other code may drive). Both fire for one reconnection; the second is dropped.
 *
 * With `keepTrying` (the failure was the network's), it also calls `retry` every OFFLINE_RETRY_MS
 * while the device says it is online: the try made as the network returns can fail too (the
 * connection is not up yet, or the server is out of reach behind it), and no second `online` event comes.
 */
export function useWhenBackOnline(retry: () => void, keepTrying = false): void {
  const latest = useRef(retry);
  latest.current = retry;
  useEffect(() => {
    let pending: ReturnType<typeof setTimeout> | undefined;
    const fire = () => {
      if (pending !== undefined) return;
      // One retry per reconnection: the two sources fire within the same event dispatch.
      pending = setTimeout(() => {
        pending = undefined;
        latest.current();
      }, 0);
    };
    window.addEventListener('online', fire);
    const unsubscribe = onlineManager.subscribe((online) => {
      if (online) fire();
    });
    return () => {
      window.removeEventListener('online', fire);
      unsubscribe();
      if (pending !== undefined) clearTimeout(pending);
    };
  }, []);
  useEffect(() => {
    if (!keepTrying) return;
    const timer = setInterval(() => {
      if (navigator.onLine) latest.current();
    }, OFFLINE_RETRY_MS);
    return () => clearInterval(timer);
  }, [keepTrying]);
}
