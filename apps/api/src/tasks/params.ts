import { notFound } from '../http/errors.ts';

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/**
 * An id from a path: every task and submission id is a UUID, so anything else names nothing and is
 * a 404 (never a 500 or a store lookup). Lower-cased, the form ids are written in.
 */
export function pathId(raw: string | undefined, notFoundMessage: string): string {
  if (!raw || !UUID.test(raw)) throw notFound(notFoundMessage);
  return raw.toLowerCase();
}
