/**
 * A rebuild's reading on a thread of its own, for the embedded (SQLite) event store. A build spends
 * about a quarter of its time reading events from the store and decoding them (JSON, upcasting, the
 * contract check); here a thread does that on its own connection, pages ahead of the build, and
 * hands each page over as one JSON text, which the build's thread parses in a fraction of that time
 * and then only applies. With two cores, reading and applying run side by side.
 */
import { type EventStore, capability } from '@kamai/domain';
import { type EventPage, type EventPages, type ProjectedEvent, type ReadAhead, readPages } from '@kamai/projections';
import { SealedEventStore } from '../privacy/sealed-store.ts';
import type { UnreadableReport } from '../privacy/sealing.ts';
import { startBundledThread } from '../thread-bundle.ts';
import type { FromReader, ReaderData, ToReader } from './read-ahead-messages.ts';

/**
 * Below this many events to read, a build reads on this thread: the reader thread takes about a
 * tenth of a second to start from its bundle (thread-bundle.ts; a third under tsx, where the bundle
 * cannot be made), and a build waits for its first page.
 */
const THREAD_FROM_EVENTS = 100_000;

/** Pages the thread reads ahead of the build: enough to keep both busy, few enough to bound memory. */
const PAGES_AHEAD = 3;

/** What the reader thread sends after it is ready, of its pages. */
type Arrival = Exclude<FromReader, { kind: 'ready' } | { kind: 'unreadable' }>;

/**
 * Where builds read their events: a reader thread when there are at least `threadFromEvents` to
 * read (default THREAD_FROM_EVENTS), this thread otherwise. While the thread starts, the build reads
 * its first pages here (unless `readHereWhileStarting` is false), and the thread begins after them.
 */
export function sqliteReadAhead(store: SealedEventStore, options: { threadFromEvents?: number; readHereWhileStarting?: boolean } = {}): ReadAhead {
  const onThisThread = readPages(store);
  const embedded = capability(store, 'embeddedFile');
  const reads = capability(store, 'syncReads');
  if (!embedded || !reads) return onThisThread;
  const threadFrom = options.threadFromEvents ?? THREAD_FROM_EVENTS;
  const keys = store.personal.location;
  const meanwhile = options.readHereWhileStarting ?? true;
  return (after, types, pageSize, opened) =>
    reads.headNow() - after >= threadFrom
      ? readerThread(
          { file: embedded.file, after, types: [...types], opened: [...opened], pageSize, ahead: PAGES_AHEAD, keys },
          meanwhile ? onThisThread(after, types, pageSize, opened) : null,
          store.personal.sealer.report,
        )
      : onThisThread(after, types, pageSize, opened);
}

/** The read-ahead for this store, if it has one (a log in a local file: SQLite; others are read on this thread). */
export function readAheadFor(store: EventStore): ReadAhead | undefined {
  return store instanceof SealedEventStore && capability(store, 'embeddedFile') ? sqliteReadAhead(store) : undefined;
}

/**
 * Pages from a reader thread, started from its bundle. Its start-up (loading its modules) takes about
 * a tenth of a second, more while the build's thread is busy beside it;
 * meanwhile the pages are read by `here`, when given, and the thread is told to begin after the
 * last of them once it is ready.
 */
function readerThread(data: ReaderData, here: EventPages | null, report: UnreadableReport): EventPages {
  const worker = startBundledThread('./read-ahead-thread.ts', import.meta.url, data);
  const arrived: Arrival[] = [];
  let waiting: ((message: Arrival) => void) | null = null;
  let failure: Error | null = null;
  let done = false;
  let ready = false;
  let started = false;
  let position = data.after;
  const fail = (err: Error) => {
    failure ??= err;
    waiting?.({ kind: 'failed', message: failure.message });
  };
  worker.on('message', (message: FromReader) => {
    if (message.kind === 'ready') ready = true;
    else if (message.kind === 'unreadable') report(message.event);
    else if (waiting) waiting(message);
    else arrived.push(message);
  });
  worker.on('error', fail);
  worker.on('exit', (code) => {
    if (!done) fail(new Error(`the read-ahead thread stopped (exit code ${code})`));
  });
  const toPage = (message: Arrival): EventPage | null => {
    if (message.kind === 'failed') {
      done = true;
      throw new Error(message.message);
    }
    if (message.kind === 'end') {
      done = true;
      return null;
    }
    worker.postMessage({ kind: 'more' } satisfies ToReader);
    // Decoded on the thread by the same toProjectedEvent a build on this thread uses; JSON carries
    // every value an event holds.
    return { events: JSON.parse(message.text) as ProjectedEvent[], position: message.position, read: message.read };
  };
  return {
    async next() {
      if (!started) {
        if (here && !ready && !failure && arrived.length === 0) {
          const page = await here.next();
          if (page) position = page.position;
          else done = true;
          return page;
        }
        started = true;
        worker.postMessage({ kind: 'start', after: position } satisfies ToReader);
      }
      const message = arrived.shift();
      if (message) return toPage(message);
      if (failure) throw failure;
      return toPage(
        await new Promise<Arrival>((resolve) => {
          waiting = (m) => {
            waiting = null;
            resolve(m);
          };
        }),
      );
    },
    async close() {
      done = true;
      await here?.close();
      await worker.terminate();
    },
  };
}
