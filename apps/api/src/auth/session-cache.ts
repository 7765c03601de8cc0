import { type AllSubscription, type ChangeSignal, type EventHeader, type EventStore, type RecordedEvent, type SyncReads, capability } from '@kamai/domain';
import { USER_RECORD_EVENTS, WALLET_FIGURE_EVENTS, userIdOf } from '@kamai/projections';
import { OncePerTurn } from '../once-per-turn.ts';

export interface CachedSession {
  userId: string;
  expiresAt: string;
  lastSeenAt: string;
}

const MAX_ENTRIES = 100_000;
/** The events that change a cached session (read sealed: they must carry no personal field). */
export const SESSION_EVENTS = ['SessionEnded', 'SessionSeen'] as const;
/** What the cache follows: the session events, and the events that change a user's record or wallet figures. */
const FOLLOWED: readonly string[] = [...new Set([...SESSION_EVENTS, ...USER_RECORD_EVENTS, ...WALLET_FIGURE_EVENTS])];
const IS_SESSION_EVENT: ReadonlySet<string> = new Set(SESSION_EVENTS);
const CHANGES_RECORD: ReadonlySet<string> = new Set(USER_RECORD_EVENTS);
const CHANGES_WALLET: ReadonlySet<string> = new Set(WALLET_FIGURE_EVENTS);

/** What of a user a reader keeps: their record (every signed-in request), or their wallet figures. */
export type UserFacts = 'record' | 'wallet';

/**
 * What a store offers to be followed without waiting (the embedded SQLite store's capabilities): a
 * change signal that costs one cheap call, and synchronous reads.
 */
export interface ChangeSignalledStore {
  signal: ChangeSignal;
  reads: SyncReads;
}

function changeSignalled(store: EventStore): ChangeSignalledStore | null {
  const signal = capability(store, 'changeSignal');
  const reads = capability(store, 'syncReads');
  return signal && reads ? { signal, reads } : null;
}

/**
 * Live sessions this process has looked up, kept in memory so a request costs no read-model query
 * for its session. It follows the event store itself (not the read model, which several processes
 * share): a SessionEnded appended by any process drops the entry, a SessionSeen refreshes it. A
 * request first makes sure the cache has seen every event committed so far, so a password change
 * in one process signs the other sessions out in every process at once.
 *
 * On the embedded store that costs next to nothing: the store's change signal (SQLite's
 * `data_version`, which moves only when another connection commits, plus this process's own
 * appends) says whether anything was committed since the last look. Unchanged, the cache is current
 * with no read at all; changed, the session events since then are read at once, synchronously, so
 * no request waits for a subscription's poll. Other stores (PostgreSQL, KurrentDB) are followed by a
 * subscription, and a request waits until it has reached the store's head; on PostgreSQL, whose
 * change signal comes from LISTEN/NOTIFY, only when another node has written since the cache last
 * reached the head or this process's own appends are not applied yet (another node's commit is
 * seen once its notification arrives, milliseconds later).
 *
 * Following the same events, it notes per user the position of the last event that changed their
 * record, and of the last that changed their wallet figures, in the read models (userChangedAt), so
 * a kept record is dropped when that user's record changes, not whenever anything at all is
 * committed (money moving, their own included), and kept wallet figures when their money moves.
 */
export class SessionCache {
  private readonly entries = new Map<string, CachedSession>();
  private position = 0;
  private readonly signalled: ChangeSignalledStore | null;
  /** The external version the cache was last brought up to date at (-1: never). */
  private seenVersion = -1;
  /** The external version is asked for once per event-loop turn. */
  private readonly turn = new OncePerTurn();
  private waiters = new Set<{ target: number; resolve: (reached: boolean) => void }>();
  private subscription: AllSubscription | null = null;
  /**
   * A followed store's change signal, when it has one without synchronous reads (PostgreSQL): while
   * no other node has written since the cache last reached the head, and this process's own appends
   * are applied, a request needs no round trip for the head.
   */
  private readonly followedSignal: ChangeSignal | undefined;
  /** The external version read before the head the cache last reached (-1: none). */
  private reachedVersion = -1;
  private following: Promise<void> | null = null;
  private broken = false;
  /** Per user, the position of the last event seen that changes their record, and their wallet figures. */
  private readonly userChanges: Record<UserFacts, Map<string, number>> = { record: new Map(), wallet: new Map() };
  /** Changes at or before this position are not in userChanges (before start, or forgotten). */
  private userChangesSince = 0;

  constructor(private readonly store: EventStore) {
    this.signalled = changeSignalled(store);
    this.followedSignal = this.signalled ? undefined : capability(store, 'changeSignal');
  }

