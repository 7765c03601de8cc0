import { randomBytes } from 'node:crypto';
import type { EventStore, RecordedEvent } from '@kamai/domain';
import { sql } from 'kysely';
import { type ReadDbHandle, connectReadDb, readDbFileOf, sqliteConnectionOf, writeTransaction } from './db.ts';
import { type ProjectedEvent, type Projection, decodePage, openedFields, toProjectedEvent } from './projection.ts';
import { RowWriter, type Rows, type TableName } from './rows.ts';
import { createTables, indexSql, writeCheckpoint } from './tables.ts';
import { WAL_AUTOCHECKPOINT_PAGES, startWalCheckpointer } from './wal-checkpointer.ts';

/** A build whose heartbeat is older than this is taken to have died; another may take over. */
export const BUILD_STALE_MS = 30_000;

/**
 * The build connection's page cache. A build touches every page of its shadow tables' indexes again
 * and again (rows land by user, not in order); with them all in memory, each chunk reads none back.
 */
const BUILD_CACHE_KB = 256 * 1024;

/**
 * How long after the store last gained events a build keeps pausing between chunks: longer than a
 * live runner in another process takes to notice a commit and apply it. At its start a build
 * pauses only while a read model followed live is behind the store's head (its checkpoint).
 */
const QUIET_AFTER_MS = 1000;

/**
 * Events a build reads per page unless told. A page's decoded events stay alive until the last of
 * them is applied: at 5,000 they outlived the young generation, and collecting them in the old one
 * took about a fifth of a build's CPU; at 1,000 about half that.
 */
const DEFAULT_PAGE_EVENTS = 1000;

export interface BuildOptions {
  /** Events read from the store per call (default DEFAULT_PAGE_EVENTS). */
  batchSize?: number;
  /** How long one write transaction on the shadow tables may run before it lets other writers in. */
  chunkMs?: number;
  /**
   * Pause between chunks, so other processes' writers get the lock. Taken while the store gains
   * events and for QUIET_AFTER_MS after (the live runners write what the store gained), and at the
   * start while a read model followed live is behind the head; a store that has been quiet that
   * long, or whose every event the runners have written, gives nobody anything to write, and chunks
   * follow each other.
   */
  pauseMs?: number;
  signal?: AbortSignal;
  log?: (line: string) => void;
  /** Where the build reads its events (default: the store, on this thread; see ReadAhead). */
  readAhead?: ReadAhead;
}

/** A page of a build's events: the decoded events of the types its projections handle, in position order. */
export interface EventPage {
  events: ProjectedEvent[];
  /** The position read up to (events of other types are read, counted and left out). */
  position: number;
  /** How many events the store gave for it, left out ones included. */
  read: number;
}

/** The store's events after a position, page by page; `next` gives null once the store has no more. */
export interface EventPages {
  next(): Promise<EventPage | null>;
  close(): Promise<void>;
}

/**
 * Opens the pages a build reads: the events after `after`, of which those of `types` are decoded.
 * The default reads the store on this thread (readPages); an adapter may read and decode ahead of
 * the build elsewhere (apps/api reads a SQLite store on a thread of its own), leaving this thread
 * only the applying. `opened`: the sealed fields the build's projections read (openedFields: types
 * and `Type:path`s); a reader may leave shut a blob holding none of them (the default opens every
 * one, as the store does).
 */
export type ReadAhead = (after: number, types: ReadonlySet<string>, pageSize: number, opened: ReadonlySet<string>) => EventPages;

/** The store read on this thread, a page per call. */
export function readPages(store: Pick<EventStore, 'readAll'>): ReadAhead {
  return (after, types, pageSize) => {
    let position = after;
    return {
      async next() {
        const page = await store.readAll({ after: position, limit: pageSize });
        if (page.length === 0) return null;
        position = page.at(-1)!.position;
        return { events: decodePage(page, types), position, read: page.length };
      },
      async close() {},
    };
  };
}

export interface BuildResult {
  /** Events read from the store. */
  events: number;
  /** The position the swapped-in tables are at. */
  position: number;
  /** Until the new tables serve; the old ones are dropped after that, in chunks. */
  seconds: number;
}

/** Another process is building one of these read models right now. */
export class BuildInProgressError extends Error {}

