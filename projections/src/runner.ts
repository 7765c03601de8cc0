import type { AllSubscription, EventStore, RecordedEvent } from '@kamai/domain';
import type { Kysely } from 'kysely';
import { type ReadDbHandle, isBusy, storageFault, writeTransaction, writerOf } from './db.ts';
import type { Projection } from './projection.ts';
import { BUILD_STALE_MS, BuildInProgressError, ProjectionFailure, type ReadAhead, applyTo, buildAside } from './rebuild.ts';
import type { ReadDb } from './schema.ts';
import { type Checkpoint, type Parked, bookkeepingIn, ensureTables, isParkedIn, readCheckpoints, readParked, writeCheckpoint, writeParked } from './tables.ts';

/** Where one read model stands, for health checks and `npm run cli -- read-models`. */
export interface ReadModelStatus {
  name: string;
  /** The version this process's code defines. */
  version: number;
  /** The version the rows in the database were built by (null: none yet). */
  storedVersion: number | null;
  position: number;
  /**
   * live: kept up to date; building: being built aside from zero (the old rows serve meanwhile);
   * stale: older rows, waiting for a build; newer: built by a newer version of the code, left alone;
   * parked: stopped at an event it could not apply while the others go on (see `parked`; a
   * `rebuild-read-models <name>` after the fix brings it back); failed: the whole runner stopped.
   */
  state: 'live' | 'building' | 'stale' | 'newer' | 'parked' | 'failed';
  /** For a parked model: the event it could not apply and the error. */
  parked?: { position: number; eventType: string; error: string; since: string };
}

/** The status of one read model from its stored checkpoint and parking, as every ReadModels reports it. */
export function readModelStatus(
  projection: Projection,
  stored: Checkpoint | undefined,
  parked: Parked | undefined,
  state: ReadModelStatus['state'],
): ReadModelStatus {
  const status: ReadModelStatus = { name: projection.name, version: projection.version, storedVersion: stored?.version ?? null, position: stored?.position ?? 0, state };
  if (parked && parked.version === projection.version) {
    status.parked = { position: parked.position, eventType: parked.eventType, error: parked.error, since: parked.parkedAt };
    if (state !== 'newer' && state !== 'failed') status.state = 'parked';
  }
  return status;
}

/**
 * Errors worth trying again as they are: the read database busy or locked by another process, or a
 * connection to the event store that dropped.
 */
export function isTransient(err: unknown): boolean {
  let e = err;
  for (let depth = 0; e && depth < 5; depth++, e = (e as { cause?: unknown }).cause) {
    // A full or read-only disk is the machine's, not the event's: wait for it rather than park.
    if (isBusy(e) || storageFault(e)) return true;
    const code = (e as { code?: unknown }).code;
    if (typeof code === 'string' && /^(ECONNRESET|ECONNREFUSED|EPIPE|ETIMEDOUT|UNAVAILABLE|DEADLINE_EXCEEDED)$/.test(code)) return true;
  }
  return false;
}

/** Backoff before retry `attempt` (0-based): doubling from 50 ms, at most 5 s. */
export const backoffMs = (attempt: number) => Math.min(5000, 50 * 2 ** Math.min(attempt, 10));

/**
 * The read side as the API sees it, whether this process runs the projections (inline) or only
 * watches the checkpoints a worker process writes (off).
 */
export interface ReadModels {
  /** Position every live read model has reached, as far as this process knows. */
  readonly position: number;
  /** Why the read models stopped following the store, or null. */
  readonly failed: Error | null;
  /** Resolves true once the read models include `position`; false after `timeoutMs`, or once they are stopped. */
  waitFor(position: number, timeoutMs?: number): Promise<boolean>;
  start(): Promise<void>;
  stop(): Promise<void>;
  status(): Promise<ReadModelStatus[]>;
}

/**
 * How long a small batch waits for more events when the previous one was applied less than this
 * long ago, in ms. Measured on a 2-core machine under 64 concurrent withdrawals: about 35 events
 * per read-model transaction instead of 5 (110 commits a second instead of 750), and the read side's
 * CPU per answer down by a third. An idle store's events are applied at once, as before.
 */
const LINGER_MS = 1;

