/**
 * The event-store port on PostgreSQL, through node-postgres (`pg`): one log shared by any number of
 * API nodes. Tables and the append's first statement are in postgres-schema.ts.
 *
 * - Append: one statement, `kamai.append` (postgres-schema.ts), in autocommit: one round trip. It
 *   waits for the stream's turn (a transaction lock, so a stream's appends run one at a time, also
 *   for a stream that does not exist yet), reads the stream's revision and chain head and checks the
 *   expected revision, takes the transaction's id and its positions under a short lock, computes
 *   the chain hashes over the bytes chain.ts hashes, inserts the events and moves the head. The
 *   unique (stream_id, revision) is the backstop. Event ids are unique: a retry of a written
 *   append gets the original answer.
 * - Gap-free reads: positions are taken before commit, so a transaction may commit after another
 *   with higher positions. Every read of the log (readAll, subscriptions, headPosition, the chain)
 *   keeps only events whose transaction id is below the oldest transaction still running (Emmett's
 *   `pg_snapshot_xmin(pg_current_snapshot())`), and since ids and positions are taken together under
 *   one lock, those events are a prefix of the log in position order: a late commit with a lower
 *   position is not skipped, it holds the readers back until it ends. The price: a long writing
 *   transaction anywhere in the cluster holds subscriptions back for as long as it runs.
 * - Read your writes: a read waits (briefly) until this process's own acknowledged appends are
 *   below that line, so an append followed by readAll or headPosition sees itself.
 * - Change signals: each append NOTIFYs at commit; a subscription waits on LISTEN (one connection per
 *   store), with a slow poll as a fallback for a lost connection or notification. The same
 *   notifications are the store's `changeSignal`: one sent by a backend that is not one of this
 *   store's own connections is another node's commit and moves `externalVersion`, and
 *   `externalVersionOf` for each stream it names (its payload lists them), so the command handler's
 *   cached state of a stream is read again only when another node wrote to that stream (or the
 *   LISTEN connection is down, when every look counts as a change). Another node's commit is seen once its
 *   notification has arrived, a few milliseconds after it; a decision made before that fails its
 *   append's revision check and is made again on the new events.
 * - Tamper evidence (chain.ts): per-stream chains and heads are written with the append; no event
 *   stores a log link (appends from many nodes interleave, and one lock over every append would
 *   serialise them), so the log chain is computed over the log's order, as on KurrentDB.
 */
import pg from 'pg';
import {
  WrongExpectedRevisionError,
  type AllSubscription,
  type AppendResult,
  type EventMetadata,
  type EventStore,
  type ChangeSignal,
  type EventStoreCapabilities,
  type SnapshotStore,
  type SubscriptionWake,
  type ExpectedRevision,
  type Json,
  type NewEvent,
  type RecordedEvent,
  type StreamSnapshot,
} from '@kamai/domain';
import { DuplicateEventIdError, assertValidAppend, retriedAppendResult, satisfiesExpected, type StoredEventPlace } from './common.ts';
import {
  type ChainHead,
  type ChainSource,
  type ChainedEvent,
  type CheckpointStore,
  type LedgerCheckpoint,
  type LogLink,
  chainRest,
  computedLogHead,
} from './chain.ts';
import { CHANNEL, SCHEMA_SQL } from './postgres-schema.ts';

export interface PostgresEventStoreOptions {
  /** Connections in the pool. Default 10. */
  poolSize?: number;
  /** How often a waiting subscription looks without a notification, in ms. Default 1000. */
  fallbackPollMs?: number;
}

/** Rows a subscription reads per query. */
const SUBSCRIPTION_BATCH = 256;
/** Tries of an 'any' or 'stream_exists' append that lost the race to create its stream. */
const CREATE_RACE_RETRIES = 20;
/** How long a read waits for this process's own appends to fall below the line of running transactions. */
const OWN_WRITES_WAIT_MS = 10_000;
/** Streams externalVersionOf keeps a version of; past that it forgets them all (each then reads once). */
const STREAM_VERSIONS_KEPT = 100_000;
/** How long after losing its LISTEN connection a store opens another, in ms. */
const RELISTEN_MS = 100;
/**
 * How often a subscription held back by a running transaction looks again, in ms. An append that
 * holds it back notifies when it commits, which wakes the subscription at once; this look is for a
 * transaction that notifies nobody (another database's, a shared store's, or a node that died).
 */
const HELD_BACK_MS = 20;
/** How long a read waiting for its own appends to become readable waits before it looks again without a wake-up, in ms. */
const HELD_BACK_WAIT_MS = 2;
/** Streams whose last own revision the change signal remembers before it forgets them all. */
const LOCAL_REVISIONS_KEPT = 10_000;

const UNIQUE_VIOLATION = '23505';

