/**
 * What read-ahead.ts and its reader thread (read-ahead-thread.ts) tell each other. A module of its
 * own so the thread imports these types without reaching read-ahead.ts, which loads the read models.
 */
import type { KeyStoreLocation } from '../privacy/personal-data.ts';
import type { UnreadableEvent } from '../privacy/sealing.ts';

/** What the reader thread is given (read-ahead-thread.ts reads it as workerData). */
export interface ReaderData {
  file: string;
  after: number;
  types: string[];
  /** The sealed fields the build reads (openedFields: types, `Type:path`s): blobs holding none are left shut (NOT_OPENED). */
  opened: string[];
  pageSize: number;
  ahead: number;
  /** The thread opens sealed personal fields with these keys, as the store's own reads do. */
  keys: KeyStoreLocation;
}

/** Messages from the reader thread; `failed` is also what ts-thread.ts reports when the entry fails to load. */
export type FromReader =
  | { kind: 'ready' }
  | { kind: 'page'; text: string; position: number; read: number }
  | { kind: 'end' }
  | { kind: 'failed'; message: string }
  /** A sealed blob that does not open: reported by the store's sealer in the build's thread (the thread loads no logger). */
  | { kind: 'unreadable'; event: UnreadableEvent };

/** Messages to the reader thread: where to begin (once, after `ready`), and a page was taken, read one more. */
export type ToReader = { kind: 'start'; after: number } | { kind: 'more' };
