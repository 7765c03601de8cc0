import { mkdirSync } from 'node:fs';
import { ConfigError, loadConfig } from './config.ts';
import { spawnProjectionThreadEarly } from './projections/thread-spawn.ts';

/**
 * `npm start`: one process serving the API and the web app, with its projections on a thread of
 * their own (PROJECTIONS=thread, the default), in its event loop (inline), or beside a worker
 * process (PROJECTIONS=off, `npm run worker`).
 */
async function main() {
  const config = loadConfig();
  if (config.projections === 'thread' && config.eventStore.kind === 'sqlite') {
    // The projection thread loads its modules while this thread loads the server's (imported below).
    mkdirSync(config.dataDir, { recursive: true });
    spawnProjectionThreadEarly({ eventStoreFile: config.eventStore.file, readDbFile: config.readDbFile });
  }
  const { startServer } = await import('./server.ts');
  const server = await startServer(config);
  console.log(`Kamai is running at ${server.url} (data in ${config.dataDir})`);
  // Passwords are printed only for the embedded default, a developer's own machine.
  if (server.seeded.length > 0 && config.eventStore.kind === 'sqlite') {
    console.log('Demo accounts (mobile / password):');
    for (const a of server.seeded) console.log(`  ${a.label.padEnd(9)} ${a.mobile} / ${a.password}${a.roles.length ? `  roles: ${a.roles.join(', ')}` : ''}`);
  } else if (server.seeded.length > 0) {
    console.log(`Seeded ${server.seeded.length} demo accounts (see the README).`);
  }
  let stopping = false;
  const stop = async () => {
    if (stopping) return;
    stopping = true;
    // Graceful: in-flight requests and their commands finish, the projections stop at a checkpoint.
    console.log('[api] stopping: finishing requests in flight');
    await server.close();
    console.log('[api] stopped');
    process.exit(0);
  };
  // DATA_DIR's files were deleted or replaced under the process: nothing it writes now would be kept.
  void server.storageGone.then((reason) => {
    console.error(`[api] stopping: ${reason}. Restore DATA_DIR (see docs/operations.md) before starting again.`);
    process.exit(1);
  });
  process.on('SIGINT', stop);
  process.on('SIGTERM', stop);
}

main().catch((err: unknown) => {
  console.error(err instanceof ConfigError ? err.message : err);
  process.exit(1);
});