const handledSets = new WeakMap<Projection, ReadonlySet<string>>();
/** The event types a projection handles, as a set (made once per projection). */
export function handledBy(projection: Projection): ReadonlySet<string> {
  let set = handledSets.get(projection);
  if (!set) handledSets.set(projection, (set = new Set(projection.handles)));
  return set;
}

/**
 * Applies `recorded` to those of `targets` that handle its type; validates the event only when one does.
 */
export function applyTo(rows: Rows, targets: readonly Projection[], recorded: RecordedEvent): void {
  let event: ReturnType<typeof toProjectedEvent> | undefined;
  for (const projection of targets) {
    if (!handledBy(projection).has(recorded.type)) continue;
    try {
      if (event === undefined) event = toProjectedEvent(recorded);
      if (event === null) return;
      projection.apply(rows, event);
    } catch (err) {
      throw new ProjectionFailure(projection.name, recorded, err);
    }
  }
}

/** One projection threw on one event: which, where, and why (`cause`), so the runner can park it alone. */
export class ProjectionFailure extends Error {
  readonly position: number;
  readonly eventType: string;

  constructor(
    readonly projection: string,
    recorded: Pick<RecordedEvent, 'type' | 'position'>,
    cause: unknown,
  ) {
    super(`${projection} could not apply ${recorded.type} at position ${recorded.position}: ${cause instanceof Error ? cause.message : String(cause)}`, { cause });
    this.position = recorded.position;
    this.eventType = recorded.type;
  }
}

/** Per event type, those of `projections` that handle it, in their order. */
function handlersByType(projections: readonly Projection[]): ReadonlyMap<string, readonly Projection[]> {
  const byType = new Map<string, Projection[]>();
  for (const projection of projections) {
    for (const type of handledBy(projection)) {
      const list = byType.get(type);
      if (list) list.push(projection);
      else byType.set(type, [projection]);
    }
  }
  return byType;
}

/**
 * Applies a decoded event to the projections that handle its type (`handlers`, from
 * handlersByType): one lookup per event rather than one per projection, for every event of a build.
 */
function applyDecoded(rows: Rows, handlers: ReadonlyMap<string, readonly Projection[]>, event: ProjectedEvent): void {
  const targets = handlers.get(event.type);
  if (targets === undefined) return;
  for (const projection of targets) {
    try {
      projection.apply(rows, event);
    } catch (err) {
      throw new ProjectionFailure(projection.name, event, err);
    }
  }
}

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

const tablesStartingWith = (conn: ReadDbHandle, prefix: string): string[] =>
  sqliteConnectionOf(conn)
    .prepare<[number, string], string>("SELECT name FROM sqlite_master WHERE type = 'table' AND substr(name, 1, ?) = ?")
    .pluck()
    .all(prefix.length, prefix);

/**
 * Drops the tables whose names start with `prefix` without holding the write lock for long. One DROP
 * of a big table frees all its pages in one transaction (about 1.5 s for the tables of a
 * 1,000,000-event build, every writer of the app waiting meanwhile), so the rows go first, in
 * transactions of about `chunkMs` with pauses between, and the then empty table is dropped.
 */
async function dropInChunks(conn: ReadDbHandle, names: readonly string[], options: { chunkMs: number; pauseMs: number }): Promise<void> {
  const sqlite = sqliteConnectionOf(conn);
  for (const name of names) {
    const quoted = `"${name.replaceAll('"', '""')}"`;
    try {
      const deleteSome = sqlite.prepare(`DELETE FROM ${quoted} WHERE rowid IN (SELECT rowid FROM ${quoted} LIMIT 2000)`);
      for (;;) {
        const emptied = await writeTransaction(conn, () => {
          const started = performance.now();
          do if (deleteSome.run().changes === 0) return true;
          while (performance.now() - started < options.chunkMs);
          return false;
        });
        if (emptied) break;
        await sleep(options.pauseMs);
      }
      await writeTransaction(conn, () => sqlite.exec(`DROP TABLE IF EXISTS ${quoted}`));
    } catch (err) {
      // Another build sweeping the same leftovers dropped it first.
      if (!/no such table/.test(String(err))) throw err;
    }
  }
}

