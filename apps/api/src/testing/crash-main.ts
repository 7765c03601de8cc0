import { existsSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import type { EventStore } from '@kamai/domain';
import { loadConfig } from '../config.ts';
import { startServer } from '../server.ts';

/**
 * The API as main.ts starts it, with one difference the crash tests need and production never has:
 * its event store is wrapped so that, once armed, the process kills itself with SIGKILL right after
 * the Nth append (session streams aside). Armed by a file (KAMAI_CRASH_FILE) holding N, so one arming kills one process once,
 * between an append and whatever was to follow it (the next step, or the answer).
 */
const armFile = process.env.KAMAI_CRASH_FILE;

function killingAfterAppends<S extends EventStore>(store: S): S {
  if (!armFile) return store;
  return new Proxy(store, {
    get(target, key) {
      const value: unknown = Reflect.get(target, key, target);
      if (key !== 'append') return typeof value === 'function' ? value.bind(target) : value;
      const append: EventStore['append'] = async (streamId, events, expected) => {
        const result = await target.append(streamId, events, expected);
        // Sessions note their use on their own schedule: only the request's own appends count.
        if (!streamId.startsWith('session-') && existsSync(armFile)) {
          const left = Number(readFileSync(armFile, 'utf8')) - 1;
          if (left <= 0) {
            rmSync(armFile, { force: true });
            process.kill(process.pid, 'SIGKILL');
          }
          writeFileSync(armFile, String(left));
        }
        return result;
      };
      return append;
    },
  });
}

/** KAMAI_CLOCK_BEHIND_MS: commands dated that far back, so what this process starts looks abandoned to the next one's sweep. */
const behindMs = Number(process.env.KAMAI_CLOCK_BEHIND_MS ?? 0);
const now = behindMs > 0 ? { now: () => new Date(Date.now() - behindMs) } : {};
const server = await startServer(loadConfig(), console.log, { decorateStore: killingAfterAppends, ...now });
console.log(`Kamai is running at ${server.url} (crash-test build)`);
process.on('SIGTERM', () => void server.close().then(() => process.exit(0)));
