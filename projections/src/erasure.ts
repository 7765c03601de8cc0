import { PERSONAL_FIELDS, erasedValue } from '@kamai/contracts';

/**
 * What a read model keeps of an erased person: on `UserErased` each projection overwrites the
 * personal parts of its rows with what a rebuild would write from events whose personal fields read
 * as erased, so live rows and rebuilt rows are the same. Which parts are personal is PERSONAL_FIELDS'
 * to say, never the projection's: a projection only says where it keeps each field of an event.
 */

type PersonalEventType = keyof typeof PERSONAL_FIELDS;

/** The personal paths of an event type below `prefix`, without it (`destination.upiId` -> `upiId`). */
export function pathsUnder(type: PersonalEventType, prefix: string): string[] {
  return (PERSONAL_FIELDS[type]?.paths ?? []).filter((path) => path.startsWith(prefix)).map((path) => path.slice(prefix.length));
}

/** The personal paths of a withdrawal destination (`destination.upiId` -> `upiId`). */
export const DESTINATION_PATHS = pathsUnder('WithdrawalRequested', 'destination.');
/** The personal message parameters of notifications (`params.destination` -> `destination`). */
export const PARAM_PATHS = pathsUnder('NotificationSent', 'params.');
/** The same for ledger entries' parameters (credits and debits). */
export const LEDGER_PARAM_PATHS = [...new Set([...pathsUnder('WalletCredited', 'params.'), ...pathsUnder('WalletDebited', 'params.')])];

/** A copy of `value` whose present top-level `keys` read as erased. */
export function scrubPaths<T extends Record<string, unknown>>(value: T, keys: readonly string[]): T {
  const copy: Record<string, unknown> = { ...value };
  for (const key of keys) if (Object.hasOwn(copy, key)) copy[key] = erasedValue(key);
  return copy as T;
}

/**
 * Where a projection keeps an event's fields: `{ eventField: column }`, for the fields it keeps in
 * columns of their own. Fields it does not keep are simply absent.
 */
export type ColumnsOf = Readonly<Record<string, string>>;

/**
 * The columns to overwrite on erasure: every column that holds a personal field of `type` (per
 * PERSONAL_FIELDS), set to what that field reads as erased. A field newly listed as personal is
 * scrubbed from its column without the projection changing.
 */
export function erasedColumns(type: PersonalEventType, columns: ColumnsOf): Record<string, string> {
  const set: Record<string, string> = {};
  for (const path of PERSONAL_FIELDS[type]?.paths ?? []) {
    const column = columns[path];
    if (column !== undefined) set[column] = erasedValue(path);
  }
  return set;
}

/**
 * A nullable column that holds a field of `type` only on some rows (a rejection's reason, null until
 * rejected): what it reads as erased when the field is sealed, or undefined when it is plain. Rows
 * where it is null stay null, as a rebuild leaves them.
 */
export function erasedTextOf(type: PersonalEventType, path: string): string | undefined {
  return PERSONAL_FIELDS[type]?.paths.includes(path) ? erasedValue(path) : undefined;
}
