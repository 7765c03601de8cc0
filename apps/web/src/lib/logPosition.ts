import { LOG_POSITION_HEADER } from '@kamai/contracts';

/**
 * Read-your-writes across API nodes: the highest log position an answer named (a command's), sent
 * back on every request so that whichever node answers waits until it has what this client did.
 */
let highest = 0;

/** Remembers the position an answer names, if it is higher than any seen. */
export function rememberPosition(response: Response): void {
  const named = Number(response.headers.get(LOG_POSITION_HEADER));
  if (Number.isSafeInteger(named) && named > highest) highest = named;
}

/** The header naming the highest position seen, for a request; none before any command. */
export function positionHeaders(): Record<string, string> {
  return highest > 0 ? { [LOG_POSITION_HEADER]: String(highest) } : {};
}
