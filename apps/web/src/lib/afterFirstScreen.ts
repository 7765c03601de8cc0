import { useEffect, useState } from 'react';

/**
 * Work the first screen does not need (the toast region, the service worker, other screens' texts)
 * waits until that screen has rendered and the browser is idle: it must neither be downloaded before
 * the screen nor compete with its rendering. main.tsx calls `firstScreenShown` once the router has
 * rendered its first match.
 */
let markShown: () => void = () => {};
const shown = new Promise<void>((resolve) => (markShown = resolve));

export function firstScreenShown(): void {
  markShown();
}

function whenIdle(work: () => void): void {
  if (typeof requestIdleCallback === 'function') requestIdleCallback(() => work(), { timeout: 2000 });
  else setTimeout(work, 100);
}

export function afterFirstScreen(work: () => void): void {
  void shown.then(() => whenIdle(work));
}

/** False until the first screen has shown and the browser is idle, then true. */
export function useAfterFirstScreen(): boolean {
  const [ready, setReady] = useState(false);
  useEffect(() => {
    let mounted = true;
    afterFirstScreen(() => mounted && setReady(true));
    return () => {
      mounted = false;
    };
  }, []);
  return ready;
}
