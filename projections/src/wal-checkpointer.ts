import { createRequire } from 'node:module';
import { Worker } from 'node:worker_threads';

/**
 * Moves SQLite's WAL checkpoints off the event loop. A checkpoint copies the WAL's pages into the
 * database file and syncs both; run by SQLite's automatic checkpoint it happens inside whichever
 * COMMIT crossed the threshold, synchronously on the event loop of the process that committed, every
 * request waiting behind it. A worker thread with a connection of its own runs PASSIVE checkpoints
 * (they never wait for readers or writers) every `everyMs` instead, and the app's connections raise
 * their automatic threshold to a safety net (see WAL_AUTOCHECKPOINT_PAGES).
 */
export interface WalCheckpointer {
  stop(): Promise<void>;
}

/** The automatic checkpoint threshold of connections whose process runs a checkpointer: a safety net only. */
export const WAL_AUTOCHECKPOINT_PAGES = 10_000;

// CommonJS, run by `eval`: no loader or TypeScript needed inside the thread.
const THREAD = `
const { parentPort, workerData } = require('node:worker_threads');
const Database = require(workerData.betterSqlite3);
const connections = workerData.files.map((file) => {
  const db = new Database(file);
  db.pragma('busy_timeout = 0');
  return db;
});
const tick = () => {
  for (const db of connections) {
    try { db.pragma('wal_checkpoint(PASSIVE)'); } catch { /* busy or closed: the next tick tries again */ }
  }
};
const timer = setInterval(tick, workerData.everyMs);
parentPort.on('message', () => {
  clearInterval(timer);
  tick();
  for (const db of connections) db.close();
  parentPort.close();
});
`;

export function startWalCheckpointer(files: readonly string[], options: { everyMs?: number } = {}): WalCheckpointer {
  const betterSqlite3 = createRequire(import.meta.url).resolve('better-sqlite3');
  const worker = new Worker(THREAD, { eval: true, workerData: { files: [...files], everyMs: options.everyMs ?? 250, betterSqlite3 } });
  // A checkpointer never keeps the process alive on its own.
  worker.unref();
  const exited = new Promise<void>((resolve) => worker.once('exit', () => resolve()));
  worker.on('error', (err) => console.error(`[sqlite] WAL checkpointer stopped: ${String(err)}`));
  return {
    async stop() {
      // Held again while it finishes its last checkpoint: otherwise a process with nothing else left
      // to do would exit in the middle of this await.
      worker.ref();
      worker.postMessage('stop');
      let timer: NodeJS.Timeout | undefined;
      await Promise.race([exited, new Promise((resolve) => (timer = setTimeout(resolve, 2000)))]);
      clearTimeout(timer);
      await worker.terminate();
    },
  };
}