/**
 * Builds these projections from position zero into shadow tables beside the live ones, then swaps
 * them in with one short transaction that first applies whatever the store gained meanwhile. Readers
 * see the old rows until the swap and the new ones after it, never an empty or half-built table. The
 * writes go in transactions of `chunkMs` on a connection of their own, so the live runner (and other
 * processes) keep writing between them. One pass over the store serves every projection given.
 */
export async function buildAside(
  db: ReadDbHandle,
  store: Pick<EventStore, 'readAll'> & Partial<Pick<EventStore, 'headPosition'>>,
  projections: readonly Projection[],
  options: BuildOptions = {},
): Promise<BuildResult> {
  const started = performance.now();
  const batchSize = options.batchSize ?? DEFAULT_PAGE_EVENTS;
  const chunkMs = options.chunkMs ?? 50;
  const pauseMs = options.pauseMs ?? 5;
  const log = options.log ?? (() => {});
  const generation = `${Date.now().toString(36)}${randomBytes(3).toString('hex')}`;
  const tables = projections.flatMap((p) => Object.keys(p.tables));
  // What the swap moves aside (and drops after): the live tables, and those of earlier versions that
  // this one no longer has.
  const replaced = [...tables, ...projections.flatMap((p) => p.retired ?? [])];
  const shadowOf = (table: string) => `${table}__r${generation}`;
  const file = readDbFileOf(db);
  // The build's commits never checkpoint on this event loop: a thread of its own does (the raised
  // threshold is only the safety net), as in the app's processes.
  const conn = connectReadDb(file, { cacheSizeKb: BUILD_CACHE_KB, walAutocheckpointPages: WAL_AUTOCHECKPOINT_PAGES, tempStoreMemory: true });
  const checkpointer = startWalCheckpointer([file]);
  const ours = new Set<string>(tables);
  const sqlite = sqliteConnectionOf(conn);
  // The shadows' secondary indexes, by table, until they are made: after the catch-up, as one
  // sorted CREATE INDEX each, rather than entry by entry in the order rows arrive (by user, all
  // over the index). One a projection's own statement would otherwise scan the table for is made
  // as soon as that statement is first prepared.
  const deferred = new Map<string, Array<{ index: string; columns: string }>>();
  for (const projection of projections) {
    for (const [table, spec] of Object.entries(projection.tables)) {
      const indexes = Object.entries(spec.indexes ?? {}).map(([index, columns]) => ({ index, columns }));
      if (indexes.length > 0) deferred.set(table, indexes);
    }
  }
  const createDeferred = (table: string, which: (columns: string) => boolean) => {
    const pending = deferred.get(table) ?? [];
    for (const { index, columns } of pending.filter((i) => which(i.columns))) sqlite.exec(indexSql(shadowOf(table), index, columns));
    const left = pending.filter((i) => !which(i.columns));
    if (left.length > 0) deferred.set(table, left);
    else deferred.delete(table);
  };
  const firstColumn = (columns: string) => columns.split(',')[0]!.trim().split(/\s+/)[0]!;
  // The projections write their tables' shadows; any other table (checkpoints) is the live one.
  const shadow = new RowWriter(sqlite, (table: TableName) => (ours.has(table) ? shadowOf(table) : table), {
    writeBehind: true,
    beforeConditionPrepared(table, text, columns) {
      if (!deferred.has(table)) return;
      // The plan only: any value binds (rows.ts puts no '?' in names).
      const plan = sqlite.prepare<unknown[], { detail: string }>(`EXPLAIN QUERY PLAN ${text}`).all(...text.split('?').slice(1).map(() => null));
      if (plan.some((step) => step.detail.startsWith('SCAN'))) createDeferred(table, (index) => columns.includes(firstColumn(index)));
    },
  });
  let claimed = false;
  let pages: EventPages | undefined;
  try {
    // Opened first: a reader on another thread starts up while this one claims the build.
    const source = (pages = (options.readAhead ?? readPages(store))(0, new Set(projections.flatMap((p) => p.handles)), batchSize, openedFields(projections)));
    const leftovers = await writeTransaction(conn, async (trx) => {
      const now = Date.now();
      const claims = await trx.selectFrom('projection_builds').selectAll().where('name', 'in', projections.map((p) => p.name)).execute();
      const alive = claims.filter((c) => now - c.heartbeat_at < BUILD_STALE_MS);
      if (alive.length > 0) throw new BuildInProgressError(`a rebuild of ${alive.map((c) => c.name).join(', ')} is already running`);
      for (const projection of projections) {
        await trx
          .insertInto('projection_builds')
          .values({ name: projection.name, version: projection.version, generation, heartbeat_at: now })
          .onConflict((oc) => oc.column('name').doUpdateSet({ version: projection.version, generation, heartbeat_at: now }))
          .execute();
        await createTables(trx, projection, shadowOf, { withoutIndexes: true });
      }
      // What builds before left: the shadows of one that died or failed (this build holds the claims
      // now, so no other shadow of these tables is in use), and tables a swap did not get to drop.
      // Named here, dropped in chunks once the claims are this build's.
      return replaced.flatMap((t) => [
        ...tablesStartingWith(trx, `${t}__r`).filter((name) => name !== shadowOf(t)),
        ...tablesStartingWith(trx, `${t}__old`),
      ]);
    });
    claimed = true;
    await dropInChunks(conn, leftovers, { chunkMs, pauseMs });

    const handlers = handlersByType(projections);
    // Every chunk's, prepared once (a Kysely query is compiled anew each time). The claims are all this generation's.
    const heartbeat = sqlite.prepare<[number, string]>('UPDATE projection_builds SET heartbeat_at = ? WHERE generation = ?');
    let position = 0;
    let events = 0;
    // The page being applied and how far into it the build is (a chunk usually ends inside a page,
    // and the next one goes on from there), and the page after it, asked for meanwhile.
    let page: EventPage | null = null;
    let next = 0;
    let applied = 0;
    let coming!: Promise<EventPage | null>;
    let arrived = false;
    const askForNext = () => {
      arrived = false;
      coming = source.next();
      coming.then(
        () => (arrived = true),
        () => (arrived = true),
      );
    };
    askForNext();
    const pageDone = () => page === null || next >= page.events.length;
    /** Applies events after `position` for up to `budgetMs`; true once the store has no more. */
    const chunk = (budgetMs: number) =>
      writeTransaction(conn, async () => {
        const chunkStarted = performance.now();
        let drained = false;
        // The budget is checked every 64 events: a chunk holds the write lock, and in this process
        // the event loop, for about budgetMs and no longer.
        for (;;) {
          const current: EventPage | null = page;
          if (current === null || next >= current.events.length) {
            if (current !== null) position = current.position;
            // A page not read yet is waited for outside the lock (see below), never inside it.
            if (!arrived) break;
            page = await coming;
            next = 0;
            if (page === null) {
              drained = true;
              break;
            }
            events += page.read;
            askForNext();
            // Also between pages: a run of pages with nothing to apply still holds the lock.
            if (performance.now() - chunkStarted >= budgetMs) break;
            continue;
          }
          const event = current.events[next++]!;
          applyDecoded(shadow, handlers, event);
          position = event.position;
          if ((++applied & 63) === 0 && performance.now() - chunkStarted >= budgetMs) break;
        }
        shadow.flush();
        heartbeat.run(Date.now(), generation);
        return drained;
      });

    let lastLog = performance.now();
    // Without a head to watch, every chunk is followed by a pause.
    const headNow = () => store.headPosition?.() ?? Promise.resolve(undefined);
    let head = await headNow();
    // Pauses are for runners with events of the store to write. At the start, that is a read model
    // followed live and behind the head: a checkpoint past zero (a model at zero is built aside,
    // never followed: Runner.start). With none (a first build, a restore's, every runner caught up),
    // chunks follow each other until the store gains events.
    const followerBehind =
      head === undefined ||
      (await conn.selectFrom('checkpoints').select('name').where('position', '>', 0).where('position', '<', head).limit(1).executeTakeFirst()) !== undefined;
    let gainedAt = followerBehind ? performance.now() : Number.NEGATIVE_INFINITY;
    for (;;) {
      if (pageDone() && !arrived) await coming.catch(() => {}); // its error is thrown in the chunk
      if (await chunk(chunkMs)) break;
      options.signal?.throwIfAborted();
      if (performance.now() - lastLog > 5000) {
        lastLog = performance.now();
        log(`building ${projections.map((p) => p.name).join(', ')}: ${events} events so far`);
      }
      const now = await headNow();
      if (now !== head || now === undefined) {
        head = now;
        gainedAt = performance.now();
      }
      // When quiet, this thread's own writers (queued on the file's lock) still get their turn.
      await (performance.now() - gainedAt < QUIET_AFTER_MS ? sleep(pauseMs) : new Promise((resolve) => setImmediate(resolve)));
    }
    await source.close();
    options.signal?.throwIfAborted();
    // The indexes put off, one transaction each: each holds other writers of the file for its sort.
    for (const [table, indexes] of [...deferred]) {
      for (const { index, columns } of indexes) {
        await writeTransaction(conn, () => sqlite.exec(indexSql(shadowOf(table), index, columns)));
        options.signal?.throwIfAborted();
      }
      deferred.delete(table);
    }

    // The swap: the last events, then every table renamed, the checkpoints moved, the claims dropped.
    await writeTransaction(conn, async (trx) => {
      const mine = await trx.selectFrom('projection_builds').select('name').where('generation', '=', generation).execute();
      if (mine.length !== projections.length) throw new BuildInProgressError('another process took this rebuild over');
      for (;;) {
        const batch = await store.readAll({ after: position, limit: batchSize });
        if (batch.length === 0) break;
        for (const recorded of batch) applyTo(shadow, projections, recorded);
        position = batch.at(-1)!.position;
        events += batch.length;
      }
      shadow.flush();
      // An old table with rows is renamed aside, dropped after the swap a chunk at a time; an empty
      // one (a first build, a restore's) is dropped here: a rename re-reads the whole schema, about
      // three times a drop's cost, and a drop of an empty table frees nothing.
      for (const table of replaced) {
        const rows = await sql<{ one: number }>`SELECT 1 AS one FROM ${sql.table(table)} LIMIT 1`.execute(trx).catch((err: unknown) => {
          if (/no such table/.test(String(err))) return null;
          throw err;
        });
        if (rows === null) continue;
        if (rows.rows.length === 0) await sql`DROP TABLE ${sql.table(table)}`.execute(trx);
        else await sql`ALTER TABLE ${sql.table(table)} RENAME TO ${sql.table(`${table}__old${generation}`)}`.execute(trx);
      }
      for (const table of tables) await sql`ALTER TABLE ${sql.table(shadowOf(table))} RENAME TO ${sql.table(table)}`.execute(trx);
      for (const projection of projections) writeCheckpoint(shadow, projection.name, projection.version, position);
      // Rebuilt from every event without failing: a model parked at one of them serves again.
      await trx.deleteFrom('parked_read_models').where('name', 'in', projections.map((p) => p.name)).execute();
      await trx.deleteFrom('projection_builds').where('generation', '=', generation).execute();
    });
    claimed = false;
    const seconds = (performance.now() - started) / 1000;
    // After readers have the new tables: the old ones, a chunk at a time.
    await dropInChunks(
      conn,
      replaced.flatMap((t) => tablesStartingWith(conn, `${t}__old${generation}`)),
      { chunkMs, pauseMs },
    );
    return { events, position, seconds };
  } catch (err) {
    if (claimed) {
      // The claims go first, in one short transaction; then the shadows, a chunk at a time like any
      // leftover (one DROP of a big shadow would hold every writer for a second or more). Should this
      // process die meanwhile, the next build of these models sweeps what is left.
      try {
        await writeTransaction(conn, (trx) => trx.deleteFrom('projection_builds').where('generation', '=', generation).execute());
        await dropInChunks(
          conn,
          tables.flatMap((t) => tablesStartingWith(conn, shadowOf(t))),
          { chunkMs, pauseMs },
        );
      } catch {
        // The build's own error is the one to report; what is left is swept by the next build.
      }
    }
    throw err;
  } finally {
    await pages?.close();
    await conn.destroy();
    await checkpointer.stop();
  }
}

/**
 * Rebuilds these read models (every one by default) from the whole store, aside, and swaps them in;
 * the app on the same data keeps answering from the old rows meanwhile. `npm run cli --
 * rebuild-read-models [name]`.
 */
export async function rebuildReadModels(
  db: ReadDbHandle,
  store: Pick<EventStore, 'readAll'> & Partial<Pick<EventStore, 'headPosition'>>,
  projections: readonly Projection[],
  options: BuildOptions = {},
): Promise<BuildResult> {
  return buildAside(db, store, projections, options);
}
