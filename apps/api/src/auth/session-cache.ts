import type { AllSubscription, EventStore } from '@kamai/domain';

export interface CachedSession {
  userId: string;
  expiresAt: string;
  lastSeenAt: string;
}

const MAX_ENTRIES = 100_000;

/**
 * Live sessions this process has looked up, kept in memory so a request costs no read-model query
 * for its session. It follows the event store itself (not the read model, which several processes
 * share): a SessionEnded appended by any process drops the entry, a SessionSeen refreshes it. A
 * request first makes sure the cache has seen every event up to the store's head, so a password
 * change in one process signs the other sessions out in every process at once.
 */
export class SessionCache {
  private readonly entries = new Map<string, CachedSession>();
  private position = 0;
  private waiters = new Set<{ target: number; resolve: (reached: boolean) => void }>();
  private subscription: AllSubscription | null = null;
  private following: Promise<void> | null = null;
  private broken = false;

  constructor(private readonly store: EventStore) {}

  async start(): Promise<void> {
    this.position = await this.store.headPosition();
    const subscription = this.store.subscribeToAll({ after: this.position });
    this.subscription = subscription;
    this.following = (async () => {
      try {
        for await (const event of subscription) {
          if (event.type === 'SessionEnded') this.entries.delete((event.data as { sessionId: string }).sessionId);
          else if (event.type === 'SessionSeen') {
            const data = event.data as { sessionId: string; seenAt: string };
            const entry = this.entries.get(data.sessionId);
            if (entry) entry.lastSeenAt = data.seenAt;
          }
          this.position = event.position;
          for (const waiter of this.waiters) if (this.position >= waiter.target) waiter.resolve(true);
        }
      } catch {
        // A broken subscription must not serve stale sessions: every lookup goes to the read model.
        this.broken = true;
        this.entries.clear();
      }
    })();
  }

  async stop(): Promise<void> {
    await this.subscription?.close();
    await this.following;
    for (const waiter of this.waiters) waiter.resolve(false);
  }

  /** True once the cache has seen every event appended so far (waits up to `timeoutMs`). */
  async catchUp(timeoutMs = 2000): Promise<boolean> {
    if (this.broken) return false;
    const head = await this.store.headPosition();
    if (this.position >= head) return true;
    return new Promise<boolean>((resolve) => {
      const waiter = {
        target: head,
        resolve: (reached: boolean) => {
          clearTimeout(timer);
          this.waiters.delete(waiter);
          resolve(reached);
        },
      };
      const timer = setTimeout(() => waiter.resolve(false), timeoutMs);
      this.waiters.add(waiter);
    });
  }

  get(sid: string): CachedSession | undefined {
    return this.entries.get(sid);
  }

  set(sid: string, session: CachedSession): void {
    if (this.broken) return;
    // Crude but bounded: a flood of distinct sessions cannot grow the map without limit.
    if (this.entries.size >= MAX_ENTRIES) this.entries.clear();
    this.entries.set(sid, session);
  }

  delete(sid: string): void {
    this.entries.delete(sid);
  }
}
