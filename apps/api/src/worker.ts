import { mkdirSync } from 'node:fs';
import { ProjectionRunner, allProjections, openReadDb, readEventTextsFrom } from '@kamai/projections';
import { ConfigError, loadConfig } from './config.ts';
import { readAheadFor } from './projections/read-ahead.ts';
import { checkpointOffTheEventLoop, openEventStore } from './server.ts';

/**
 * `npm run worker`: the projections only, on the same DATA_DIR (or KurrentDB) as the API processes,
 * which then run with PROJECTIONS=off and wait for their writes on the checkpoints this writes.
 * SIGTERM stops it at a checkpoint.
 */
async function main() {
  const config = loadConfig();
  mkdirSync(config.dataDir, { recursive: true });
  // The worker only reads the store: no writer thread.
  const store = await openEventStore(config.eventStore.kind === 'sqlite' ? { ...config, eventStore: { ...config.eventStore, writerThread: false } } : config);
  const db = await openReadDb(config.readDbFile);
  readEventTextsFrom(db, store);
  const checkpointer = checkpointOffTheEventLoop(config, db);
  const runner = new ProjectionRunner(db, store, allProjections, { log: (line) => console.log(`[worker] ${line}`), readAhead: readAheadFor(store) });
  let stopping = false;
  const stop = async (code = 0) => {
    if (stopping) return;
    stopping = true;
    console.log('[worker] stopping at a checkpoint');
    await runner.stop();
    await db.destroy();
    await store.close();
    await checkpointer.stop();
    console.log(`[worker] stopped at position ${runner.position}`);
    process.exit(code);
  };
  process.on('SIGINT', () => void stop());
  process.on('SIGTERM', () => void stop());
  await runner.start();
  console.log(`Kamai projection worker is running (data in ${config.dataDir}, position ${runner.position})`);
  // A failed runner applies nothing more: exit, so a supervisor restarts the worker and says so.
  const watch = setInterval(() => {
    if (!runner.failed) return;
    clearInterval(watch);
    console.error('[worker] the read models stopped following the store');
    void stop(1);
  }, 1000);
}

main().catch((err: unknown) => {
  console.error(err instanceof ConfigError ? err.message : err);
  process.exit(1);
});