interface EventRow {
  position: string;
  event_id: string;
  stream_id: string;
  revision: string;
  type: string;
  data: string;
  metadata: string;
  recorded_at: Date;
}

interface ChainRow extends EventRow {
  hash: string;
  prev_hash: string | null;
}

/** The columns read for an event; payloads as their stored text. */
const EVENT_COLUMNS = 'e.position, e.event_id, e.stream_id, e.revision, e.type, e.data::text AS data, e.metadata::text AS metadata, e.recorded_at';

/**
 * Rows after a position below the line of running transactions, with the line itself (`horizon`,
 * present even when no row is): one statement, so one snapshot decides both.
 */
function visibleSql(columns: string): string {
  // `committed`: the newest committed position, visible or not (a subscription held back looks again soon).
  return `WITH h AS (SELECT pg_snapshot_xmin(pg_current_snapshot()) AS xmin)
    SELECT h.xmin::text AS horizon, (SELECT max(position) FROM kamai.events)::text AS committed, v.* FROM h LEFT JOIN LATERAL (
      SELECT ${columns} FROM kamai.events e WHERE e.position > $1 AND e.transaction_id < h.xmin ORDER BY e.position LIMIT $2
    ) v ON true`;
}
// Named: each connection parses and plans them once (the hot reads, after every append).
const READ_ALL_SQL = { name: 'kamai_read_all', text: visibleSql(EVENT_COLUMNS) };
const READ_CHAIN_SQL = { name: 'kamai_read_chain', text: visibleSql(`${EVENT_COLUMNS}, e.hash, e.prev_hash`) };
const HEAD_SQL = {
  name: 'kamai_head',
  text: `WITH h AS (SELECT pg_snapshot_xmin(pg_current_snapshot()) AS xmin)
    SELECT h.xmin::text AS horizon, (SELECT e.position FROM kamai.events e WHERE e.transaction_id < h.xmin ORDER BY e.position DESC LIMIT 1) AS position FROM h`,
};
const READ_STREAM_SQL = {
  name: 'kamai_read_stream',
  text: `SELECT ${EVENT_COLUMNS} FROM kamai.events e WHERE e.stream_id = $1 AND e.revision >= $2 ORDER BY e.revision LIMIT $3`,
};

/** A subscription's read: the events, and whether committed events lie beyond them, held back. */
interface SubscriptionRead {
  events: RecordedEvent[];
  heldBack: boolean;
}

/** A subscription read shared by position: running (started after `wakes` wake-ups), and the one queued after it. */
interface SharedRead {
  running: Promise<SubscriptionRead>;
  wakes: number;
  next?: Promise<SubscriptionRead>;
}

/** The readable log's head and the line of running transactions it was read below. */
interface VisibleHead {
  horizon: bigint;
  position: number;
}

/** The append, one statement in autocommit (postgres-schema.ts), prepared once per connection. */
const APPEND = { name: 'kamai_append', text: 'SELECT actual, last_position, xid FROM kamai.append($1, $2, $3, $4, $5, $6, $7, $8)' };
/** Several appends in one statement and one commit (postgres-schema.ts), prepared once per connection. */
const APPEND_BATCH = { name: 'kamai_append_batch', text: 'SELECT k, actual, last_position, xid FROM kamai.append_batch($1)' };
/** The expected revisions that are not a number, as kamai.append's p_expected takes them. */
const EXPECTED_CODE = { no_stream: -1, any: -2, stream_exists: -3 } as const;
/**
 * At most this many appends go in one batch. While a batch is in flight the appends that arrive wait
 * for the next (group commit, as the embedded store's): one round trip, one commit and one flush of
 * the database's log for all of them, instead of one each.
 */
const APPEND_BATCH_MAX = 64;

type SerializedEvent = { id: string; type: string; data: string; metadata: string };
type AppendOutcome =
  | { kind: 'written'; result: AppendResult; xid: bigint }
  | { kind: 'conflict'; actual: number }
  | { kind: 'created-meanwhile' }
  | { kind: 'duplicate-id'; eventId: string };
interface QueuedAppend {
  streamId: string;
  events: SerializedEvent[];
  expected: ExpectedRevision;
  settle: (outcome: Promise<AppendOutcome>) => void;
}

