/**
 * A separate OS process that appends to a shared SQLite event store, for sqlite.int.spec.ts.
 *
 *   tsx append-worker.ts <file> <name> <streams> <commands per loop> <loops> <reservations>
 *
 * Prints one JSON line per message: `ready` once the store is open, then waits for "go" on stdin so
 * all workers start together. Then `loops` concurrent loops each run `commands` appends to random
 * streams `shared-0..streams-1` with an exact expected revision, retrying on conflicts from where
 * the error says the stream is. Meanwhile it tries a no_stream append to `reservation-0..n-1`, which
 * the other workers try too. Every acknowledged append is printed as `ack` or `reserved`; the last
 * line is `done`. WRITER_THREAD=1 commits on the store's writer thread.
 */
import { randomUUID } from 'node:crypto';
import { once } from 'node:events';
import { createInterface } from 'node:readline';
import { WrongExpectedRevisionError, type AppendResult, type NewEvent } from '@kamai/domain';
import { openSqliteEventStore } from './sqlite.ts';

export type WorkerMessage =
  | { kind: 'ready'; worker: string }
  | { kind: 'ack'; worker: string; streamId: string; ids: string[]; result: AppendResult }
  | { kind: 'reserved'; worker: string; streamId: string; ids: string[]; result: AppendResult }
  | { kind: 'done'; worker: string; conflicts: number; lostReservations: number };

const [file, worker = 'worker', streamsArg = '3', commandsArg = '50', loopsArg = '4', reservationsArg = '20'] =
  process.argv.slice(2);
if (!file) {
  console.error('usage: append-worker.ts <file> <name> <streams> <commands> <loops> <reservations>');
  process.exit(2);
}
const streams = Number(streamsArg);
const commands = Number(commandsArg);
const loops = Number(loopsArg);
const reservations = Number(reservationsArg);

const print = (message: WorkerMessage) => process.stdout.write(`${JSON.stringify(message)}\n`);
const newEvents = (count: number, data: Record<string, string | number>): NewEvent[] =>
  Array.from({ length: count }, (_, i) => ({ id: randomUUID(), type: 'WorkerAppended', data: { ...data, i } }));

const store = openSqliteEventStore(file, { writerThread: process.env.WRITER_THREAD === '1' });
print({ kind: 'ready', worker });
const lines = createInterface({ input: process.stdin });
await once(lines, 'line');
lines.close();

let conflicts = 0;
let lostReservations = 0;
const known = new Map<string, number>();

async function appendLoop(loop: number): Promise<void> {
  for (let command = 0; command < commands; command++) {
    const streamId = `shared-${Math.floor(Math.random() * streams)}`;
    const events = newEvents(1 + (command % 3 === 0 ? 1 : 0), { worker, loop, command });
    for (;;) {
      const last = known.get(streamId) ?? -1;
      try {
        const result = await store.append(streamId, events, last === -1 ? 'no_stream' : last);
        known.set(streamId, result.nextExpectedRevision);
        print({ kind: 'ack', worker, streamId, ids: events.map((e) => e.id), result });
        break;
      } catch (error) {
        if (!(error instanceof WrongExpectedRevisionError)) throw error;
        conflicts++;
        known.set(streamId, error.actual);
      }
    }
  }
}

async function reserveLoop(): Promise<void> {
  for (let n = 0; n < reservations; n++) {
    const streamId = `reservation-${n}`;
    const events = newEvents(2, { worker, n });
    try {
      const result = await store.append(streamId, events, 'no_stream');
      print({ kind: 'reserved', worker, streamId, ids: events.map((e) => e.id), result });
    } catch (error) {
      if (!(error instanceof WrongExpectedRevisionError)) throw error;
      lostReservations++;
    }
    // Yield to the timers so the other process gets the lock between reservations.
    await new Promise((resolve) => setTimeout(resolve, 1));
  }
}

await Promise.all([...Array.from({ length: loops }, (_, loop) => appendLoop(loop)), reserveLoop()]);
await store.close();
print({ kind: 'done', worker, conflicts, lostReservations });