export interface RunnerOptions {
  /** Events applied per transaction. */
  batchSize?: number;
  log?: (message: string) => void;
  /** Wait in start() until projections that need a build from zero have been built (default true). */
  awaitBuilds?: boolean;
  /** Told each time the live read models reach a new position (a runner on a thread reports it so). */
  onAdvance?: (position: number) => void;
  /** Where builds aside read their events (see BuildOptions.readAhead). */
  readAhead?: ReadAhead;
}

interface Waiter {
  position: number;
  resolve: (reached?: boolean) => void;
  reject: (err: unknown) => void;
}

/**
 * Shared by the ReadModels: waiters released when the position passes theirs, or with false when
 * their time is up or the read models stop (nothing will move them after that).
 */
export class Waiters {
  private readonly set = new Set<Waiter>();
  private stopped = false;

  get size(): number {
    return this.set.size;
  }

  add(position: number, timeoutMs: number): Promise<boolean> {
    if (this.stopped) return Promise.resolve(false);
    return new Promise((resolve, reject) => {
      const waiter: Waiter = {
        position,
        resolve: (reached = true) => {
          clearTimeout(timer);
          this.set.delete(waiter);
          resolve(reached);
        },
        reject: (err: unknown) => {
          clearTimeout(timer);
          this.set.delete(waiter);
          reject(err);
        },
      };
      const timer = setTimeout(() => {
        this.set.delete(waiter);
        resolve(false);
      }, timeoutMs);
      this.set.add(waiter);
    });
  }

  advance(position: number): void {
    for (const waiter of this.set) if (waiter.position <= position) waiter.resolve();
  }

  failAll(err: unknown): void {
    for (const waiter of this.set) waiter.reject(err);
  }

  /** The read models stopped: every wait, and every later one, settles false. */
  stop(): void {
    this.stopped = true;
    for (const waiter of this.set) waiter.resolve(false);
  }
}

/**
 * Feeds events from the store into the projections. Each projection has its own checkpoint (with
 * its version). Those whose rows are current are caught up in batches and then followed live from a
 * subscription, rows and checkpoints in one transaction per batch; the checkpoints are re-read inside
 * it, so an event is applied once even when several processes share the read database. A projection
 * that is new or whose version changed is built aside from zero (see buildAside) while the others
 * keep serving, and joins the live ones once swapped in.
 */
export class ProjectionRunner implements ReadModels {
  private applied = 0;
  private readonly batchSize: number;
  /** When the last batch was applied (performance.now()). */
  private lastBatchAt = Number.NEGATIVE_INFINITY;
  private readonly log: (message: string) => void;
  private readonly awaitBuilds: boolean;
  private readonly onAdvance: ((position: number) => void) | undefined;
  private readonly readAhead: ReadAhead | undefined;
  private readonly waiters = new Waiters();
  private readonly live: Projection[] = [];
  private readonly building = new Set<string>();
  private subscription: AllSubscription | null = null;
  private following: Promise<void> | null = null;
  private builds: Promise<void> | null = null;
  private readonly abort = new AbortController();
  private buffer: RecordedEvent[] = [];
  private draining: Promise<void> | null = null;
  private failure: unknown = null;
  private stopped = false;
  /** How often the subscription was lost and taken up again (tests and logs read it). */
  resubscriptions = 0;

  constructor(
    private readonly db: ReadDbHandle,
    private readonly store: EventStore,
    private readonly projections: readonly Projection[],
    options: RunnerOptions = {},
  ) {
    this.batchSize = options.batchSize ?? 500;
    this.log = options.log ?? (() => {});
    this.awaitBuilds = options.awaitBuilds ?? true;
    this.onAdvance = options.onAdvance;
    this.readAhead = options.readAhead;
    const names = new Set(projections.map((p) => p.name));
    if (names.size !== projections.length) throw new Error('two projections share a name');
  }

  /** Nothing is current while no projection is live (all being built): 0 then. */
  get position(): number {
    return this.live.length > 0 ? this.applied : 0;
  }

  get failed(): Error | null {
    if (this.failure === null) return null;
    return this.failure instanceof Error ? this.failure : new Error(String(this.failure));
  }

