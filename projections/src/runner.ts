import type { AllSubscription, EventStore, RecordedEvent } from '@kamai/domain';
import type { Kysely } from 'kysely';
import { type ReadDbHandle, writeTransaction } from './db.ts';
import { type Projection, toProjectedEvent } from './projection.ts';
import type { ReadDb } from './schema.ts';

export const CHECKPOINT = 'read-models';

export interface RunnerOptions {
  /** Events applied per transaction. */
  batchSize?: number;
  log?: (message: string) => void;
}

/**
 * Feeds events from the store into the projections: catch-up in batches from the checkpoint, then
 * live from a subscription. Rows and checkpoint change in one transaction, and the checkpoint is
 * re-read inside it, so an event is applied once even when several processes (or a rebuild) share
 * the read database.
 */
export class ProjectionRunner {
  private applied = 0;
  private readonly batchSize: number;
  private readonly log: (message: string) => void;
  private readonly waiters = new Set<{ position: number; resolve: () => void; reject: (err: unknown) => void }>();
  private subscription: AllSubscription | null = null;
  private live: Promise<void> | null = null;
  private buffer: RecordedEvent[] = [];
  private draining: Promise<void> | null = null;
  private failure: unknown = null;

  constructor(
    private readonly db: ReadDbHandle,
    private readonly store: EventStore,
    private readonly projections: readonly Projection[],
    options: RunnerOptions = {},
  ) {
    this.batchSize = options.batchSize ?? 500;
    this.log = options.log ?? (() => {});
  }

  /** Position of the last event this runner knows to be in the read models. */
  get position(): number {
    return this.applied;
  }

  /** Why the runner stopped applying events, or null while it runs. */
  get failed(): Error | null {
    if (this.failure === null) return null;
    return this.failure instanceof Error ? this.failure : new Error(String(this.failure));
  }

  /** Catches up to the store's head, then follows it live until stop(). */
  async start(): Promise<void> {
    await this.catchUp();
    const subscription = this.store.subscribeToAll({ after: this.applied });
    this.subscription = subscription;
    this.live = (async () => {
      try {
        for await (const event of subscription) {
          if (this.failure) break;
          this.enqueue(event);
          // Backpressure: a backlog is read no faster than it is applied, so the buffer stays bounded.
          if (this.buffer.length >= this.batchSize) await this.draining;
        }
      } catch (err) {
        this.fail(err);
      }
    })();
  }

  /** Applies everything in the store after the checkpoint, batch by batch, and returns the position reached. */
  async catchUp(): Promise<number> {
    this.applied = Math.max(this.applied, await readCheckpoint(this.db));
    for (;;) {
      const batch = await this.store.readAll({ after: this.applied, limit: this.batchSize });
      if (batch.length === 0) return this.applied;
      await this.applyBatch(batch);
    }
  }

  /**
   * Resolves true once the read models include `position`, false after `timeoutMs`. Command routes
   * await this so the client's next read sees its own write.
   */
  waitFor(position: number, timeoutMs = 5000): Promise<boolean> {
    if (this.failure) return Promise.reject(this.failure);
    if (this.applied >= position) return Promise.resolve(true);
    return new Promise((resolve, reject) => {
      const waiter = {
        position,
        resolve: () => {
          clearTimeout(timer);
          this.waiters.delete(waiter);
          resolve(true);
        },
        reject: (err: unknown) => {
          clearTimeout(timer);
          this.waiters.delete(waiter);
          reject(err);
        },
      };
      const timer = setTimeout(() => {
        this.waiters.delete(waiter);
        resolve(false);
      }, timeoutMs);
      this.waiters.add(waiter);
    });
  }

  async stop(): Promise<void> {
    await this.subscription?.close();
    await this.live;
    await this.draining;
    this.subscription = null;
    this.live = null;
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
        const batch = this.buffer.splice(0, this.batchSize);
        await this.applyBatch(batch);
      }
    } catch (err) {
      this.buffer = [];
      this.fail(err);
    } finally {
      this.draining = null;
    }
  }

  private async applyBatch(batch: RecordedEvent[]): Promise<void> {
    const reached = await writeTransaction(this.db, (trx) => applyEvents(trx, this.projections, batch));
    this.advance(reached);
  }

  private advance(position: number): void {
    if (position <= this.applied) return;
    this.applied = position;
    for (const waiter of this.waiters) if (waiter.position <= position) waiter.resolve();
  }

  private fail(err: unknown): void {
    this.failure = err;
    for (const waiter of this.waiters) waiter.reject(err);
    this.log(`projection runner stopped: ${err instanceof Error ? (err.stack ?? err.message) : String(err)}`);
  }
}

/**
 * Applies the events after the checkpoint to every projection and moves the checkpoint, inside the
 * caller's transaction. Returns the position reached.
 */
export async function applyEvents(
  trx: Kysely<ReadDb>,
  projections: readonly Projection[],
  batch: readonly RecordedEvent[],
): Promise<number> {
  const from = await readCheckpoint(trx);
  let last = from;
  for (const recorded of batch) {
    if (recorded.position <= last) continue;
    const event = toProjectedEvent(recorded);
    if (event) for (const projection of projections) await projection.apply(trx, event);
    last = recorded.position;
  }
  if (last > from) await writeCheckpoint(trx, last);
  return last;
}

export async function readCheckpoint(db: Kysely<ReadDb>): Promise<number> {
  const row = await db.selectFrom('checkpoints').select('position').where('name', '=', CHECKPOINT).executeTakeFirst();
  return row?.position ?? 0;
}

async function writeCheckpoint(db: Kysely<ReadDb>, position: number): Promise<void> {
  const updated_at = new Date().toISOString();
  await db
    .insertInto('checkpoints')
    .values({ name: CHECKPOINT, position, updated_at })
    .onConflict((oc) => oc.column('name').doUpdateSet({ position, updated_at }))
    .execute();
}