export class PostgresEventStore implements EventStore, SnapshotStore, ChangeSignal, SubscriptionWake, ChainSource, CheckpointStore {
  /** No synchronous reads: every read is a round trip. */
  readonly capabilities: EventStoreCapabilities = { snapshots: this, changeSignal: this, wake: this, chain: this, checkpoints: this };
  readonly #pool: pg.Pool;
  readonly #connectionString: string;
  readonly #fallbackPollMs: number;
  readonly #ready: Promise<void>;
  readonly #subscriptions = new Set<PostgresAllSubscription>();
  #listener: Promise<pg.Client> | null = null;
  /** The highest transaction id of this process's acknowledged appends (reads wait until it is below the line). */
  #ownXid = 0n;
  #closed = false;
  /** The backend process ids of this store's pooled connections: their notifications are its own appends. */
  readonly #ownBackends = new Set<number>();
  /** Notifications of other nodes' commits (and LISTEN connections made) so far. */
  #externalVersion = 0;
  /**
   * externalVersionOf: the #externalVersion at which another node last appended to a stream, as its
   * notification named it; a stream not in the map is at #versionFloor, which moves to
   * #externalVersion whenever the map is cleared (full, or a change that names no streams).
   */
  readonly #streamVersions = new Map<string, number>();
  #versionFloor = 0;
  /** Whether the LISTEN connection is up: without it, nothing says another node wrote. */
  #listening = false;
  readonly #localRevisions = new Map<string, number>();
  #localRevisionsEpoch = 0;
  #localHead = 0;
  readonly #appendedListeners = new Set<(position: number) => void>();
  /** The head query running, and the one that starts after it (#freshHead). */
  #headRunning: Promise<VisibleHead> | null = null;
  #headNext: Promise<VisibleHead> | null = null;
  /** Subscription reads running by position, and the one queued after each (readForSubscription). */
  readonly #subscriptionReads = new Map<number, SharedRead>();
  /** Wake-ups so far (wakeSubscriptions): a shared read started since the last one is fresh for all. */
  #wakes = 0;
  /** Reads waiting for the line of running transactions to move (#moved). */
  readonly #movedWaiters = new Set<() => void>();
  /** Appends waiting for the batch in flight to end (#submit). */
  readonly #queuedAppends: QueuedAppend[] = [];
  #batchInFlight = false;