  /**
   * Catches the current projections up to the store's head and follows it live; builds the others
   * aside (awaited unless `awaitBuilds` is false).
   */
  async start(): Promise<void> {
    await writeTransaction(this.db, (trx) => ensureTables(trx, writerOf(trx), this.projections));
    const checkpoints = await readCheckpoints(this.db);
    const head = await this.store.headPosition();
    const stale: Projection[] = [];
    for (const projection of this.projections) {
      const stored = checkpoints.get(projection.name);
      // A projection that has seen nothing of a non-empty store (new, or its tables just created) is
      // built aside like a new version, rather than holding the others back while it catches up.
      if (stored?.version === projection.version && (stored.position > 0 || head === 0)) this.live.push(projection);
      else if (!stored || stored.version <= projection.version) stale.push(projection);
      else this.log(`${projection.name}: the database holds version ${stored.version}, newer than this code's ${projection.version}; left alone`);
    }
    await this.catchUp();
    this.following = this.follow();
    if (stale.length > 0) {
      this.builds = this.buildAndJoin(stale).catch((err: unknown) => {
        if (!this.stopped) this.fail(err);
      });
      if (this.awaitBuilds) await this.builds;
      if (this.failure) throw this.failure;
    }
  }

  /**
   * Follows the store from where the read models are. A subscription that ends or fails (a dropped
   * connection, a restarted node) is taken up again from the position applied, after a backoff, for
   * as long as the runner runs.
   */
  private async follow(): Promise<void> {
    for (let attempt = 0; !this.stopped && !this.failure; attempt++) {
      const subscription = this.store.subscribeToAll({ after: this.applied });
      this.subscription = subscription;
      let reason = 'it ended';
      try {
        for await (const event of subscription) {
          attempt = 0;
          if (this.failure) break;
          this.enqueue(event);
          // Backpressure: a backlog is read no faster than it is applied, so the buffer stays bounded.
          if (this.buffer.length >= this.batchSize) await this.draining;
        }
      } catch (err) {
        reason = err instanceof Error ? err.message : String(err);
      }
      if (this.stopped || this.failure) return;
      // What was received is applied first, so the next subscription starts right after it.
      await this.draining;
      this.resubscriptions += 1;
      this.log(`the subscription to the event store was lost (${reason}); resubscribing after position ${this.applied}`);
      await this.pause(backoffMs(attempt));
    }
  }

  /** Waits `ms`, or less when the runner stops meanwhile. */
  private pause(ms: number): Promise<void> {
    if (this.abort.signal.aborted) return Promise.resolve();
    return new Promise((resolve) => {
      const done = () => {
        clearTimeout(timer);
        this.abort.signal.removeEventListener('abort', done);
        resolve();
      };
      const timer = setTimeout(done, ms);
      this.abort.signal.addEventListener('abort', done);
    });
  }

  /**
   * Runs one write of events into the read models until it goes through: a projection that throws
   * on an event is parked there (the write then goes on without it), a transient error is retried
   * after a backoff; anything else is thrown.
   */
  private async parkingFailures<T>(write: () => Promise<T>): Promise<T> {
    for (let attempt = 0; ; attempt++) {
      try {
        return await write();
      } catch (err) {
        if (this.stopped) throw err;
        if (isTransient(err)) {
          this.log(`read models: ${err instanceof Error ? err.message : String(err)}; trying again`);
          await this.pause(backoffMs(attempt));
          continue;
        }
        if (!(err instanceof ProjectionFailure)) throw err;
        await this.park(err);
      }
    }
  }

  /** Records that a projection stopped at an event; batches leave it out from then on. */
  private async park(failure: ProjectionFailure): Promise<void> {
    const projection = this.projections.find((p) => p.name === failure.projection);
    if (!projection) throw failure;
    const cause = failure.cause instanceof Error ? failure.cause.message : String(failure.cause);
    await writeTransaction(this.db, (trx) =>
      writeParked(writerOf(trx), { name: projection.name, version: projection.version, position: failure.position, eventType: failure.eventType, error: cause }),
    );
    this.log(`read model ${projection.name} parked at position ${failure.position} (${failure.eventType}): ${cause}; the others go on`);
  }

