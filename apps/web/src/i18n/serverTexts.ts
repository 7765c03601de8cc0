import { useEffect, useSyncExternalStore } from 'react';
import { loadNamespaces } from './index.ts';

/**
 * The server's texts in the reader's language (messages.ts and the `messages` namespace) are not part of the
 * first download: no first screen shows one until something fails. They come
 * - before any failed request is thrown (http.ts awaits `loadServerTexts`), so every server error a
 *   screen or toast shows is translated from its first frame;
 * - when a form field first has an error to show (`useServerTexts`, which shows the text once in);
 * - with every signed-in screen but Home (routes/_authed.tsx), whose lists and dialogs show them;
 * - once the first screen has shown (main.tsx), so later errors need not wait at all.
 */
type ServerTexts = typeof import('./messages.ts');

let texts: ServerTexts | null = null;
let loading: Promise<ServerTexts> | null = null;
const listeners = new Set<() => void>();

export function loadServerTexts(): Promise<ServerTexts> {
  loading ??= Promise.all([import('./messages.ts'), loadNamespaces('messages')]).then(
    ([module]) => {
      texts = module;
      for (const listener of listeners) listener();
      return module;
    },
    (error: unknown) => {
      // A failed chunk download may succeed on the next try.
      loading = null;
      throw error;
    },
  );
  return loading;
}

/** The translations once in, else null (callers then show the server's English, or wait). */
export function serverTexts(): ServerTexts | null {
  return texts;
}

function subscribe(listener: () => void): () => void {
  listeners.add(listener);
  return () => listeners.delete(listener);
}

/** The translations for a component: null until in, and it renders again once they are. */
export function useServerTexts(wanted = true): ServerTexts | null {
  const current = useSyncExternalStore(subscribe, serverTexts, serverTexts);
  useEffect(() => {
    if (wanted && !current) void loadServerTexts().catch(() => undefined);
  }, [wanted, current]);
  return current;
}
