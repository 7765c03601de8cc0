/**
 * The reader thread of read-ahead.ts: once started (`ready`, then told where to begin), reads the
 * store's events after that position on a connection of its own, decodes those of the build's
 * types (opening the blobs holding a sealed field its read models `opens`, leaving the others shut),
 * and posts each page as one JSON text, keeping `ahead` pages in flight (one more each time the
 * build takes one).
 */
import Database from 'better-sqlite3';
import { parentPort, workerData } from 'node:worker_threads';
// The light module only: the thread's start-up is part of a build's time.
import { decodePage, opensSealed } from '@kamai/projections/projection';
import { type EventTuple, READ_ALL_SQL, TUPLE_POSITION, TUPLE_TYPE, toRecordedEvent } from '../event-store/sqlite-rows.ts';
import type { FromReader, ReaderData, ToReader } from './read-ahead-messages.ts';
import { describeError } from '../ts-thread.ts';
import { personalDataAt } from '../privacy/personal-data.ts';
import { unreadableEvent } from '../privacy/sealing.ts';

const port = parentPort;
if (!port) throw new Error('read-ahead-thread.ts runs only as a worker thread');
const data = workerData as ReaderData;
const post = (message: FromReader) => port.postMessage(message);

try {
  const personal = personalDataAt(data.keys, (event) => post({ kind: 'unreadable', event: unreadableEvent(event) }));
  const db = new Database(data.file, { fileMustExist: true });
  db.pragma('query_only = ON');
  const read = db.prepare<[number, number], EventTuple>(READ_ALL_SQL).raw(true);
  const types = new Set(data.types);
  const opened = new Set(data.opened);
  const { sealer } = personal;
  let position = data.after;
  let credit = data.ahead;
  let ended = false;
  let started = false;
  const pump = () => {
    try {
      while (credit > 0 && !ended) {
        const rows = read.all(position, data.pageSize);
        if (rows.length === 0) {
          ended = true;
          db.close();
          personal.close();
          post({ kind: 'end' });
          return;
        }
        position = rows.at(-1)![TUPLE_POSITION];
        credit -= 1;
        // Rows of other types are counted, not parsed; blobs holding no field a projection of the build reads stay shut.
        const recorded = rows
          .filter((row) => types.has(row[TUPLE_TYPE]))
          .map((row) => {
            const event = toRecordedEvent(row);
            // The event is this thread's own (fresh from JSON, and posted as JSON): changed in place, not copied.
            return opensSealed(opened, event.type, sealer.sealedPaths(event)) ? sealer.open(event, true) : sealer.leaveSealed(event, true);
          });
        const events = decodePage(recorded, types);
        post({ kind: 'page', text: JSON.stringify(events), position, read: rows.length });
      }
    } catch (err) {
      ended = true;
      post({ kind: 'failed', message: describeError(err) });
    }
  };
  port.on('message', (message: ToReader) => {
    if (message.kind === 'start') {
      started = true;
      position = message.after;
    } else credit += 1;
    if (started) pump();
  });
  post({ kind: 'ready' });
} catch (err) {
  post({ kind: 'failed', message: describeError(err) });
}
