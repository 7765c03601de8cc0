import { useState } from 'react';
import { serverErrorMessage, serverFieldErrors } from '../../lib/api.ts';
import { useSendOnce } from '../../lib/sendOnce.ts';

/**
 * A money action confirmed in a MoneyConfirmDialog: the item the dialog confirms, one Idempotency-Key
 * per opening (useSendOnce: a second press is ignored), and the server's refusal shown inside the
 * dialog in the reader's language, so the member sees why without losing what they were confirming.
 * Field errors go back to the form the item came from, when there is one, and the dialog closes.
 *
 *     const confirmed = useConfirmedSend<Input>(t('funding.failed'));
 *     const sent = await confirmed.confirm((input, key) => record.mutateAsync({ ...input, key }), form.setServerErrors);
 *     if (sent) toast(...sent.item, sent.value);
 *     <MoneyConfirmDialog {...confirmed.dialog} title=... />
 */
export function useConfirmedSend<Item>(refusedFallback: string) {
  const [item, setItem] = useState<Item | null>(null);
  const [refusal, setRefusal] = useState<string | null>(null);
  const once = useSendOnce(item !== null);
  const open = (next: Item) => {
    setRefusal(null);
    setItem(next);
  };
  const close = () => {
    setItem(null);
    setRefusal(null);
  };
  /** Sends `run` once for the open item; resolves to the item and run's result when the server agreed, else undefined. */
  const confirm = async <Result>(
    run: (item: Item, key: string) => Promise<Result>,
    toForm?: (fields: Record<string, string>) => void,
  ): Promise<{ item: Item; value: Result } | undefined> => {
    if (item === null) return undefined;
    let sent;
    try {
      sent = await once.send((key) => run(item, key));
    } catch (error) {
      const fields = serverFieldErrors(error);
      if (toForm && Object.keys(fields).length > 0) {
        close();
        toForm(fields);
      } else {
        setRefusal(serverErrorMessage(error, refusedFallback));
      }
      return undefined;
    }
    if (!sent) return undefined;
    close();
    return { item, value: sent.value };
  };
  return { item, open, close, confirm, dialog: { open: item !== null, pending: once.busy, refusal, onClose: close } };
}
