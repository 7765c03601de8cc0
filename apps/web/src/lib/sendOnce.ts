import { useCallback, useRef, useState } from 'react';
import { isNetworkFailure } from './http.ts';

const newKey = () => crypto.randomUUID();

/**
 * One user action, sent once. Every button that sends (money, proofs, reviews, admin forms) uses
 * this, so a double click, a double tap or an impatient second press never sends twice:
 *
 * - `key` is the action's Idempotency-Key. It is made when the dialog opens: pass the dialog's
 *   `open` (or nothing, for a component mounted inside the dialog's content, which mounts when it
 *   opens). Send it with the request (`apiRequest(..., idempotencyHeader(key))`): should the answer
 *   be lost and the user press again, the server answers the first request instead of doing it twice.
 * - `send(run)` runs `run(key)` unless a send is already waiting for its answer; the second press is
 *   ignored at once, before React has drawn the button disabled. It resolves to `{ value }`, run's
 *   result, or to `undefined` when the press was ignored; run's error is thrown on:
 *
 *       let sent;
 *       try { sent = await once.send((key) => mutation.mutateAsync({ ...input, key })); }
 *       catch (error) { showWhy(error); return; }
 *       if (!sent) return; // a second press while the first was sending
 *       done(sent.value);
 *
 * - `busy` is true from the press until the answer: show it on the button (disabled, a "Sending…"
 *   label) and pass it to the Dialog so nothing closes it meanwhile.
 * - Once the server has answered (done or refused), the next press is a new action with a new key
 *   (the user corrected the form, or acts on the next item). After a network failure the key stays:
 *   the next press may be the same request again, which the server then answers once.
 */
export function useSendOnce(open = true) {
  const [state, setState] = useState(() => ({ open, key: newKey() }));
  // A new key each time the dialog opens (state adjusted while rendering, React's pattern for
  // state that follows a prop).
  if (state.open !== open) setState({ open, key: open ? newKey() : state.key });
  const inFlight = useRef(false);
  const [busy, setBusy] = useState(false);
  const key = state.key;
  const send = useCallback(
    async <T>(run: (key: string) => Promise<T>): Promise<{ value: T } | undefined> => {
      if (inFlight.current) return undefined;
      inFlight.current = true;
      setBusy(true);
      try {
        const value = await run(key);
        setState((current) => ({ ...current, key: newKey() }));
        return { value };
      } catch (error) {
        if (!isNetworkFailure(error)) setState((current) => ({ ...current, key: newKey() }));
        throw error;
      } finally {
        inFlight.current = false;
        setBusy(false);
      }
    },
    [key],
  );
  return { key, send, busy };
}

/** The Idempotency-Key header of one action, for `apiRequest`'s extra headers. */
export const idempotencyHeader = (key: string | undefined): Record<string, string> => (key ? { 'Idempotency-Key': key } : {});