  /** Applies everything in the store after the live projections' checkpoints, batch by batch. */
  async catchUp(): Promise<number> {
    const [checkpoints, parked] = await Promise.all([readCheckpoints(this.db), readParked(this.db)]);
    // A parked model waits for its rebuild: the others need not re-read what it is behind on.
    const following = this.live.filter((p) => parked.get(p.name)?.version !== p.version);
    const positions = (following.length > 0 ? following : this.live).map((p) => checkpoints.get(p.name)?.position ?? 0);
    // With nothing live yet (a fresh or pre-checkpoint database), there is nothing to catch up: the
    // builds start from zero and join at the head.
    if (positions.length === 0) {
      this.applied = Math.max(this.applied, await this.store.headPosition());
      return this.applied;
    }
    this.applied = Math.max(this.applied, Math.min(...positions));
    for (;;) {
      const batch = await this.store.readAll({ after: this.applied, limit: this.batchSize });
      if (batch.length === 0) return this.applied;
      await this.applyBatch(batch);
    }
  }

  waitFor(position: number, timeoutMs = 5000): Promise<boolean> {
    if (this.failure) return Promise.reject(this.failure);
    if (this.position >= position) return Promise.resolve(true);
    return this.waiters.add(position, timeoutMs);
  }

  async status(): Promise<ReadModelStatus[]> {
    const [checkpoints, parked] = await Promise.all([readCheckpoints(this.db), readParked(this.db)]);
    return this.projections.map((p) => {
      const stored = checkpoints.get(p.name);
      const isLive = this.live.includes(p);
      const state: ReadModelStatus['state'] =
        isLive && this.failure ? 'failed' : isLive ? 'live' : this.building.has(p.name) ? 'building' : stored && stored.version > p.version ? 'newer' : 'stale';
      return readModelStatus(p, stored, parked.get(p.name), state);
    });
  }

  /** Stops at a checkpoint: the batch being applied commits, nothing after it starts; a build in progress is abandoned. */
  async stop(): Promise<void> {
    this.stopped = true;
    // No wait outlasts the runner: whoever waits (a request, an outbox sender) hears false now.
    this.waiters.stop();
    this.abort.abort();
    await this.subscription?.close();
    await this.following;
    await this.draining;
    await this.builds;
    this.subscription = null;
    this.following = null;
  }

  /**
   * Builds `stale` aside (or waits while another process does), then lets each join the live ones.
   */
  private async buildAndJoin(all: Projection[]): Promise<void> {
    let stale = all;
    for (const p of all) this.building.add(p.name);
    try {
      for (let attempt = 0; ; ) {
        try {
          const result = await buildAside(this.db, this.store, stale, { signal: this.abort.signal, log: this.log, readAhead: this.readAhead });
          this.log(`built ${stale.map((p) => p.name).join(', ')} from ${result.events} events in ${result.seconds.toFixed(1)} s`);
          break;
        } catch (err) {
          if (this.stopped) throw err;
          if (isTransient(err)) {
            await this.pause(backoffMs(attempt++));
            continue;
          }
          // One model that cannot build is parked (its older rows keep serving); the others build.
          if (err instanceof ProjectionFailure) {
            await this.park(err);
            stale = stale.filter((p) => p.name !== err.projection);
            if (stale.length === 0) return;
            continue;
          }
          if (!(err instanceof BuildInProgressError)) throw err;
        }
        // Another process builds them: wait until its swap shows in the checkpoints, or its claim dies.
        const deadline = Date.now() + BUILD_STALE_MS + 5000;
        while (Date.now() < deadline && !this.stopped) {
          const checkpoints = await readCheckpoints(this.db);
          if (stale.every((p) => checkpoints.get(p.name)?.version === p.version)) break;
          await new Promise((resolve) => setTimeout(resolve, 200));
        }
        if (this.stopped) return;
        const checkpoints = await readCheckpoints(this.db);
        if (stale.every((p) => checkpoints.get(p.name)?.version === p.version)) break;
      }
      for (const p of stale) await this.join(p);
    } finally {
      for (const p of all) this.building.delete(p.name);
    }
  }

