/**
 * The embedded store's tamper evidence (chain.ts): the tables and columns it adds to the events
 * file, and the chain and checkpoint capabilities read from them. The append pipeline
 * (sqlite-writer.ts) writes the hashes and links with each append.
 */
import type Database from 'better-sqlite3';
import type { ChainSource, ChainedEvent, CheckpointStore, LedgerCheckpoint, LogLink, RecordedLogEnd } from '@kamai/domain';
import { chainHash, logHash } from './chain.ts';
import type { EventRow } from './sqlite-rows.ts';

/**
 * Tamper evidence (chain.ts): each row's hash chained to its stream's previous row, written in the
 * append's transaction. Added beside EVENTS_TABLE_SQL so older files gain it at open; rows written
 * before it are sealed then, in log order.
 */
function addChain(db: Database.Database): void {
  const columns = new Set((db.prepare('PRAGMA table_info(events)').all() as { name: string }[]).map((c) => c.name));
  if (columns.has('hash')) return;
  // Once, when the file gains the columns: seal the rows written before. Never later, or a row
  // slipped in without a hash would be sealed as if the store had written it.
  db.exec('ALTER TABLE events ADD COLUMN hash TEXT');
  db.exec('ALTER TABLE events ADD COLUMN prev_hash TEXT');
  const unsealed = db.prepare<[], EventRow>('SELECT * FROM events WHERE hash IS NULL ORDER BY position').all();
  if (unsealed.length === 0) return;
  const head = db.prepare<[string], { hash: string | null }>('SELECT hash FROM events WHERE stream_id = ? AND hash IS NOT NULL ORDER BY revision DESC LIMIT 1');
  const seal = db.prepare<[string, string | null, number]>('UPDATE events SET hash = ?, prev_hash = ? WHERE position = ?');
  const heads = new Map<string, string | null>();
  for (const row of unsealed) {
    if (!heads.has(row.stream_id)) heads.set(row.stream_id, head.get(row.stream_id)?.hash ?? null);
    const prev = heads.get(row.stream_id) ?? null;
    const hash = chainHash(prev, { streamId: row.stream_id, revision: row.revision, type: row.type, data: row.data, metadata: row.metadata });
    seal.run(hash, prev, row.position);
    heads.set(row.stream_id, hash);
  }
}

/**
 * The log's chain (chain.ts): on each row the position of the row before it and its log hash,
 * written with the append; and the signed checkpoints of the log's head. A file that predates the
 * columns gains them at open and its rows are linked then, once, in log order: like the stream
 * chain's sealing, never later, so a row slipped in afterwards is never linked as if the store had
 * written it.
 */
const CHECKPOINTS_SQL = `
  CREATE TABLE IF NOT EXISTS ledger_checkpoints (
    position    INTEGER PRIMARY KEY,
    hash        TEXT    NOT NULL,
    mac         TEXT    NOT NULL,
    recorded_at TEXT    NOT NULL
  ) STRICT;
`;

function addLogChain(db: Database.Database): void {
  db.exec(CHECKPOINTS_SQL);
  const columns = new Set((db.prepare('PRAGMA table_info(events)').all() as { name: string }[]).map((c) => c.name));
  if (columns.has('log_hash')) return;
  db.exec('ALTER TABLE events ADD COLUMN log_prev INTEGER');
  db.exec('ALTER TABLE events ADD COLUMN log_hash TEXT');
  const page = db.prepare<[number], { position: number; hash: string | null }>('SELECT position, hash FROM events WHERE position > ? ORDER BY position LIMIT 5000');
  const link = db.prepare<[number, string, number]>('UPDATE events SET log_prev = ?, log_hash = ? WHERE position = ?');
  let previous: LogLink | null = null;
  for (let rows = page.all(0); rows.length > 0; rows = page.all(previous?.position ?? 0)) {
    for (const row of rows) {
      const hash = logHash(previous, row.position, row.hash ?? '');
      link.run(previous?.position ?? 0, hash, row.position);
      previous = { position: row.position, hash };
    }
  }
}

/**
 * The log's end: its last row's position, stream, revision and log hash, moved with each batch of
 * appends (sqlite-writer.ts). Every row is linked into the log's chain (alone, or with the rest of
 * its group commit on its last row), so a stream's rows removed or rewritten anywhere but at the
 * log's end break a link; this one row covers the end. It replaces a head per stream
 * (`stream_heads`, one row per stream moved with every batch, about 2 µs of CPU an append:
 * docs/figures.md), which said no more once the log links existed.
 * A file that had the heads gains it at open, from its last row, once, as the chains were added.
 */
const LOG_END_SQL = `
  CREATE TABLE log_end (
    id        INTEGER PRIMARY KEY CHECK (id = 1),
    position  INTEGER NOT NULL,
    stream_id TEXT    NOT NULL,
    revision  INTEGER NOT NULL,
    hash      TEXT    NOT NULL
  ) STRICT;
`;