  async start(): Promise<void> {
    if (this.signalled) {
      this.seenVersion = this.signalled.signal.externalVersion();
      this.position = this.signalled.reads.headNow();
      this.userChangesSince = this.position;
      return;
    }
    this.position = await this.store.headPosition();
    this.userChangesSince = this.position;
    // Sealed, as the signalled path reads: session events carry nothing personal, and the rest is read for its header.
    const subscription = this.store.subscribeToAll({ after: this.position, sealed: true });
    this.subscription = subscription;
    this.following = (async () => {
      try {
        for await (const event of subscription) {
          this.apply(event);
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

  /**
   * True once the cache has seen every event committed so far (waits up to `timeoutMs` on a store
   * without a change signal). Synchronous on a signalled store: a boolean, not a promise.
   */
  catchUp(timeoutMs = 2000): boolean | Promise<boolean> {
    if (this.broken) return false;
    const signalled = this.signalled;
    if (signalled) {
      try {
        // Another process's commits are looked for once per event-loop turn (a request asks two or
        // three times), and again after a look that failed; this process's own appends move
        // localHead, looked at every time.
        if (!this.turn.lookFirst(() => this.follow(signalled)) && signalled.signal.localHead > this.position) this.follow(signalled);
        return true;
      } catch {
        // The store could not be read (closed, failed): nothing cached can be trusted now.
        this.entries.clear();
        return false;
      }
    }
    const signal = this.followedSignal;
    if (!signal) return this.waitForHead(timeoutMs);
    // Read before the head: another node's commit after this moves it for the next request.
    const version = signal.externalVersion();
    // Nothing from other nodes since: this process's own appends are all there is to wait for.
    if (version === this.reachedVersion) return this.waitUntil(signal.localHead, timeoutMs);
    return this.waitForHead(timeoutMs).then((reached) => {
      if (reached) this.reachedVersion = version;
      return reached;
    });
  }

  /** Applies what was committed since the last look (nothing is read while nothing moved). */
  private follow(signalled: ChangeSignalledStore): void {
    // The version is read before the events: a commit after this read moves it for next time.
    const version = signalled.signal.externalVersion();
    if (version === this.seenVersion && signalled.signal.localHead <= this.position) return;
    const head = signalled.reads.headNow();
    if (head > this.position) {
      // Headers say whose record or wallet changed. Only session events carry what the cache keeps
      // (their session id and time, nothing personal: read sealed), and they are read only when the
      // headers show some: the commands' own events (money moving) are never parsed here.
      const headers = signalled.reads.readHeadersNow(this.position, head, FOLLOWED);
      if (headers.some((header) => IS_SESSION_EVENT.has(header.type))) {
        for (const event of signalled.reads.readTypesNow(this.position, head, SESSION_EVENTS, { sealed: true })) this.applySessionEvent(event);
      }
      for (const header of headers) this.noteUserChange(header);
      this.position = head;
    }
    this.seenVersion = version;
  }

  private async waitForHead(timeoutMs: number): Promise<boolean> {
    return this.waitUntil(await this.store.headPosition(), timeoutMs);
  }

  /** True once the subscription has applied `head` (at once when it has), false after `timeoutMs`. */
  private waitUntil(head: number, timeoutMs: number): boolean | Promise<boolean> {
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

  private apply(event: RecordedEvent): void {
    if (IS_SESSION_EVENT.has(event.type)) this.applySessionEvent(event);
    else this.noteUserChange(event);
  }

  private noteUserChange(event: EventHeader): void {
    const record = CHANGES_RECORD.has(event.type);
    const wallet = CHANGES_WALLET.has(event.type);
    if (!record && !wallet) return;
    // Bounded like the sessions: forgetting is safe, it only makes every older row stale.
    if (this.userChanges.record.size >= MAX_ENTRIES || this.userChanges.wallet.size >= MAX_ENTRIES) {
      this.userChanges.record.clear();
      this.userChanges.wallet.clear();
      this.userChangesSince = event.position;
    }
    const userId = userIdOf(event.streamId);
    if (record) this.userChanges.record.set(userId, event.position);
    if (wallet) this.userChanges.wallet.set(userId, event.position);
  }

  private applySessionEvent(event: RecordedEvent): void {
    if (event.type === 'SessionEnded') this.entries.delete((event.data as { sessionId: string }).sessionId);
    else if (event.type === 'SessionSeen') {
      const data = event.data as { sessionId: string; seenAt: string };
      const entry = this.entries.get(data.sessionId);
      if (entry) entry.lastSeenAt = data.seenAt;
    }
  }

  /**
   * The position after which the user's record (or wallet figures) has not changed, as far as the
   * cache has seen: what the read model answered once it included this position is still what it
   * would answer now. Ask after catchUp() returned true.
   */
  userChangedAt(facts: UserFacts, userId: string): number {
    return Math.max(this.userChangesSince, this.userChanges[facts].get(userId) ?? 0);
  }

  get(sid: string): CachedSession | undefined {
    return this.entries.get(sid);
  }

  /**
   * Keeps a session read from the read model, whose rows include every event up to `readAt`. The
   * cache may already have passed that position (the lookup awaited): the session's own events
   * between the two are applied to it here, so a sign-out the cache saw meanwhile is not undone.
   * Returns the session as it stands, or undefined when it has ended.
   */
  remember(sid: string, session: CachedSession, readAt: number): CachedSession | undefined {
    if (this.broken) return session;
    if (this.position > readAt) {
      // A store without synchronous reads: answer from the row, but do not keep it.
      if (!this.signalled) return session;
      for (const event of this.signalled.reads.readTypesNow(readAt, this.position, SESSION_EVENTS, { sealed: true })) {
        if ((event.data as { sessionId?: string }).sessionId !== sid) continue;
        if (event.type === 'SessionEnded') return undefined;
        session.lastSeenAt = (event.data as { seenAt: string }).seenAt;
      }
    }
    // Crude but bounded: a flood of distinct sessions cannot grow the map without limit.
    if (this.entries.size >= MAX_ENTRIES) this.entries.clear();
    this.entries.set(sid, session);
    return session;
  }

  delete(sid: string): void {
    this.entries.delete(sid);
  }
}
