import type { Worker } from 'node:worker_threads';
import { startTsThread } from '../ts-thread.ts';

/** What the projection thread is given (thread-entry.ts reads it as workerData). */
export interface ThreadData {
  eventStoreFile: string;
  readDbFile: string;
}

/** A projection thread's worker, and what it said before a ProjectionThread listened. */
export interface SpawnedThread {
  data: ThreadData;
  worker: Worker;
  /** Messages (and an error) from before adoption, replayed by the adopter. */
  early: unknown[];
  earlyError: Error | null;
  /** Stops buffering: the adopter listens from now on. */
  adopt(): void;
}

/**
 * Starts a projection thread's worker: it loads its modules (most of its start-up: about half a
 * second under tsx) and waits for `go` (ProjectionThread.start) before it opens anything.
 */
export function spawnProjectionThread(data: ThreadData): SpawnedThread {
  const worker = startTsThread('./thread-entry.ts', import.meta.url, data);
  const keep = (message: unknown) => spawned.early.push(message);
  const keepError = (err: Error) => (spawned.earlyError ??= err);
  const spawned: SpawnedThread = {
    data,
    worker,
    early: [],
    earlyError: null,
    adopt() {
      worker.off('message', keep);
      worker.off('error', keepError);
    },
  };
  worker.on('message', keep);
  worker.on('error', keepError);
  return spawned;
}

let spawnedEarly: SpawnedThread | null = null;

/**
 * For `npm start`: spawns the projection thread before the process loads the rest of the server,
 * so the two load their modules side by side (the thread's start-up otherwise adds itself to a cold
 * start). The ProjectionThread for the same files adopts it.
 */
export function spawnProjectionThreadEarly(data: ThreadData): void {
  spawnedEarly ??= spawnProjectionThread(data);
}

/** The thread spawned early for these files, once; null otherwise. */
export function takeSpawnedThread(data: ThreadData): SpawnedThread | null {
  const spawned = spawnedEarly;
  if (!spawned || spawned.data.eventStoreFile !== data.eventStoreFile || spawned.data.readDbFile !== data.readDbFile) return null;
  spawnedEarly = null;
  return spawned;
}