  /**
   * Adds a projection whose rows are current (up to its checkpoint) to the live ones: first applies
   * to it alone the events up to what the live ones have reached, then joins inside the same
   * transaction, so no batch of the live ones can slip between.
   */
  private async join(projection: Projection): Promise<void> {
    for (;;) {
      if (this.stopped) return;
      const joined = await this.parkingFailures(() => writeTransaction(this.db, async (trx) => {
        const from = (await readCheckpoints(trx)).get(projection.name)?.position ?? 0;
        // A model parked while joining joins as it is: the batches skip it until its rebuild.
        if (from >= this.applied || isParkedIn(writerOf(trx), projection)) {
          this.live.push(projection);
          this.waiters.advance(this.applied);
          this.onAdvance?.(this.position);
          return true;
        }
        const batch = await this.store.readAll({ after: from, limit: Math.min(this.batchSize, this.applied - from) });
        if (batch.length === 0) throw new Error(`${projection.name}: the store has no events after ${from}, yet the runner is at ${this.applied}`);
        applyEvents(trx, [projection], batch.filter((e) => e.position <= this.applied));
        return false;
      }));
      if (joined) return;
    }
  }

  private enqueue(event: RecordedEvent): void {
    // After a failed batch nothing later may be applied: the checkpoint would move past the failed
    // events and no restart would ever apply them.
    if (this.failure) return;
    this.buffer.push(event);
    this.draining ??= this.drain();
  }

  private async drain(): Promise<void> {
    try {
      while (this.buffer.length > 0) {
        // Busy (the last batch ended a moment ago), a small batch waits a moment for more: under load
        // each read-model transaction then carries several commits' events instead of one's.
        if (this.buffer.length < this.batchSize && performance.now() - this.lastBatchAt < LINGER_MS) {
          await this.pause(LINGER_MS);
          if (this.stopped) break;
        }
        const batch = this.buffer.splice(0, this.batchSize);
        await this.applyBatch(batch);
        this.lastBatchAt = performance.now();
      }
    } catch (err) {
      this.buffer = [];
      this.fail(err);
    } finally {
      this.draining = null;
    }
  }

  private async applyBatch(batch: RecordedEvent[]): Promise<void> {
    // The live set is read inside the transaction: a projection that joins meanwhile gets this batch too.
    const reached = await this.parkingFailures(() =>
      writeTransaction(this.db, (trx) => {
        applyEvents(trx, this.live, batch);
        return batch.at(-1)!.position;
      }),
    );
    this.advance(reached);
  }

  private advance(position: number): void {
    if (position <= this.applied) return;
    this.applied = position;
    if (this.live.length > 0) {
      this.waiters.advance(position);
      this.onAdvance?.(position);
    }
  }

  private fail(err: unknown): void {
    this.failure = err;
    this.waiters.failAll(err);
    this.log(`projection runner stopped: ${err instanceof Error ? (err.stack ?? err.message) : String(err)}`);
  }
}

/**
 * Applies the events each projection has not seen yet (after its own checkpoint) and moves the
 * checkpoints, inside the caller's transaction (`trx`, from writeTransaction), synchronously. A
 * projection whose stored version is another version's is left alone: another process owns those
 * rows; so is a parked one, until a rebuild brings it back. A projection that throws throws a
 * ProjectionFailure naming it (the caller rolls back). Returns the lowest position reached.
 */
export function applyEvents(trx: Kysely<ReadDb>, projections: readonly Projection[], batch: readonly RecordedEvent[]): number {
  const rows = writerOf(trx);
  const targets: Projection[] = [];
  const from: number[] = [];
  const { checkpoints, parked } = bookkeepingIn(rows);
  for (const p of projections) {
    const checkpoint = checkpoints.get(p.name);
    if ((checkpoint?.version ?? p.version) !== p.version) continue;
    if (parked.get(p.name) === p.version) continue;
    targets.push(p);
    from.push(checkpoint?.position ?? 0);
  }
  const lowest = from.length > 0 ? Math.min(...from) : 0;
  const highest = from.length > 0 ? Math.max(...from) : 0;
  const last = batch.at(-1)?.position ?? 0;
  for (const recorded of batch) {
    if (recorded.position <= lowest) continue;
    // Past every checkpoint (the usual case), all targets apply it.
    const behind = recorded.position > highest ? targets : targets.filter((_, i) => recorded.position > from[i]!);
    applyTo(rows, behind, recorded);
  }
  let reached = Number.POSITIVE_INFINITY;
  for (const [i, p] of targets.entries()) {
    const position = Math.max(from[i]!, last);
    if (position > from[i]!) writeCheckpoint(rows, p.name, p.version, position);
    reached = Math.min(reached, position);
  }
  return Number.isFinite(reached) ? reached : last;
}
