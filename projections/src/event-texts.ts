import { unreadableValue } from '@kamai/contracts';
import type { EventStore } from '@kamai/domain';
import type { Kysely } from 'kysely';
import type { ReadDb } from './schema.ts';

// Kysely<ReadDb> is db.ts's ReadDbHandle; named here directly, as hot-reads.ts does.
type ReadDbHandle = Kysely<ReadDb>;

/**
 * Older events' literal texts (a notification's title and message, a ledger entry's description,
 * written before texts were keys and parameters) are free text about a person: sealed in the log,
 * and kept by no read model. A row marks that its text is its event's own; a query that lists such
 * rows reads those fields from the events, by position, through the store attached to its read
 * database. The store opens them (or reads them as erased once their person is), so an erasure
 * needs no change to these rows, and a build never decrypts them (Projection.opens leaves them out).
 */
type EventReads = Pick<EventStore, 'readAll'>;

const stores = new WeakMap<ReadDbHandle, EventReads>();

/** Lets queries on `db` read older events' literal texts from `store` (the app's, once, at start). */
export function readEventTextsFrom(db: ReadDbHandle, store: EventReads): void {
  stores.set(db, store);
}

/**
 * The string fields `paths` of the events at `positions`, by position. A field that is not a string
 * there (an event missing or changed) reads as unreadable, as a sealed field that does not open does.
 */
export async function eventTexts<P extends string>(db: ReadDbHandle, positions: readonly number[], paths: readonly P[]): Promise<Map<number, Record<P, string>>> {
  const texts = new Map<number, Record<P, string>>();
  if (positions.length === 0) return texts;
  const store = stores.get(db);
  if (!store) throw new Error('these rows keep their text in the event log: attach the event store to the read database (readEventTextsFrom)');
  for (const position of new Set(positions)) {
    const [event] = await store.readAll({ after: position - 1, limit: 1 });
    const data = event?.position === position && typeof event.data === 'object' && event.data !== null && !Array.isArray(event.data) ? event.data : {};
    const fields = {} as Record<P, string>;
    for (const path of paths) {
      const value = data[path];
      fields[path] = typeof value === 'string' ? value : unreadableValue(path);
    }
    texts.set(position, fields);
  }
  return texts;
}
