/**
 * The embedded store's subscriptions (subscribeToAll) and the registry that wakes them: after this
 * process's own commits (the store's append pipeline) and when asked to (the `wake` capability, for a
 * process told that another connection appended).
 */
import type { AllSubscription, RecordedEvent, SubscriptionWake } from '@kamai/domain';

/** Rows a subscription reads per query. */
const SUBSCRIPTION_BATCH = 256;
/** How often a waiting subscription looks at the change signal for other processes' commits, in ms. */
const CHANGE_CHECK_MS = 2;

export interface SubscriptionOptions {
  /** How often a subscription looks for other processes' appends, in ms. Default 50. */
  pollIntervalMs?: number;
  /**
   * How often a waiting subscription checks for other processes' commits, in ms (default 2). A
   * follower that this process's own appends wake by other means (the projection thread) can look
   * less often.
   */
  changeCheckMs?: number;
}

/** What a subscription reads and watches: the store's synchronous reads and its change signal. */
export interface SubscriptionSource {
  readAllNow(after: number, limit: number): RecordedEvent[];
  /** Moves when another connection committed (throws once the store is closed). */
  externalVersion(): number;
  isClosed(): boolean;
}

/** The live subscriptions of one store. Its `wakeSubscriptions` is the store's `wake` capability. */
export class SqliteSubscriptions implements SubscriptionWake {
  readonly #open = new Set<SqliteAllSubscription>();
  readonly #source: SubscriptionSource;
  readonly #pollIntervalMs: number;
  readonly #changeCheckMs: number;

  constructor(source: SubscriptionSource, options: SubscriptionOptions) {
    this.#source = source;
    this.#pollIntervalMs = options.pollIntervalMs ?? 50;
    this.#changeCheckMs = Math.max(1, options.changeCheckMs ?? CHANGE_CHECK_MS);
  }

  subscribe(after: number): AllSubscription {
    const subscription = new SqliteAllSubscription(this.#source, after, this.#pollIntervalMs, this.#changeCheckMs, (done) => this.#open.delete(done));
    this.#open.add(subscription);
    return subscription;
  }

  /** Subscriptions look at the log now rather than at their next poll (this or another connection appended). */
  wakeSubscriptions(): void {
    for (const subscription of this.#open) subscription.notify();
  }

  async closeAll(): Promise<void> {
    for (const subscription of [...this.#open]) await subscription.close();
  }
}

/**
 * Catch-up then live: reads everything after its cursor, then waits for a local append (woken at
 * once) or the poll interval (other processes' appends), and reads again. Positions only grow and
 * a reader sees whole commits, so following the cursor yields each event once, in order.
 */
class SqliteAllSubscription implements AllSubscription {
  readonly #source: SubscriptionSource;
  readonly #after: number;
  readonly #pollIntervalMs: number;
  readonly #changeCheckMs: number;
  readonly #forget: (subscription: SqliteAllSubscription) => void;
  #closed = false;
  #started = false;
  /** Set by a local append; checked before sleeping so a wake-up during a yield is not lost. */
  #dirty = false;
  #wake: (() => void) | undefined;

  constructor(source: SubscriptionSource, after: number, pollIntervalMs: number, changeCheckMs: number, forget: (subscription: SqliteAllSubscription) => void) {
    this.#source = source;
    this.#after = after;
    this.#pollIntervalMs = pollIntervalMs;
    this.#changeCheckMs = changeCheckMs;
    this.#forget = forget;
  }

  [Symbol.asyncIterator](): AsyncIterator<RecordedEvent> {
    if (this.#started) throw new Error('a subscription can be iterated only once');
    this.#started = true;
    return this.#run();
  }

  async *#run(): AsyncGenerator<RecordedEvent> {
    let cursor = this.#after;
    try {
      while (!this.#closed && !this.#source.isClosed()) {
        this.#dirty = false;
        const batch = this.#source.readAllNow(cursor, SUBSCRIPTION_BATCH);
        for (const event of batch) {
          if (this.#closed) return;
          cursor = event.position;
          yield event;
        }
        if (batch.length < SUBSCRIPTION_BATCH && !this.#dirty && !this.#closed) await this.#changed();
      }
    } finally {
      this.#closed = true;
      this.#forget(this);
    }
  }

  /**
   * Resolves on a local append, when another process committed (the store's data_version moved:
   * checked every few ms, one cheap call, so a worker or another API process sees an append within
   * milliseconds rather than a poll interval), or after the poll interval at the latest.
   */
  #changed(): Promise<void> {
    return new Promise((resolve) => {
      const since = Date.now();
      let version: number | null = null;
      try {
        version = this.#source.externalVersion();
      } catch {
        // closed: the interval below ends the wait
      }
      const done = () => {
        clearTimeout(timer);
        this.#wake = undefined;
        resolve();
      };
      const check = () => {
        if (this.#closed || this.#source.isClosed() || Date.now() - since >= this.#pollIntervalMs) return done();
        try {
          if (version !== null && this.#source.externalVersion() !== version) return done();
        } catch {
          return done();
        }
        timer = setTimeout(check, Math.min(this.#changeCheckMs, this.#pollIntervalMs));
      };
      let timer = setTimeout(check, Math.min(this.#changeCheckMs, this.#pollIntervalMs));
      this.#wake = done;
    });
  }

  /** A local append committed. */
  notify(): void {
    this.#dirty = true;
    this.#wake?.();
  }

  async close(): Promise<void> {
    this.#closed = true;
    this.#wake?.();
    this.#forget(this);
  }
}
