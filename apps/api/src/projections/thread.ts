import type { Worker } from 'node:worker_threads';
import { type ReadModelStatus, type ReadModels, Waiters } from '@kamai/projections';
import { describeError } from '../ts-thread.ts';
import type { KeyStoreLocation } from '../privacy/personal-data.ts';
import type { UnreadableEvent } from '../privacy/sealing.ts';
import { alertUnreadable } from '../privacy/unreadable-alert.ts';
import { type ThreadData, spawnProjectionThread, takeSpawnedThread } from './thread-spawn.ts';

export type { ThreadData } from './thread-spawn.ts';

/**
 * The projections of this process on a thread of their own (PROJECTIONS=thread, with the embedded
 * event store). The thread runs the same ProjectionRunner as inline, on connections of its own to
 * the event store and the read database: following the store, applying batches, writing rows and
 * checkpoints in one transaction each. The event loop that serves HTTP then spends nothing on them;
 * it only learns, by message, the position the read models have reached, and releases the requests
 * waiting for their own writes (read-your-writes) once it passed theirs. The thread commits before
 * it reports, so a request released then reads its rows on the main thread's connection.
 */
export interface ProjectionThreadOptions {
  eventStoreFile: string;
  readDbFile: string;
  /** The personal-data key store the thread opens events with. */
  keys: KeyStoreLocation;
  log?: (line: string) => void;
}

/** Messages from the thread (thread-entry.ts). */
export type FromThread =
  | { kind: 'started'; position: number }
  | { kind: 'position'; position: number }
  | { kind: 'log'; line: string }
  /** A sealed blob that does not open, read on the thread: the serving thread raises the alert. */
  | { kind: 'unreadable'; event: UnreadableEvent }
  | { kind: 'failed'; message: string }
  | { kind: 'status'; id: number; status: ReadModelStatus[] }
  | { kind: 'stopped'; position: number };

/** Messages to the thread. `go` comes first: a thread spawned early waits for it before it opens anything. */
export type ToThread = { kind: 'go'; keys: KeyStoreLocation } | { kind: 'status'; id: number } | { kind: 'stop' } | { kind: 'wake' };

export class ProjectionThread implements ReadModels {
  private reached = 0;
  private failure: Error | null = null;
  private readonly waiters = new Waiters();
  private worker: Worker | null = null;
  private started: Promise<void> | null = null;
  private stopped: Promise<void> | null = null;
  private nextId = 0;
  /** The position of the last wake-up sent. */
  private wakePending = 0;
  private readonly statusCalls = new Map<number, (status: ReadModelStatus[]) => void>();
  private readonly log: (line: string) => void;

  constructor(private readonly options: ProjectionThreadOptions) {
    this.log = options.log ?? (() => {});
  }

  get position(): number {
    return this.reached;
  }

  get failed(): Error | null {
    return this.failure;
  }

  start(): Promise<void> {
    this.started ??= new Promise<void>((resolve, reject) => {
      const data: ThreadData = { eventStoreFile: this.options.eventStoreFile, readDbFile: this.options.readDbFile };
      const spawned = takeSpawnedThread(data) ?? spawnProjectionThread(data);
      const worker = spawned.worker;
      this.worker = worker;
      const onMessage = (message: FromThread) => {
        switch (message.kind) {
          case 'started':
            this.advance(message.position);
            resolve();
            break;
          case 'position':
            this.advance(message.position);
            break;
          case 'log':
            this.log(message.line);
            break;
          case 'unreadable':
            alertUnreadable(message.event);
            break;
          case 'failed':
            this.fail(new Error(message.message));
            reject(this.failure);
            break;
          case 'status':
            this.statusCalls.get(message.id)?.(message.status);
            this.statusCalls.delete(message.id);
            break;
          case 'stopped':
            this.advance(message.position);
            break;
        }
      };
      const onError = (err: Error) => {
        this.fail(err);
        reject(err);
      };
      worker.on('message', onMessage);
      worker.on('error', onError);
      spawned.adopt();
      for (const message of spawned.early) onMessage(message as FromThread);
      if (spawned.earlyError) onError(spawned.earlyError);
      worker.postMessage({ kind: 'go', keys: this.options.keys } satisfies ToThread);
      worker.on('exit', (code) => {
        if (!this.stopped) {
          const err = new Error(`the projection thread exited with code ${code}`);
          this.fail(err);
          reject(err);
        }
        for (const answer of this.statusCalls.values()) answer([]);
        this.statusCalls.clear();
      });
    });
    return this.started;
  }

  waitFor(position: number, timeoutMs = 5000): Promise<boolean> {
    if (this.failure) return Promise.reject(this.failure);
    if (this.reached >= position) return Promise.resolve(true);
    return this.waiters.add(position, timeoutMs);
  }

  status(): Promise<ReadModelStatus[]> {
    const worker = this.worker;
    if (!worker || this.stopped) return Promise.resolve([]);
    const id = ++this.nextId;
    return new Promise((resolve) => {
      this.statusCalls.set(id, resolve);
      worker.postMessage({ kind: 'status', id } satisfies ToThread);
    });
  }

  /** Stops the runner at a checkpoint (the batch in progress commits), then ends the thread. */
  stop(): Promise<void> {
    // No wait outlasts the runner: whoever waits (a request, an outbox sender) hears false now.
    if (!this.stopped) this.waiters.stop();
    this.stopped ??= (async () => {
      const worker = this.worker;
      if (!worker) return;
      const exited = new Promise<void>((resolve) => worker.once('exit', () => resolve()));
      worker.postMessage({ kind: 'stop' } satisfies ToThread);
      let timer: NodeJS.Timeout | undefined;
      const late = await Promise.race([exited.then(() => false), new Promise<boolean>((resolve) => (timer = setTimeout(() => resolve(true), 30_000)))]);
      clearTimeout(timer);
      if (late) await worker.terminate();
    })();
    return this.stopped;
  }

  /**
   * This process appended up to `position`: the thread looks at the log now instead of at its next
   * poll of the file (a few milliseconds), which every request waiting for its own write would pay.
   */
  wake(position: number): void {
    if (!this.worker || this.stopped || position <= this.reached || this.wakePending >= position) return;
    this.wakePending = position;
    this.worker.postMessage({ kind: 'wake' } satisfies ToThread);
  }

  private advance(position: number): void {
    if (position <= this.reached) return;
    this.reached = position;
    this.waiters.advance(position);
  }

  private fail(err: Error): void {
    if (this.stopped) return;
    this.failure ??= err;
    this.waiters.failAll(err);
    this.log(`projection thread stopped: ${describeError(err)}`);
  }
}
