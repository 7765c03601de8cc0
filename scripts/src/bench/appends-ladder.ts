/**
 * What each part of a chained append costs SQLite and its digests, without the store around it:
 * plain better-sqlite3 statements, 64 rows a transaction, adding the store's work one piece at a
 * time, and the alternatives a new chain codec could take (fewer or binary chain columns, a stream
 * hash over the event's JSON as stored, one log digest per transaction). Each configuration has a
 * file of its own; they run in interleaved slices in one process, so the machine's load falls on
 * all alike. Prints CPU µs (user + system) per row; on a tmpfs (/dev/shm) that is all the time.
 *
 *   node_modules/.bin/tsx scripts/src/bench/appends-ladder.ts [--seconds 6] [--dir /dev/shm]
 */
import { hash } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import Database from 'better-sqlite3';
import { EVENTS_TABLE_SQL, chainHashOf, chainRest, LOG_END_UPSERT_SQL, logHashOf } from '@kamai/api';
import { commandEvent, cpuOf, dirArg, numberArg } from './appends.ts';

const ROWS_PER_TRANSACTION = 64;
const STREAMS = 1024;

interface Rung {
  label: string;
  /** The chain's columns written with each row (none: no digests either, unless `digests`). */
  columns: readonly string[];
  digests?: boolean;
  /** The log's end upserted once per transaction, to its last row (as the store does). */
  logEnd?: boolean;
  /** The stream hash over the event's JSON as stored (`[prev, stream, revision, type, data, metadata]`, data and metadata unquoted). */
  rawJson?: boolean;
  /** One log digest per transaction over its rows' stream hashes, instead of one per row. */
  logPerTransaction?: boolean;
}

const RUNGS: readonly Rung[] = [
  { label: 'plain: the 7 columns', columns: [] },
  { label: '+ both digests, nothing stored', columns: [], digests: true },
  { label: '+ the 4 chain columns (a link per row)', columns: ['hash', 'prev_hash', 'log_prev', 'log_hash'] },
  { label: '+ the log\'s end: the chain until 2026-11-30', columns: ['hash', 'prev_hash', 'log_prev', 'log_hash'], logEnd: true },
  { label: 'today: hash only, a log digest per transaction, end', columns: ['hash'], logEnd: true, logPerTransaction: true },
  { label: 'codec: hash, log_hash only (hex)', columns: ['hash', 'log_hash'] },
  { label: 'codec: both hashes in one 64-byte BLOB', columns: ['chain'] },
  { label: 'codec: hash, log_hash as 32-byte BLOBs', columns: ['hash_blob', 'log_blob'] },
  { label: 'codec: 2 hex columns, raw JSON, log end', columns: ['hash', 'log_hash'], logEnd: true, rawJson: true },
  { label: 'codec: as above, one log digest per transaction', columns: ['hash'], logEnd: true, rawJson: true, logPerTransaction: true },
];

const CHAIN_COLUMNS_SQL = `
  ALTER TABLE events ADD COLUMN hash TEXT; ALTER TABLE events ADD COLUMN prev_hash TEXT;
  ALTER TABLE events ADD COLUMN log_prev INTEGER; ALTER TABLE events ADD COLUMN log_hash TEXT;
  ALTER TABLE events ADD COLUMN chain BLOB; ALTER TABLE events ADD COLUMN hash_blob BLOB; ALTER TABLE events ADD COLUMN log_blob BLOB;
  CREATE TABLE log_end (id INTEGER PRIMARY KEY CHECK (id = 1), position INTEGER NOT NULL, stream_id TEXT NOT NULL, revision INTEGER NOT NULL, hash TEXT NOT NULL) STRICT;
`;

interface Runner {
  rung: Rung;
  db: Database.Database;
  transaction: () => void;
  rows: number;
  cpuMicros: number;
}

