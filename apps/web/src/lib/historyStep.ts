import type { RouterHistory } from '@tanstack/react-router';

/**
 * A step back through the browser's history that the app started itself (a dialog taking its entry
 * off again) is asynchronous: the browser answers it with a `popstate` a moment later. Until then any
 * other navigation races it, and whichever comes second can cancel the first (the app's own push is
 * undone, or a typed address is aborted). So such a step is counted here until its `popstate`, the
 * app's navigations wait for it (`gateNavigations`), and the document says so while one is under way
 * (`data-history-step="pending"` on <html>), for a browser test that is about to navigate.
 */
let pending = 0;
const waiters: (() => void)[] = [];

function setPending(count: number) {
  pending = count;
  if (typeof document === 'undefined') return;
  if (pending > 0) document.documentElement.dataset.historyStep = 'pending';
  else {
    delete document.documentElement.dataset.historyStep;
    for (const resolve of waiters.splice(0)) resolve();
  }
}

if (typeof window !== 'undefined') {
  // Steps are answered in the order they were asked: each popstate settles one.
  window.addEventListener('popstate', () => {
    if (pending > 0) setPending(pending - 1);
  });
}

/** Goes one entry back, counted until the browser has done it. */
export function stepBack(history: RouterHistory): void {
  setPending(pending + 1);
  history.back({ ignoreBlocker: true });
}

/** Resolves once no step back started by the app is under way. */
export function historySettled(): Promise<void> {
  if (pending === 0) return Promise.resolve();
  return new Promise((resolve) => waiters.push(resolve));
}

/** Makes the router's pushes and replaces wait for a step back under way instead of racing it. */
export function gateNavigations(history: RouterHistory): () => void {
  return history.block({
    blockerFn: async () => {
      await historySettled();
      return false;
    },
    enableBeforeUnload: false,
  });
}
