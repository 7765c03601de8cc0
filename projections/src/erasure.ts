import { ERASED, PERSONAL_FIELDS } from '@kamai/contracts';

/**
 * What a read model keeps of an erased person: on `UserErased` each projection overwrites the
 * personal parts of its rows with what a rebuild would write from events whose personal fields read
 * as ERASED, so live rows and rebuilt rows are the same.
 */

/** The personal paths of a withdrawal destination (`destination.upiId` -> `upiId`). */
export const DESTINATION_PATHS = pathsUnder('WithdrawalRequested', 'destination.');
/** The personal message parameters of notifications (`params.destination` -> `destination`). */
export const PARAM_PATHS = pathsUnder('NotificationSent', 'params.');
/** The same for ledger entries' parameters. */
export const LEDGER_PARAM_PATHS = pathsUnder('WalletDebited', 'params.');

function pathsUnder(type: keyof typeof PERSONAL_FIELDS, prefix: string): string[] {
  return (PERSONAL_FIELDS[type]?.paths ?? []).filter((path) => path.startsWith(prefix)).map((path) => path.slice(prefix.length));
}

/** A copy of `value` whose present top-level `keys` read ERASED. */
export function scrubPaths<T extends Record<string, unknown>>(value: T, keys: readonly string[]): T {
  const copy: Record<string, unknown> = { ...value };
  for (const key of keys) if (Object.hasOwn(copy, key)) copy[key] = ERASED;
  return copy as T;
}