function runner(rung: Rung, file: string): Runner {
  const db = new Database(file);
  db.pragma('journal_mode = WAL');
  db.pragma('synchronous = FULL');
  db.exec(EVENTS_TABLE_SQL + CHAIN_COLUMNS_SQL);
  const extra = rung.columns.map((c) => `, ${c}`).join('');
  const insert = db.prepare<unknown[]>(
    `INSERT INTO events (position, event_id, stream_id, revision, type, data, metadata, recorded_at${extra}) VALUES (?, ?, ?, ?, ?, ?, ?, ?${', ?'.repeat(rung.columns.length)})`,
  );
  const moveLogEnd = db.prepare<unknown[]>(LOG_END_UPSERT_SQL);
  const digests = rung.digests === true || rung.columns.length > 0;
  const revisions = new Array<number>(STREAMS).fill(-1);
  const lastHashes = new Array<string>(STREAMS).fill('');
  let position = 0;
  let logLinked = '';
  let end: unknown[] = [];
  const self: Runner = { rung, db, rows: 0, cpuMicros: 0, transaction: () => {} };
  const writeRow = (n: number) => {
    const stream = n % STREAMS;
    const streamId = `bench-${stream}`;
    const revision = (revisions[stream] = (revisions[stream] ?? -1) + 1);
    const event = commandEvent(n);
    const data = JSON.stringify(event.data);
    const values: unknown[] = [position + 1, event.id, streamId, revision, event.type, data, '{}', new Date().toISOString()];
    if (digests) {
      const previous = lastHashes[stream] ?? '';
      const streamHash = rung.rawJson
        ? hash('sha256', `["${previous}",${JSON.stringify(streamId)},${revision},${JSON.stringify(event.type)},${data},{}]`, 'hex')
        : chainHashOf(previous || null, JSON.stringify(streamId), revision, chainRest(event.type, data, '{}'));
      let linked = '';
      if (rung.logPerTransaction) logLinked += streamHash;
      else linked = logLinked = logHashOf(position, logLinked, position + 1, streamHash);
      for (const column of rung.columns) {
        if (column === 'hash') values.push(streamHash);
        else if (column === 'prev_hash') values.push(previous || null);
        else if (column === 'log_prev') values.push(position);
        else if (column === 'log_hash') values.push(linked);
        else if (column === 'chain') values.push(Buffer.from(streamHash + linked, 'hex'));
        else if (column === 'hash_blob') values.push(Buffer.from(streamHash, 'hex'));
        else values.push(Buffer.from(linked, 'hex'));
      }
      lastHashes[stream] = streamHash;
      if (rung.logEnd) end = [position + 1, streamId, revision, linked || logLinked];
    }
    insert.run(values);
    position += 1;
  };
  self.transaction = db.transaction(() => {
    for (let i = 0; i < ROWS_PER_TRANSACTION; i++) writeRow(self.rows++);
    if (rung.logPerTransaction) logLinked = hash('sha256', logLinked, 'hex');
    if (rung.logEnd) moveLogEnd.run(end);
  });
  return self;
}

const args = process.argv.slice(2);
const seconds = numberArg(args, 'seconds') ?? 6;
const base = dirArg(args) ?? tmpdir();
const dir = mkdtempSync(join(base, 'kamai-bench-ladder-'));
const runners = RUNGS.map((rung, i) => runner(rung, join(dir, `rung-${i}.db`)));
try {
  const sliceMs = 100;
  const rounds = Math.max(1, Math.round((seconds * 1000) / (sliceMs * runners.length)));
  for (let round = 0; round < rounds; round++) {
    for (let i = 0; i < runners.length; i++) {
      const run = runners[(round + i) % runners.length]!;
      const started = performance.now();
      const before = process.cpuUsage();
      while (performance.now() - started < sliceMs) run.transaction();
      run.cpuMicros += cpuOf(before);
    }
  }
  console.log(`CPU µs per row, ${ROWS_PER_TRANSACTION} rows a transaction, WAL, synchronous=FULL, ${base}`);
  for (const run of runners) console.log(`  ${run.rung.label.padEnd(52)} ${(run.cpuMicros / run.rows).toFixed(2).padStart(6)}  (${run.rows} rows)`);
} finally {
  for (const run of runners) run.db.close();
  rmSync(dir, { recursive: true, force: true });
}
