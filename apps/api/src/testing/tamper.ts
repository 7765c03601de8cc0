/**
 * What someone holding a copy of the embedded event store's file can do to it behind the store's
 * back, for the tamper-evidence specs: every change below keeps each stream's own chain consistent,
 * as an attacker who read chain.ts would.
 */
import Database from 'better-sqlite3';
import { type LogLink, batchLogHashOf, logHash, streamHashFor } from '../event-store/chain.ts';
import { LOG_END_FROM_LAST_ROW_SQL } from '../event-store/sqlite-chain.ts';

interface Row {
  position: number;
  stream_id: string;
  revision: number;
  type: string;
  data: string;
  metadata: string;
}

function withFile<T>(file: string, change: (db: Database.Database) => T): T {
  const db = new Database(file);
  try {
    return db.transaction(() => change(db))();
  } finally {
    db.close();
  }
}

/** Moves the log's recorded end to its last row as it is now (log_end, sqlite-chain.ts). */
function fixLogEnd(db: Database.Database): void {
  db.prepare('DELETE FROM log_end').run();
  db.prepare(LOG_END_FROM_LAST_ROW_SQL).run();
}

/**
 * Recomputes a stream's chain from its rows as they are now (after `edit` changed them), each row's
 * hash in the form it carries, and moves the log's end to match.
 */
function rechain(db: Database.Database, streamId: string): void {
  const rows = db.prepare<[string], Row & { hash: string; prev_hash: string | null }>('SELECT * FROM events WHERE stream_id = ? ORDER BY revision').all(streamId);
  let prev: string | null = null;
  for (const row of rows) {
    const hash = streamHashFor(row.hash, prev, { streamId, revision: row.revision, type: row.type, data: row.data, metadata: row.metadata });
    db.prepare('UPDATE events SET hash = ?, prev_hash = ? WHERE position = ?').run(hash, row.prev_hash === null ? null : prev, row.position);
    prev = hash;
  }
  fixLogEnd(db);
}

/** `text` with its letter at `at` changed (A for any other, B for A): a byte of a base64 ciphertext flipped. */
export function changeLetter(text: string, at: number): string {
  return `${text.slice(0, at)}${text[at] === 'A' ? 'B' : 'A'}${text.slice(at + 1)}`;
}

/** Deletes a whole stream, and moves the log's end back should it have held the newest event. */
export function deleteStream(file: string, streamId: string): void {
  withFile(file, (db) => {
    db.prepare('DELETE FROM events WHERE stream_id = ?').run(streamId);
    fixLogEnd(db);
  });
}

/** Drops a stream's events after `keepThrough` and moves the log's end back to the last event kept. */
export function truncateStream(file: string, streamId: string, keepThrough: number): void {
  withFile(file, (db) => {
    db.prepare('DELETE FROM events WHERE stream_id = ? AND revision > ?').run(streamId, keepThrough);
    rechain(db, streamId);
  });
}

/** Replaces text in one event's data (or metadata) and rechains its stream, head included. */
export function editAndRechain(file: string, position: number, from: string, to: string, column: 'data' | 'metadata' = 'data'): string {
  return withFile(file, (db) => {
    const row = db.prepare<[number], Row>('SELECT * FROM events WHERE position = ?').get(position);
    if (!row || !row[column].includes(from)) throw new Error(`the event at position ${position} holds no ${from}`);
    db.prepare(`UPDATE events SET ${column} = ? WHERE position = ?`).run(row[column].replace(from, to), position);
    rechain(db, row.stream_id);
    return row.stream_id;
  });
}

/** Recomputes the whole log's chain over the rows as they are: what an attacker who knows chain.ts does last. */
export function relinkLog(file: string): void {
  withFile(file, (db) => {
    const rows = db.prepare<[], { position: number; hash: string }>('SELECT position, hash FROM events ORDER BY position').all();
    let previous: LogLink | null = null;
    for (const row of rows) {
      const hash = logHash(previous, row.position, row.hash);
      db.prepare('UPDATE events SET log_prev = ?, log_hash = ? WHERE position = ?').run(previous?.position ?? 0, hash, row.position);
      previous = { position: row.position, hash };
    }
    fixLogEnd(db);
  });
}

/**
 * Links every row after the first as one group commit (sqlite-writer.ts): no link on them but the
 * last, which links them all. Another way to relink the whole log.
 */
export function relinkAsOneBatch(file: string): void {
  withFile(file, (db) => {
    const rows = db.prepare<[], { position: number; hash: string }>('SELECT position, hash FROM events ORDER BY position').all();
    const [first, ...rest] = rows;
    const last = rest.at(-1);
    if (!first || !last) throw new Error('relinkAsOneBatch needs two rows or more');
    const firstLink = logHash(null, first.position, first.hash);
    db.prepare('UPDATE events SET log_prev = NULL, log_hash = NULL').run();
    db.prepare('UPDATE events SET log_prev = 0, log_hash = ? WHERE position = ?').run(firstLink, first.position);
    const linked = batchLogHashOf(first.position, firstLink, rest.flatMap((row) => [row.position, row.hash]));
    db.prepare('UPDATE events SET log_prev = ?, log_hash = ? WHERE position = ?').run(first.position, linked, last.position);
    fixLogEnd(db);
  });
}

/** Deletes every signed checkpoint kept in the file. */
export function deleteCheckpoints(file: string): void {
  withFile(file, (db) => db.prepare('DELETE FROM ledger_checkpoints').run());
}
