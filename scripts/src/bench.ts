/**
 * `npm run bench`: the embedded store's figures on this machine. Prints, does not assert: speed is
 * measured here, not in tests.
 *   1. durable appends per second (single-event commands to many streams) beside the ceiling of
 *      plain better-sqlite3 inserts, one transaction each, and the ratio;
 *   2. read-model rebuild speed in events per second over 200,000 events.
 */
import { benchAppends } from './bench/appends.ts';
import { benchRebuild } from './bench/rebuild.ts';

console.log(`Kamai benchmarks on Node ${process.version}, ${new Date().toISOString()}\n`);
console.log('== durable appends (SQLite, WAL, synchronous=FULL) ==');
await benchAppends();
console.log('\n== read-model rebuild ==');
await benchRebuild({ events: 200_000 });
