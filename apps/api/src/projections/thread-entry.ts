/**
 * The projection thread's side (see thread.ts): the inline ProjectionRunner on connections of its
 * own, reporting each position it reaches to the thread that serves HTTP.
 */
import { parentPort, workerData } from 'node:worker_threads';
import { capability } from '@kamai/domain';
import { ProjectionRunner, WAL_AUTOCHECKPOINT_PAGES, allProjections, openReadDb, sqliteConnectionOf } from '@kamai/projections';
import { openSqliteEventStore } from '../event-store/sqlite.ts';
import { type KeyStoreLocation, personalDataAt } from '../privacy/personal-data.ts';
import { sealEventStore } from '../privacy/sealed-store.ts';
import { unreadableEvent } from '../privacy/sealing.ts';
import { sqliteReadAhead } from './read-ahead.ts';
import type { FromThread, ThreadData, ToThread } from './thread.ts';
import { describeError } from '../ts-thread.ts';

/**
 * How often the thread checks the event file for other processes' commits while it waits. Its own
 * process's commits wake it at once; at 2 ms (a plain follower's default) the checks alone cost
 * about a tenth of the thread's CPU under load.
 */
const OTHERS_CHECK_MS = 10;

const port = parentPort;
if (!port) throw new Error('thread-entry.ts runs only as a worker thread');
const data = workerData as ThreadData;
const post = (message: FromThread) => port.postMessage(message);

// Listening from the start: what arrives before the runner is ready waits for it, and nothing is
// opened before `go` (a thread spawned early has only loaded its modules until then).
let handle: ((message: ToThread) => void) | null = null;
const waiting: ToThread[] = [];
let go!: (keys: KeyStoreLocation) => void;
const going = new Promise<KeyStoreLocation>((resolve) => (go = resolve));
port.on('message', (message: ToThread) => {
  if (message.kind === 'go') go(message.keys);
  else if (handle) handle(message);
  else waiting.push(message);
});
const keys = await going;

try {
  // The process's WAL checkpointer thread checkpoints these files; these connections only past its safety net.
  // This process's appends wake the thread by message (see ProjectionThread.wake): the file is
  // checked for other processes' commits less often than a follower without that would.
  const store = sealEventStore(
    openSqliteEventStore(data.eventStoreFile, { walAutocheckpointPages: WAL_AUTOCHECKPOINT_PAGES, changeCheckMs: OTHERS_CHECK_MS }),
    // The serving thread raises the alert: this thread's metrics are never read.
    personalDataAt(keys, (event) => post({ kind: 'unreadable', event: unreadableEvent(event) })),
    { closesKeys: true },
  );
  const db = await openReadDb(data.readDbFile);
  sqliteConnectionOf(db).pragma(`wal_autocheckpoint = ${WAL_AUTOCHECKPOINT_PAGES}`);
  const runner = new ProjectionRunner(db, store, allProjections, {
    log: (line) => post({ kind: 'log', line }),
    onAdvance: (position) => post({ kind: 'position', position }),
    readAhead: sqliteReadAhead(store),
  });
  let stopping = false;
  handle = (message: ToThread) => {
    if (message.kind === 'wake') {
      capability(store, 'wake')?.wakeSubscriptions();
    } else if (message.kind === 'status') {
      runner.status().then(
        (status) => post({ kind: 'status', id: message.id, status }),
        () => post({ kind: 'status', id: message.id, status: [] }),
      );
    } else if (message.kind === 'stop' && !stopping) {
      stopping = true;
      void (async () => {
        await runner.stop();
        await db.destroy();
        await store.close();
        post({ kind: 'stopped', position: runner.position });
        port.close();
      })();
    }
  };
  for (const message of waiting.splice(0)) handle(message);
  await runner.start();
  post({ kind: 'started', position: runner.position });
  // The runner stops at an event it cannot apply; the serving thread must know at once.
  const watch = setInterval(() => {
    if (!runner.failed || stopping) return;
    clearInterval(watch);
    post({ kind: 'failed', message: describeError(runner.failed) });
  }, 100);
  watch.unref();
} catch (err) {
  post({ kind: 'failed', message: describeError(err) });
}
