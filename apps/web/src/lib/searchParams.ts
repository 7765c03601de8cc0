/**
 * Tabs and filters of the staff screens live in the URL's search params (the router's
 * `validateSearch`), so a refresh, Back and a shared link keep them. The router hands
 * `validateSearch` what it parsed from the address (strings, or numbers and booleans it read as
 * JSON); these keep only a valid value and drop anything else, so a mistyped or stale link opens
 * the screen with its defaults rather than an error. Small on purpose: route files are in the first
 * download.
 */

/** `value` when it is one of `allowed`, else undefined. */
export function oneOf<T extends string>(value: unknown, allowed: readonly T[]): T | undefined {
  return typeof value === 'string' && (allowed as readonly string[]).includes(value) ? (value as T) : undefined;
}

/** A calendar day as a date field gives it (YYYY-MM-DD), else undefined. */
export function isoDay(value: unknown): string | undefined {
  return typeof value === 'string' && /^\d{4}-\d{2}-\d{2}$/.test(value) ? value : undefined;
}

/** An id (a UUID or the system actor's name), else undefined. */
export function idParam(value: unknown): string | undefined {
  return typeof value === 'string' && /^[\w-]{1,64}$/.test(value) ? value : undefined;
}

/**
 * A word naming a choice (`status=erased`, `action=role_granted`), checked against its list by the
 * screen: the lists live in the contracts, which the first download does not carry.
 */
export function word(value: unknown): string | undefined {
  return typeof value === 'string' && /^[a-z_]{1,40}$/.test(value) ? value : undefined;
}

/** A switch that is on: `?late=true` (or 1); off is left out of the address. */
export function flag(value: unknown): true | undefined {
  return value === true || value === 'true' || value === 1 || value === '1' ? true : undefined;
}

/** Leaves out what is unset or at its default, so the address names only what was chosen. */
export function compact<T extends object>(search: { [K in keyof T]?: T[K] | '' | undefined }): T {
  return Object.fromEntries(Object.entries(search).filter(([, value]) => value !== undefined && value !== '')) as T;
}