  constructor(connectionString: string, options: PostgresEventStoreOptions = {}) {
    this.#connectionString = connectionString;
    this.#fallbackPollMs = options.fallbackPollMs ?? 1000;
    this.#pool = new pg.Pool({ connectionString, max: options.poolSize ?? 10 });
    // An idle connection's error (the server restarted) must not crash the process; the pool replaces it.
    this.#pool.on('error', () => {});
    this.#pool.on('connect', (client) => {
      const backend = backendOf(client);
      if (backend !== null) this.#ownBackends.add(backend);
    });
    this.#pool.on('remove', (client) => {
      const backend = backendOf(client);
      if (backend !== null) this.#ownBackends.delete(backend);
    });
    this.#ready = this.#pool.query(`BEGIN; ${SCHEMA_SQL} COMMIT;`).then(() => undefined);
    this.#ready.catch(() => {}); // reported by every call that awaits it
  }

  async append(streamId: string, events: NewEvent[], expected: ExpectedRevision): Promise<AppendResult> {
    this.#assertOpen();
    assertValidAppend(streamId, events, expected);
    // Serialised before the transaction, so a bad payload fails alone and holds no lock.
    const serialized = events.map((e) => ({ id: e.id, type: e.type, data: JSON.stringify(e.data), metadata: JSON.stringify(e.metadata ?? {}) }));
    await this.#ready;
    for (let attempt = 1; ; attempt++) {
      // The first try goes with whatever else is waiting; a retry after a lost race goes alone.
      const outcome = attempt === 1 ? await this.#submit(streamId, serialized, expected) : await this.#tryAppend(streamId, serialized, expected);
      if (outcome.kind === 'written') {
        if (outcome.xid > this.#ownXid) this.#ownXid = outcome.xid;
        this.#appended(streamId, outcome.result);
        this.wakeSubscriptions();
        return outcome.result;
      }
      if (outcome.kind === 'created-meanwhile' && (expected === 'any' || expected === 'stream_exists') && attempt < CREATE_RACE_RETRIES) continue;
      const retried = await this.#findRetried(streamId, expected, serialized.map((e) => e.id));
      if (retried) return retried;
      if (outcome.kind === 'duplicate-id') throw new DuplicateEventIdError(streamId, outcome.eventId);
      throw new WrongExpectedRevisionError(streamId, expected, outcome.kind === 'conflict' ? outcome.actual : await this.#lastRevision(streamId));
    }
  }

  /** An append's first try: now when no batch is in flight, else with the next batch. */
  #submit(streamId: string, events: SerializedEvent[], expected: ExpectedRevision): Promise<AppendOutcome> {
    return new Promise<AppendOutcome>((resolve, reject) => {
      this.#queuedAppends.push({ streamId, events, expected, settle: (outcome) => outcome.then(resolve, reject) });
      if (!this.#batchInFlight) void this.#sendBatches();
    });
  }

  /** Sends what is queued, one batch at a time, until nothing is. */
  async #sendBatches(): Promise<void> {
    this.#batchInFlight = true;
    try {
      while (this.#queuedAppends.length > 0) {
        const batch = this.#queuedAppends.splice(0, APPEND_BATCH_MAX);
        const outcomes = batch.length > 1 ? await this.#tryBatch(batch).catch(() => null) : null;
        if (outcomes) {
          batch.forEach((member, i) => member.settle(Promise.resolve(outcomes[i]!)));
          continue;
        }
        // One alone; or a batch that failed (a member's event id already written, or any other failure): each goes alone.
        for (const member of batch) {
          const outcome = this.#tryAppend(member.streamId, member.events, member.expected);
          member.settle(outcome);
          await outcome.catch(() => {});
        }
      }
    } finally {
      this.#batchInFlight = false;
    }
  }

  async #tryBatch(batch: QueuedAppend[]): Promise<AppendOutcome[]> {
    const payload = batch.map((member) => ({
      s: member.streamId,
      sj: JSON.stringify(member.streamId),
      e: typeof member.expected === 'number' ? member.expected : EXPECTED_CODE[member.expected],
      ev: member.events.map((e) => ({ id: e.id, t: e.type, d: e.data, m: e.metadata, r: chainRest(e.type, e.data, e.metadata) })),
    }));
    const { rows } = await this.#pool.query<{ k: number; actual: string; last_position: string | null; xid: string | null }>({ ...APPEND_BATCH, values: [JSON.stringify(payload)] });
    const outcomes: AppendOutcome[] = [];
    for (const row of rows) {
      const actual = Number(row.actual);
      outcomes[row.k] =
        row.last_position === null
          ? { kind: 'conflict', actual }
          : { kind: 'written', result: { nextExpectedRevision: actual + batch[row.k]!.events.length, position: Number(row.last_position) }, xid: BigInt(row.xid!) };
    }
    if (batch.some((_, i) => outcomes[i] === undefined)) throw new Error('kamai.append_batch answered for fewer appends than it was given');
    return outcomes;
  }

  async #tryAppend(streamId: string, events: SerializedEvent[], expected: ExpectedRevision): Promise<AppendOutcome> {
    try {
      const { rows } = await this.#pool.query<{ actual: string; last_position: string | null; xid: string | null }>({
        ...APPEND,
        values: [
          streamId,
          JSON.stringify(streamId),
          typeof expected === 'number' ? expected : EXPECTED_CODE[expected],
          events.map((e) => e.id),
          events.map((e) => e.type),
          events.map((e) => e.data),
          events.map((e) => e.metadata),
          // The chain's input after the revision (chain.ts); the function hashes it after the previous hash.
          events.map((e) => chainRest(e.type, e.data, e.metadata)),
        ],
      });
      const row = rows[0]!;
      const actual = Number(row.actual);
      if (row.last_position === null) return { kind: 'conflict', actual };
      return { kind: 'written', result: { nextExpectedRevision: actual + events.length, position: Number(row.last_position) }, xid: BigInt(row.xid!) };
    } catch (error) {
      if (isUniqueViolation(error, 'events_stream_id_revision_key')) return { kind: 'created-meanwhile' };
      if (isUniqueViolation(error, 'events_event_id_key')) return { kind: 'duplicate-id', eventId: duplicatedId(error) ?? events[0]!.id };
      throw error;
    }
  }

  /** This process's own append, for the change signal. */
  #appended(streamId: string, result: AppendResult): void {
    if (!this.#localRevisions.has(streamId) && this.#localRevisions.size >= LOCAL_REVISIONS_KEPT) {
      this.#localRevisions.clear();
      this.#localRevisionsEpoch++;
    }
    this.#localRevisions.set(streamId, result.nextExpectedRevision);
    if (result.position > this.#localHead) this.#localHead = result.position;
    for (const listener of this.#appendedListeners) listener(this.#localHead);
  }

  externalVersion(): number {
    if (this.#listening) return this.#externalVersion;
    // Nobody is listening (yet, or any more): every look is a change, and the listener is (re)opened.
    this.#listen().catch(() => {});
    this.#externalChange(null);
    return this.#externalVersion;
  }

  externalVersionOf(streamId: string): number {
    if (!this.#listening) return this.externalVersion();
    return this.#streamVersions.get(streamId) ?? this.#versionFloor;
  }

  /** Another node committed, to these streams (null: to any stream, as far as this node can tell). */
  #externalChange(streams: readonly string[] | null): void {
    const version = ++this.#externalVersion;
    if (streams === null || this.#streamVersions.size + streams.length > STREAM_VERSIONS_KEPT) {
      this.#streamVersions.clear();
      this.#versionFloor = version;
    }
    for (const streamId of streams ?? []) this.#streamVersions.set(streamId, version);
  }

  localRevisionOf(streamId: string): number | undefined {
    return this.#localRevisions.get(streamId);
  }

  get localRevisionsEpoch(): number {
    return this.#localRevisionsEpoch;
  }

  get localHead(): number {
    return this.#localHead;
  }

  onAppended(listener: (position: number) => void): () => void {
    this.#appendedListeners.add(listener);
    return () => this.#appendedListeners.delete(listener);
  }

  async #findRetried(streamId: string, expected: ExpectedRevision, ids: string[]): Promise<AppendResult | undefined> {
    const { rows } = await this.#pool.query<{ event_id: string; stream_id: string; revision: string; position: string }>(
      'SELECT event_id, stream_id, revision, position FROM kamai.events WHERE event_id = ANY($1::uuid[])',
      [ids],
    );
    const places = new Map<string, StoredEventPlace>(
      rows.map((r) => [r.event_id, { stream_id: r.stream_id, revision: Number(r.revision), position: Number(r.position) }]),
    );
    return retriedAppendResult(streamId, expected, ids, (id) => places.get(id));
  }

  async #lastRevision(streamId: string): Promise<number> {
    const { rows } = await this.#pool.query<{ revision: string }>('SELECT revision FROM kamai.streams WHERE stream_id = $1', [streamId]);
    return rows[0] ? Number(rows[0].revision) : -1;
  }

  async readStream(streamId: string, options: { fromRevision?: number; maxCount?: number } = {}): Promise<RecordedEvent[]> {
    this.#assertOpen();
    const from = options.fromRevision ?? 0;
    if (!Number.isSafeInteger(from) || from < 0) throw new TypeError(`fromRevision ${from} must be a non-negative integer`);
    const { maxCount } = options;
    if (maxCount !== undefined && (!Number.isSafeInteger(maxCount) || maxCount < 1)) throw new TypeError(`maxCount ${maxCount} must be a positive integer`);
    await this.#ready;
    // A stream's events are read as committed: its row lock orders its appends, so it has no gaps.
    const { rows } = await this.#pool.query<EventRow>({ ...READ_STREAM_SQL, values: [streamId, from, maxCount ?? null] });
    return rows.map(toRecordedEvent);
  }

  async readAll(options: { after: number; limit: number }): Promise<RecordedEvent[]> {
    this.#assertOpen();
    const { after, limit } = options;
    assertPosition(after);
    if (!Number.isSafeInteger(limit) || limit < 1) throw new TypeError(`limit ${limit} must be a positive integer`);
    return (await this.#readVisible<EventRow>(READ_ALL_SQL, after, limit, true)).rows.map(toRecordedEvent);
  }

  /**
   * Rows below the line of running transactions. `ownWrites`: first wait until this process's
   * acknowledged appends are below it (another node's running append may hold it back for a moment).
   */
  async #readVisible<Row extends EventRow>(
    sql: { name: string; text: string },
    after: number,
    limit: number,
    ownWrites: boolean,
  ): Promise<{ rows: Row[]; committed: number }> {
    await this.#ready;
    // The appends acknowledged before this call: later ones need not hold it back.
    const own = this.#ownXid;
    const until = Date.now() + OWN_WRITES_WAIT_MS;
    for (;;) {
      const { rows } = await this.#pool.query<Row & { horizon: string; committed: string | null }>({ ...sql, values: [after, limit] });
      const horizon = BigInt(rows[0]?.horizon ?? '0');
      if (!ownWrites || own < horizon || Date.now() > until) {
        return { rows: rows.filter((row) => row.position !== null), committed: Number(rows[0]?.committed ?? 0) };
      }
      await this.#moved();
    }
  }

  async headPosition(): Promise<number> {
    this.#assertOpen();
    await this.#ready;
    const own = this.#ownXid;
    const until = Date.now() + OWN_WRITES_WAIT_MS;
    for (;;) {
      const head = await this.#freshHead();
      if (own < head.horizon || Date.now() > until) return head.position;
      await this.#moved();
    }
  }

  /**
   * The readable head, read by a query that starts after this call: one query serves every caller
   * that arrives while another runs (under load, dozens of answers a round trip name the head).
   */
  #freshHead(): Promise<VisibleHead> {
    if (this.#headNext) return this.#headNext;
    const running = this.#headRunning;
    if (!running) return this.#readHead();
    const next = running.then(
      () => this.#readHead(),
      () => this.#readHead(),
    );
    this.#headNext = next;
    return next;
  }

  #readHead(): Promise<VisibleHead> {
    this.#headNext = null;
    const reading = this.#pool.query<{ horizon: string; position: string | null }>(HEAD_SQL).then(({ rows }) => {
      const row = rows[0]!;
      return { horizon: BigInt(row.horizon), position: row.position === null ? 0 : Number(row.position) };
    });
    this.#headRunning = reading;
    const done = () => {
      if (this.#headRunning === reading) this.#headRunning = null;
    };
    reading.then(done, done);
    return reading;
  }

  /**
   * Resolves when the line of running transactions may have moved: an own append or another node's
   * notification, or after HELD_BACK_WAIT_MS (a transaction that notifies nobody, such as a
   * throttle's or outbox's write).
   */
  #moved(): Promise<void> {
    return new Promise<void>((resolve) => {
      const waiters = this.#movedWaiters;
      const timer = setTimeout(done, HELD_BACK_WAIT_MS);
      function done(): void {
        clearTimeout(timer);
        waiters.delete(done);
        resolve();
      }
      waiters.add(done);
    });
  }

  /**
   * Rows for a subscription: no wait for own writes (it follows the log as it becomes readable), and
   * whether committed events lie beyond them, held back by a running transaction. @internal
   */
  readForSubscription(after: number): Promise<SubscriptionRead> {
    // A LISTEN connection lost meanwhile is opened again (the fallback poll delivers until then).
    this.#listen().catch(() => {});
    // One reader for the store: subscriptions at the same position (the read models' and the
    // session cache's, woken by the same append) share one query and one parse of its rows. A read
    // running since the last wake-up sees all that woke anyone; one that started before it may not,
    // and the caller takes the next read instead, which starts after it and is shared the same way.
    const shared = this.#subscriptionReads.get(after);
    if (shared?.next) return shared.next;
    if (shared?.wakes === this.#wakes) return shared.running;
    if (shared) {
      const next = shared.running.then(
        () => this.#startSubscriptionRead(after),
        () => this.#startSubscriptionRead(after),
      );
      shared.next = next;
      return next;
    }
    return this.#startSubscriptionRead(after);
  }

  #startSubscriptionRead(after: number): Promise<SubscriptionRead> {
    const running = this.#readSubscriptionRows(after);
    const entry: SharedRead = { running, wakes: this.#wakes };
    this.#subscriptionReads.set(after, entry);
    const done = () => {
      if (this.#subscriptionReads.get(after) === entry && !entry.next) this.#subscriptionReads.delete(after);
    };
    running.then(done, done);
    return running;
  }

  async #readSubscriptionRows(after: number): Promise<SubscriptionRead> {
    const { rows, committed } = await this.#readVisible<EventRow>(READ_ALL_SQL, after, SUBSCRIPTION_BATCH, false);
    const events = rows.map(toRecordedEvent);
    return { events, heldBack: committed > (events.at(-1)?.position ?? after) };
  }

  subscribeToAll(options: { after: number }): AllSubscription {
    this.#assertOpen();
    assertPosition(options.after);
    const subscription = new PostgresAllSubscription(this, options.after, this.#fallbackPollMs, () => this.#subscriptions.delete(subscription));
    this.#subscriptions.add(subscription);
    this.#listen().catch(() => {}); // without it, the fallback poll still delivers
    return subscription;
  }

  /** Subscriptions look at the log now rather than at their next poll. */
  wakeSubscriptions(): void {
    this.#wakes++;
    // Reads held back by a running transaction look again too: this may have been its end.
    for (const done of [...this.#movedWaiters]) done();
    for (const subscription of this.#subscriptions) subscription.wake();
  }

  /** One LISTEN connection per store, opened with the first subscription and again after it is lost. */
  #listen(): Promise<pg.Client> {
    if (this.#closed) return Promise.reject(new Error('the event store is closed'));
    if (this.#listener) return this.#listener;
    const client = new pg.Client({ connectionString: this.#connectionString });
    const lost = () => {
      if (this.#listener !== opening) return;
      this.#listener = null;
      this.#listening = false;
      client.end().catch(() => {});
      // Subscriptions waiting for a notification would otherwise wait for their fallback poll.
      if (!this.#closed && this.#subscriptions.size > 0) setTimeout(() => this.#listen().catch(() => {}), RELISTEN_MS).unref();
    };
    client.on('notification', (notification) => {
      // An own append woke the subscriptions when it committed.
      if (this.#ownBackends.has(notification.processId)) return;
      this.#externalChange(notifiedStreams(notification.payload));
      this.wakeSubscriptions();
    });
    client.on('error', lost);
    client.on('end', lost);
    const opening = client
      .connect()
      .then(() => client.query(`LISTEN ${CHANNEL}`))
      .then(() => {
        // Anything committed while the connection was down is looked at now, by subscriptions and by
        // the command handler's cached states.
        this.#externalChange(null);
        this.#listening = true;
        this.wakeSubscriptions();
        return client;
      });
    opening.catch(lost);
    this.#listener = opening;
    return opening;
  }

  async readSnapshot(streamId: string): Promise<StreamSnapshot | null> {
    this.#assertOpen();
    await this.#ready;
    const { rows } = await this.#pool.query<{ revision: string; version: number; state: string }>(
      'SELECT revision, version, state::text AS state FROM kamai.snapshots WHERE stream_id = $1',
      [streamId],
    );
    const row = rows[0];
    return row ? { revision: Number(row.revision), version: row.version, state: JSON.parse(row.state) as Json } : null;
  }

  /** Every snapshot kept, as stored (verify-ledger checks that each opens). */
  async listSnapshots(): Promise<Array<StreamSnapshot & { streamId: string }>> {
    this.#assertOpen();
    await this.#ready;
    const { rows } = await this.#pool.query<{ stream_id: string; revision: string; version: number; state: string }>(
      'SELECT stream_id, revision, version, state::text AS state FROM kamai.snapshots ORDER BY stream_id',
    );
    return rows.map((row) => ({ streamId: row.stream_id, revision: Number(row.revision), version: row.version, state: JSON.parse(row.state) as Json }));
  }

  /** Keeps the snapshot unless a newer one (higher revision) of the same codec version is kept. */
  async writeSnapshot(streamId: string, snapshot: StreamSnapshot): Promise<void> {
    this.#assertOpen();
    await this.#ready;
    await this.#pool.query(
      `INSERT INTO kamai.snapshots (stream_id, revision, version, state) VALUES ($1, $2, $3, $4::json)
       ON CONFLICT (stream_id) DO UPDATE SET revision = excluded.revision, version = excluded.version, state = excluded.state
       WHERE excluded.revision > kamai.snapshots.revision OR excluded.version <> kamai.snapshots.version`,
      [streamId, snapshot.revision, snapshot.version, JSON.stringify(snapshot.state)],
    );
  }

  /** The log with its chain fields, below the line of running transactions (chain.ts). */
  async readChain(after: number, limit: number): Promise<ChainedEvent[]> {
    this.#assertOpen();
    assertPosition(after);
    const { rows } = await this.#readVisible<ChainRow>(READ_CHAIN_SQL, after, limit, true);
    return rows.map((row) => ({
      position: Number(row.position),
      streamId: row.stream_id,
      revision: Number(row.revision),
      type: row.type,
      data: row.data,
      metadata: row.metadata,
      hash: row.hash,
      prevHash: row.prev_hash,
      recordedAt: row.recorded_at.toISOString(),
    }));
  }

  /**
   * Each stream's recorded head, as of the readable log. A head moved by a transaction still held
   * back is not readable yet: the stream's newest readable event stands for it (the row lock orders
   * a stream's appends, so that is the head the held-back append moved on from).
   */
  async chainHeads(): Promise<ChainHead[]> {
    this.#assertOpen();
    await this.#ready;
    const { rows } = await this.#pool.query<{ stream_id: string; revision: string; hash: string }>(
      `WITH h AS (SELECT pg_snapshot_xmin(pg_current_snapshot()) AS xmin)
       SELECT s.stream_id, s.revision, s.hash FROM kamai.streams s, h WHERE s.transaction_id < h.xmin
       UNION ALL
       SELECT s.stream_id, r.revision, r.hash FROM kamai.streams s CROSS JOIN h CROSS JOIN LATERAL (
         SELECT e.revision, e.hash FROM kamai.events e WHERE e.stream_id = s.stream_id AND e.transaction_id < h.xmin ORDER BY e.revision DESC LIMIT 1
       ) r WHERE s.transaction_id >= h.xmin`,
    );
    return rows.map((row) => ({ streamId: row.stream_id, revision: Number(row.revision), hash: row.hash }));
  }

  async positionOf(streamId: string, revision: number): Promise<number | null> {
    this.#assertOpen();
    await this.#ready;
    const { rows } = await this.#pool.query<{ position: string }>('SELECT position FROM kamai.events WHERE stream_id = $1 AND revision = $2', [streamId, revision]);
    return rows[0] ? Number(rows[0].position) : null;
  }

  /** The log chain is computed over the readable log: from the newest checkpoint on, or from the start. */
  logHead(): Promise<LogLink | null> {
    return computedLogHead(this);
  }

  async listCheckpoints(): Promise<LedgerCheckpoint[]> {
    this.#assertOpen();
    await this.#ready;
    const { rows } = await this.#pool.query<{ position: string; hash: string; mac: string; recorded_at: string }>(
      'SELECT position, hash, mac, recorded_at FROM kamai.ledger_checkpoints ORDER BY position',
    );
    return rows.map((row) => ({ position: Number(row.position), hash: row.hash, mac: row.mac, recordedAt: row.recorded_at }));
  }

  /** Keeps a checkpoint; one already kept for that position stays as it is. */
  async recordCheckpoint(checkpoint: LedgerCheckpoint): Promise<void> {
    this.#assertOpen();
    await this.#ready;
    await this.#pool.query('INSERT INTO kamai.ledger_checkpoints (position, hash, mac, recorded_at) VALUES ($1, $2, $3, $4) ON CONFLICT (position) DO NOTHING', [
      checkpoint.position,
      checkpoint.hash,
      checkpoint.mac,
      checkpoint.recordedAt,
    ]);
  }

  async close(): Promise<void> {
    if (this.#closed) return;
    this.#closed = true;
    await Promise.all([...this.#subscriptions].map((subscription) => subscription.close()));
    const listener = this.#listener;
    this.#listener = null;
    this.#listening = false;
    if (listener) await listener.then((client) => client.end()).catch(() => {});
    await this.#ready.catch(() => {});
    await this.#pool.end();
  }

  /** @internal */
  get isClosed(): boolean {
    return this.#closed;
  }

  #assertOpen(): void {
    if (this.#closed) throw new Error('the event store is closed');
  }
}

/** Opens the store; its tables are created on first use if missing. */
export function openPostgresEventStore(connectionString: string, options?: PostgresEventStoreOptions): PostgresEventStore {
  return new PostgresEventStore(connectionString, options);
}

/**
 * Catch up, then live. Between reads it waits for a wake (a notification, or this process's own
 * append), a short while when a running transaction holds committed events back, or the fallback poll.
 */
class PostgresAllSubscription implements AllSubscription {
  readonly #store: PostgresEventStore;
  readonly #fallbackPollMs: number;
  readonly #forget: () => void;
  #after: number;
  #started = false;
  #closed = false;
  /** Set by wake(); cleared before each read, so a wake during a read is not lost. */
  #woken = false;
  #resume: (() => void) | null = null;

  constructor(store: PostgresEventStore, after: number, fallbackPollMs: number, forget: () => void) {
    this.#store = store;
    this.#after = after;
    this.#fallbackPollMs = fallbackPollMs;
    this.#forget = forget;
  }

  wake(): void {
    this.#woken = true;
    this.#resume?.();
  }

  [Symbol.asyncIterator](): AsyncIterator<RecordedEvent> {
    if (this.#started) throw new Error('a subscription can be iterated only once');
    this.#started = true;
    return this.#run();
  }

  async *#run(): AsyncGenerator<RecordedEvent> {
    try {
      while (!this.#closed) {
        this.#woken = false;
        const { events: batch, heldBack } = await this.#store.readForSubscription(this.#after);
        for (const recorded of batch) {
          if (this.#closed) return;
          this.#after = recorded.position;
          yield recorded;
        }
        if (batch.length === SUBSCRIPTION_BATCH || this.#closed) continue;
        // Committed events beyond what could be read: a running transaction holds them back, and
        // its end may notify nobody (another database's, or a node that died): look again soon.
        await this.#wait(heldBack ? HELD_BACK_MS : this.#fallbackPollMs);
      }
    } finally {
      await this.close();
    }
  }

  #wait(ms: number): Promise<void> {
    if (this.#woken || this.#closed) return Promise.resolve();
    return new Promise<void>((resolve) => {
      const timer = setTimeout(done, ms);
      function done(): void {
        clearTimeout(timer);
        resolve();
      }
      this.#resume = () => {
        this.#resume = null;
        done();
      };
    });
  }

  async close(): Promise<void> {
    if (this.#closed) return;
    this.#closed = true;
    this.#forget();
    this.#resume?.();
  }
}

function toRecordedEvent(row: EventRow): RecordedEvent {
  return {
    id: row.event_id,
    streamId: row.stream_id,
    revision: Number(row.revision),
    position: Number(row.position),
    type: row.type,
    data: JSON.parse(row.data) as Json,
    metadata: JSON.parse(row.metadata) as EventMetadata,
    recordedAt: row.recorded_at.toISOString(),
  };
}

/**
 * The streams a notification names: its payload is `[last position, stream, …]` (postgres-schema.ts),
 * with no streams when they would not fit. null when it names none, or is not that shape (a node of
 * an older version sends the position alone): the change is then taken to touch every stream.
 */
export function notifiedStreams(payload: string | undefined): string[] | null {
  try {
    const parsed: unknown = JSON.parse(payload ?? '');
    if (!Array.isArray(parsed) || parsed.length < 2) return null;
    const streams = parsed.slice(1);
    return streams.every((s): s is string => typeof s === 'string') ? streams : null;
  } catch {
    return null;
  }
}

function isUniqueViolation(error: unknown, constraint: string): boolean {
  return error instanceof pg.DatabaseError && error.code === UNIQUE_VIOLATION && error.constraint === constraint;
}

/** The id named by a unique violation of event_id ("Key (event_id)=(…) already exists."). */
function duplicatedId(error: unknown): string | undefined {
  return error instanceof pg.DatabaseError ? /\(event_id\)=\(([^)]+)\)/.exec(error.detail ?? '')?.[1] : undefined;
}

function assertPosition(after: number): void {
  if (!Number.isSafeInteger(after) || after < 0) throw new TypeError(`position ${after} must be a non-negative integer`);
}

/** The server process behind a connection (node-postgres keeps it from the start-up message). */
function backendOf(client: pg.PoolClient): number | null {
  return (client as pg.PoolClient & { processID?: number | null }).processID ?? null;
}