/** Records the log's end at its last row as the file holds it now (an empty log records none). */
export const LOG_END_FROM_LAST_ROW_SQL = `INSERT INTO log_end (id, position, stream_id, revision, hash)
  SELECT 1, position, stream_id, revision, COALESCE(log_hash, '') FROM events ORDER BY position DESC LIMIT 1`;

function addLogEnd(db: Database.Database): void {
  const exists = db.prepare("SELECT 1 FROM sqlite_schema WHERE type = 'table' AND name = 'log_end'").get();
  if (exists) return;
  db.exec(LOG_END_SQL);
  db.exec(LOG_END_FROM_LAST_ROW_SQL);
  db.exec('DROP TABLE IF EXISTS stream_heads');
}

/** Adds both chains and the log's end to a file that lacks them (in the opening transaction). */
export function addChains(db: Database.Database): void {
  addChain(db);
  addLogChain(db);
  addLogEnd(db);
}

export class SqliteChain implements ChainSource, CheckpointStore {
  readonly #assertOpen: () => void;
  readonly #sql: {
    readChain: Database.Statement<
      [number, number],
      EventRow & { hash: string | null; prev_hash: string | null; log_prev: number | null; log_hash: string | null }
    >;
    logHead: Database.Statement<[], { position: number; log_hash: string | null }>;
    checkpoints: Database.Statement<[], { position: number; hash: string; mac: string; recorded_at: string }>;
    addCheckpoint: Database.Statement<[number, string, string, string]>;
    logEnd: Database.Statement<[], { position: number; stream_id: string; revision: number; hash: string }>;
    positionOf: Database.Statement<[string, number], number>;
  };

  /** `assertOpen` throws once the store is closed. */
  constructor(db: Database.Database, assertOpen: () => void) {
    this.#assertOpen = assertOpen;
    this.#sql = {
      readChain: db.prepare('SELECT * FROM events WHERE position > ? ORDER BY position LIMIT ?'),
      logHead: db.prepare('SELECT position, log_hash FROM events ORDER BY position DESC LIMIT 1'),
      checkpoints: db.prepare('SELECT position, hash, mac, recorded_at FROM ledger_checkpoints ORDER BY position'),
      addCheckpoint: db.prepare('INSERT INTO ledger_checkpoints (position, hash, mac, recorded_at) VALUES (?, ?, ?, ?) ON CONFLICT (position) DO NOTHING'),
      logEnd: db.prepare('SELECT position, stream_id, revision, hash FROM log_end WHERE id = 1'),
      positionOf: db.prepare<[string, number], number>('SELECT position FROM events WHERE stream_id = ? AND revision = ?').pluck(),
    };
  }

  /** The log with its chain fields, for verify-ledger (chain.ts). */
  async readChain(after: number, limit: number): Promise<ChainedEvent[]> {
    this.#assertOpen();
    return this.#sql.readChain.all(after, limit).map((row) => ({
      position: row.position,
      streamId: row.stream_id,
      revision: row.revision,
      type: row.type,
      data: row.data,
      metadata: row.metadata,
      hash: row.hash,
      prevHash: row.prev_hash,
      logPrev: row.log_prev,
      logHash: row.log_hash,
      recordedAt: row.recorded_at,
    }));
  }

  async logHead(): Promise<LogLink | null> {
    this.#assertOpen();
    const row = this.#sql.logHead.get();
    return row ? { position: row.position, hash: row.log_hash ?? '' } : null;
  }

  async listCheckpoints(): Promise<LedgerCheckpoint[]> {
    this.#assertOpen();
    return this.#sql.checkpoints.all().map((row) => ({ position: row.position, hash: row.hash, mac: row.mac, recordedAt: row.recorded_at }));
  }

  /** Outside any append transaction (those run synchronously): one autocommit row, as writeSnapshot's. */
  async recordCheckpoint(checkpoint: LedgerCheckpoint): Promise<void> {
    this.#assertOpen();
    this.#sql.addCheckpoint.run(checkpoint.position, checkpoint.hash, checkpoint.mac, checkpoint.recordedAt);
  }

  /** None: this store records the log's end instead (recordedLogEnd). */
  async chainHeads(): Promise<null> {
    this.#assertOpen();
    return null;
  }

  async recordedLogEnd(): Promise<RecordedLogEnd | null> {
    this.#assertOpen();
    const row = this.#sql.logEnd.get();
    return row ? { position: row.position, streamId: row.stream_id, revision: row.revision, hash: row.hash } : null;
  }

  async positionOf(streamId: string, revision: number): Promise<number | null> {
    this.#assertOpen();
    return this.#sql.positionOf.get(streamId, revision) ?? null;
  }

}
