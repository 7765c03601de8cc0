/**
 * The embedded store's synchronous reads (the `syncReads` capability, and readAllNow for its
 * subscriptions): better-sqlite3 answers at once, so followers that must not wait a turn (the
 * session cache, the own-appends follower) read on the store's connection without awaiting.
 */
import type Database from 'better-sqlite3';
import type { EventHeader, RecordedEvent, SyncReads } from '@kamai/domain';
import { type EventHeaderRow, type EventTuple, HEADER_COLUMNS, READ_ALL_SQL, READ_COLUMNS, toRecordedEvent } from './sqlite-rows.ts';

export class SqliteSyncReads implements SyncReads {
  readonly #db: Database.Database;
  readonly #head: () => number;
  readonly #assertOpen: () => void;
  readonly #readAll: Database.Statement<[number, number], EventTuple>;
  /** Statements reading given event types in a position range, one per set of types: whole events, and headers. */
  readonly #typedReads = new Map<string, Database.Statement<unknown[], EventTuple>>();
  readonly #headerReads = new Map<string, Database.Statement<unknown[], EventHeaderRow>>();

  constructor(db: Database.Database, head: () => number, assertOpen: () => void) {
    this.#db = db;
    this.#head = head;
    this.#assertOpen = assertOpen;
    this.#readAll = db.prepare<[number, number], EventTuple>(READ_ALL_SQL).raw(true);
  }

  /** Synchronous headPosition. */
  headNow(): number {
    this.#assertOpen();
    return this.#head();
  }

  /** Synchronous readAll (the store's readAll and its subscriptions). */
  readAllNow(after: number, limit: number): RecordedEvent[] {
    assertPosition(after);
    if (!Number.isSafeInteger(limit) || limit < 1) throw new TypeError(`limit ${limit} must be a positive integer`);
    return this.#readAll.all(after, limit).map(toRecordedEvent);
  }

  /**
   * The events of the given types in (after, upTo], in order, read synchronously: for followers that
   * care about a few types only (the session cache) and must not skip past a range unread.
   */
  readTypesNow(after: number, upTo: number, types: readonly string[]): RecordedEvent[] {
    this.#assertOpen();
    assertPosition(after);
    if (types.length === 0 || upTo <= after) return [];
    return this.#typedRead(this.#typedReads, READ_COLUMNS, types, true).all(after, upTo, ...types).map(toRecordedEvent);
  }

  /** readTypesNow's events as headers: three columns read, nothing parsed. */
  readHeadersNow(after: number, upTo: number, types: readonly string[]): EventHeader[] {
    this.#assertOpen();
    assertPosition(after);
    if (types.length === 0 || upTo <= after) return [];
    return this.#typedRead(this.#headerReads, HEADER_COLUMNS, types)
      .all(after, upTo, ...types)
      .map((row) => ({ position: row.position, streamId: row.stream_id, type: row.type }));
  }

  /** A statement reading `columns` of the given types' events in a position range; `raw` for arrays (EventTuple). */
  #typedRead<Row>(cache: Map<string, Database.Statement<unknown[], Row>>, columns: string, types: readonly string[], raw = false): Database.Statement<unknown[], Row> {
    const key = types.join('\n');
    let statement = cache.get(key);
    if (!statement) {
      statement = this.#db
        .prepare<unknown[], Row>(`SELECT ${columns} FROM events WHERE position > ? AND position <= ? AND type IN (${types.map(() => '?').join(', ')}) ORDER BY position`)
        .raw(raw);
      cache.set(key, statement);
    }
    return statement;
  }
}

export function assertPosition(after: number): void {
  if (!Number.isSafeInteger(after) || after < 0) throw new TypeError(`position ${after} must be a non-negative integer`);
}
