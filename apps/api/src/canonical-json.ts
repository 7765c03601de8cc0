/**
 * JSON with its keys sorted, so the same value written with keys in another order reads the same:
 * an Idempotency-Key's request body, a snapshot against the fold of its events. Text that is not
 * JSON is answered as it is.
 */
export function canonical(text: string): string {
  try {
    return JSON.stringify(JSON.parse(text), (_key, value: unknown) =>
      value && typeof value === 'object' && !Array.isArray(value)
        ? Object.fromEntries(Object.entries(value as Record<string, unknown>).sort(([a], [b]) => (a < b ? -1 : 1)))
        : value,
    );
  } catch {
    return text;
  }
}
