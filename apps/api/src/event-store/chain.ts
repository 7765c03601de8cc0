import { createHmac, hash, timingSafeEqual } from 'node:crypto';
import { capability, type ChainContent, type ChainHead, type ChainSource, type ChainedEvent, type CheckpointStore, type EventStore, type LedgerCheckpoint, type LogLink, type RecordedLogEnd } from '@kamai/domain';

// The chain's shapes are part of the port's capabilities (domain); their callers import them from here too.
export type { ChainContent, ChainHead, ChainSource, ChainedEvent, CheckpointStore, LedgerCheckpoint, LogLink };

/**
 * Tamper evidence: every event carries a hash of its stream id, revision, type, data and
 * metadata (as stored) chained to the hash of the stream's previous event, and each store keeps
 * the head (last revision and hash) of every stream, written with the append, or, where every
 * event also keeps its log link (the embedded store), the log's end. A changed, removed, inserted
 * or reordered event breaks a link; removing a stream's newest events leaves its head (or the next
 * event's log link, or the log's end) pointing past them. Every adapter chains the same way;
 * `verifyChain` walks any.
 *
 * Per-stream chains alone can be rewritten quietly (drop a whole stream with its head, truncate one
 * and fix its head, rechain an edited one), so a second chain runs through the whole log in log
 * order: each event's log hash covers the previous event's log hash and position and its own
 * position and stream hash. The embedded store keeps that link with every transaction: on a row
 * committed alone, or, for a group commit's rows, one digest over all of them on the last
 * (batchLogHashOf); on KurrentDB and PostgreSQL it is computed over the log's order. Neither has a
 * secret, so the server also records checkpoints of the log's head signed with LEDGER_SIGNING_KEY
 * (kept outside DATA_DIR): a rewrite of anything a checkpoint covers no longer matches it, and no
 * one without the key can sign a new one.
 */

export function chainHash(previous: string | null, event: ChainContent): string {
  return chainHashOf(previous, JSON.stringify(event.streamId), event.revision, chainRest(event.type, event.data, event.metadata));
}

/**
 * The stream chain's input after the revision: the part that does not depend on where the event
 * lands, so an append encodes it before taking the write lock, which is then held for one
 * concatenation and the digest. chainHashOf over it is chainHash's exact input: the JSON of the
 * array, its elements joined by commas.
 */
export function chainRest(type: string, data: string, metadata: string): string {
  return `${JSON.stringify(type)},${JSON.stringify(data)},${JSON.stringify(metadata)}]`;
}

/**
 * chainHash, given its stream id as JSON and its chainRest.
 *
 * The hashes it takes in (`previous` here, both in logHashOf) are this module's own hex digests or
 * '': JSON writes such a string as itself between quotes, so they go in without JSON.stringify, the
 * same bytes (pinned by chain.int.spec.ts) for about 0.6 µs less per appended event. Where one comes
 * from a file, verifyChain uses it only once it matched the digest it recomputed.
 */
export function chainHashOf(previous: string | null, streamJson: string, revision: number, rest: string): string {
  // A one-shot digest: createHash's object cost about twice the hashing of these few hundred bytes.
  return hash('sha256', `["${previous ?? ''}",${streamJson},${revision},${rest}`, 'hex');
}

/**
 * The stream hash as the embedded store writes it (since 2026-11-30): over the event's type as JSON
 * and its data and metadata as stored, not encoded again as JSON strings (that cost about 0.6 µs of
 * the append's CPU), the data's length before it so that where it ends and the metadata begins is
 * fixed. In base64, which tells it from chainHash's hex: verifyChain checks each event by the form
 * it carries (streamHashFor), so a log keeps its older rows as they are.
 */
export function storedContentHashOf(previous: string | null, streamJson: string, revision: number, rest: string): string {
  return hash('sha256', `["${previous ?? ''}",${streamJson},${revision},${rest}`, 'base64');
}

/** storedContentHashOf's input after the revision, encoded before the write lock is taken. */
export function storedContentRest(type: string, data: string, metadata: string): string {
  return `${JSON.stringify(type)},${data.length},${data},${metadata}]`;
}

/** A SHA-256 in base64: storedContentHashOf's form. */
const BASE64_HASH_LENGTH = 44;

/** The stream hash `event` must carry after `previous`, in the form `stored` (the one it carries) is in. */
export function streamHashFor(stored: string, previous: string | null, event: ChainContent): string {
  return stored.length === BASE64_HASH_LENGTH
    ? storedContentHashOf(previous, JSON.stringify(event.streamId), event.revision, storedContentRest(event.type, event.data, event.metadata))
    : chainHash(previous, event);
}

/** The log hash of the event at `position` whose stream hash is `streamHash`, after `previous`. */
export function logHash(previous: LogLink | null, position: number, streamHash: string): string {
  return logHashOf(previous?.position ?? 0, previous?.hash ?? '', position, streamHash);
}

/** logHash, given the previous link's position and hash (0 and '' when there is none); hex hashes as in chainHashOf. */
export function logHashOf(previousPosition: number, previousHash: string, position: number, streamHash: string): string {
  return hash('sha256', `["log",${previousPosition},"${previousHash}",${position},"${streamHash}"]`, 'hex');
}

/**
 * The one log link of a batch of rows written together (the embedded store's group commit), on its
 * last row: `rows` holds each row's position and stream hash by turns, in log order. A batch of one
 * row is linked as logHashOf links any event, so a log of such rows is the per-event chain; a batch
 * of more is linked by one digest over all of them, rather than one per row.
 */
export function batchLogHashOf(previousPosition: number, previousHash: string, rows: ReadonlyArray<number | string>): string {
  if (rows.length === 2) return logHashOf(previousPosition, previousHash, rows[0] as number, rows[1] as string);
  let text = `["log-batch",${previousPosition},"${previousHash}"`;
  for (let i = 0; i < rows.length; i += 2) text += `,${rows[i] as number},"${rows[i + 1] as string}"`;
  return hash('sha256', `${text}]`, 'hex');
}

export function checkpointMac(key: Uint8Array, head: LogLink): string {
  return createHmac('sha256', key).update(JSON.stringify(['kamai-ledger-head', head.position, head.hash])).digest('hex');
}

function macMatches(key: Uint8Array, head: LogLink, mac: string): boolean {
  const expected = Buffer.from(checkpointMac(key, head), 'hex');
  const given = Buffer.from(mac, 'hex');
  return given.length === expected.length && timingSafeEqual(given, expected);
}

/** A head as the operator keeps it: `position:hash` or, signed, `position:hash:mac`. */
export interface KeptHead extends LogLink {
  mac: string | null;
}

export function formatHead(head: KeptHead): string {
  return [head.position, head.hash, ...(head.mac ? [head.mac] : [])].join(':');
}

/** Parses a kept head; null when it is not `position:hash[:mac]`. */
export function parseHead(text: string): KeptHead | null {
  const match = /^(\d{1,16}):([0-9a-f]{64})(?::([0-9a-f]{64}))?$/.exec(text.trim());
  if (!match) return null;
  return { position: Number(match[1]), hash: match[2]!, mac: match[3] ?? null };
}

/**
 * The log's head for a store that keeps no per-event log link (KurrentDB, PostgreSQL): the log chain
 * computed over the log's order, from the newest checkpoint on, or from the start.
 */
export async function computedLogHead(store: ChainSource & Pick<CheckpointStore, 'listCheckpoints'>): Promise<LogLink | null> {
  let link: LogLink | null = (await store.listCheckpoints()).at(-1) ?? null;
  for (let after = link?.position ?? 0; ; ) {
    const batch = await store.readChain(after, 2000);
    if (batch.length === 0) return link;
    for (const e of batch) link = { position: e.position, hash: logHash(link, e.position, e.hash ?? '') };
    after = batch.at(-1)?.position ?? after;
  }
}

/** The store's chain; throws when its adapter keeps none (every adapter here does). */
export function chainOf(store: EventStore): ChainSource {
  const chain = capability(store, 'chain');
  if (!chain) throw new Error('this event store keeps no hash chain and cannot be verified');
  return chain;
}

/** The store's signed checkpoints; throws when its adapter keeps none. */
export function checkpointsOf(store: EventStore): CheckpointStore {
  const checkpoints = capability(store, 'checkpoints');
  if (!checkpoints) throw new Error('this event store keeps no signed checkpoints');
  return checkpoints;
}

/** `unreadable`: the chain holds, but an event's sealed personal data does not open with its subject's key (privacy/sealing.ts). */
export type ChainProblem = 'changed' | 'removed' | 'inserted' | 'reordered' | 'unsigned' | 'unreadable';

export interface ChainFailure {
  streamId: string;
  position: number;
  revision: number | null;
  problem: ChainProblem;
  detail: string;
}

export interface ChainVerdict {
  ok: boolean;
  events: number;
  /** Log hash of the newest event in the log (the log's head). */
  headHash: string | null;
  headPosition: number;
  failure: ChainFailure | null;
  /**
   * The signed checkpoints met: how many, the newest one's position, and whether their MACs were
   * checked; with a witness, the position of the newest checkpoint it holds (null: none yet).
   */
  checkpoints: { count: number; latestPosition: number | null; macsChecked: boolean; witnessLatestPosition?: number | null };
}

/** A place the log must run through: a checkpoint (from the store or the witness) or a kept head. */
export interface ChainMark extends LogLink {
  /** How the failure names it: "the signed checkpoint of position 12 (…)". */
  what: string;
}

/** Stands for the log as a whole where a break belongs to no stream (its end). */
const LOG = '(log)';

/**
 * A walk of the log, oldest first, checking both chains and the marks it must run through, that can
 * be taken further as the log grows: verify-ledger walks once, a server signing checkpoints keeps
 * its walk and goes on from where it stopped, so what it signs is the head it computed itself from
 * every event, never a hash read back from a file someone may have rewritten.
 */
export class ChainWalk {
  readonly #source: ChainSource;
  readonly #batchSize: number;
  readonly #last = new Map<string, { revision: number; hash: string; position: number }>();
  /** Marks not reached yet, sorted before each walk (a server starts with every checkpoint kept). */
  #marks: ChainMark[] = [];
  #sorted = true;
  #link: LogLink | null = null;
  #lastStream = LOG;
  #events = 0;
  /** The position a walk begun at a checkpoint began after (0: it began at the log's start). */
  #start = 0;

  constructor(source: ChainSource, batchSize = 2000) {
    this.#source = source;
    this.#batchSize = batchSize;
  }

  /** Events walked so far. */
  get events(): number {
    return this.#events;
  }

  /** The log's head as walked (its position and log hash), null before the first event. */
  get head(): LogLink | null {
    return this.#link;
  }

  /** Each stream's last event walked, for the check against the recorded heads. */
  get streams(): ReadonlyMap<string, { revision: number; hash: string; position: number }> {
    return this.#last;
  }

  /**
   * Adds a place the log must run through. One at or before where the walk already is cannot be
   * checked any more: false (only one exactly at the walked head is compared, and it must match).
   */
  expect(mark: ChainMark): ChainFailure | null | false {
    const walked = this.#link?.position ?? 0;
    if (mark.position < walked) return false;
    if (mark.position === walked && this.#link) {
      return mark.hash === this.#link.hash
        ? null
        : { streamId: this.#lastStream, position: walked, revision: null, problem: 'changed', detail: `the log up to here no longer matches ${mark.what}` };
    }
    this.#marks.push(mark);
    this.#sorted = false;
    return null;
  }

  /** The first mark the log has not reached yet, if any. */
  get pendingMark(): ChainMark | null {
    this.#sort();
    return this.#marks[0] ?? null;
  }

  #sort(): void {
    if (!this.#sorted) this.#marks.sort((a, b) => a.position - b.position);
    this.#sorted = true;
  }

  /**
   * Begins the walk at a signed checkpoint instead of the log's start, taking the log up to it as
   * the checkpoint says: the event at its position must be there (with the checkpoint's log hash,
   * where the store keeps one per event), and each stream's event before it is read when the walk
   * first meets the stream. Only before the first advance.
   */
  async startAt(mark: ChainMark): Promise<ChainFailure | null> {
    if (this.#link) throw new Error('a walk can only be started at a checkpoint before it has walked');
    const at = await this.#eventAt(mark.position);
    if (!at) {
      return fail(LOG, mark.position, null, 'removed', `the event at position ${mark.position}, named by ${mark.what}, is missing`);
    }
    if (at.logHash !== undefined && at.logHash !== mark.hash) {
      return fail(at.streamId, at.position, at.revision, 'changed', `the log up to here no longer matches ${mark.what}`);
    }
    this.#link = { position: mark.position, hash: mark.hash };
    this.#lastStream = at.streamId;
    this.#start = mark.position;
    return null;
  }

  /** The event at exactly this position, if the log has one. */
  async #eventAt(position: number): Promise<ChainedEvent | null> {
    const [event] = await this.#source.readChain(position - 1, 1);
    return event?.position === position ? event : null;
  }

  /** A stream's event before the first one walked after a checkpoint start: the link it must extend, or why there is none. */
  async #linkBefore(event: ChainedEvent): Promise<{ revision: number; hash: string; position: number } | ChainFailure> {
    const revision = event.revision - 1;
    const position = await this.#source.positionOf(event.streamId, revision);
    // Anything after the start would have been walked already, so it comes after this event.
    if (position === null || position > this.#start) {
      return position === null
        ? fail(event.streamId, event.position, revision, 'removed', `revision ${revision} is missing before position ${event.position}`)
        : fail(event.streamId, event.position, event.revision, 'reordered', `revision ${event.revision} comes before revision ${revision}`);
    }
    const before = await this.#eventAt(position);
    if (!before || before.hash === null) {
      return fail(event.streamId, event.position, revision, 'removed', `revision ${revision} is missing before position ${event.position}`);
    }
    return { revision, hash: before.hash, position };
  }

  /**
   * Walks to the log's current end, or stops once it has walked at least `maxEvents` (a batch's
   * worth at a time, and never inside a group commit's rows: their link is on the last); the first
   * break found, or null. `observe` sees each event walked.
   */
  async advance(observe?: (event: ChainedEvent) => void, maxEvents = Number.POSITIVE_INFINITY): Promise<ChainFailure | null> {
    this.#sort();
    for (let walked = 0; walked < maxEvents || this.#batch.length > 0; ) {
      // After the last row walked: the last one waiting for its link, or the last link.
      const after = this.#batch.at(-1)?.position ?? this.#link?.position ?? 0;
      const batch = await this.#source.readChain(after, walked < maxEvents ? Math.min(this.#batchSize, maxEvents - walked) : this.#batchSize);
      if (batch.length === 0) {
        // Rows after the last link that no row links: a batch is written whole, its link with it.
        const unlinked = this.#batch[0];
        return unlinked ? fail(unlinked.streamId, unlinked.position, unlinked.revision, 'inserted', "this event is not linked into the log's chain") : null;
      }
      walked += batch.length;
      for (const event of batch) {
        let previous = this.#last.get(event.streamId);
        if (!previous && this.#start > 0 && event.revision > 0) {
          const before = await this.#linkBefore(event);
          if ('problem' in before) return before;
          previous = before;
        }
        const expected = previous ? previous.revision + 1 : 0;
        if (event.revision > expected) {
          const later = await this.#source.positionOf(event.streamId, expected);
          return later !== null && later > event.position
            ? fail(event.streamId, event.position, event.revision, 'reordered', `revision ${event.revision} comes before revision ${expected}`)
            : fail(event.streamId, event.position, expected, 'removed', `revision ${expected} is missing before position ${event.position}`);
        }
        if (event.revision < expected) {
          return fail(event.streamId, event.position, event.revision, 'reordered', `revision ${event.revision} comes after revision ${expected - 1}`);
        }
        // The stored previous hash, where the store keeps one (the embedded store's rows no longer do:
        // the hash below covers the previous one), must be the stream's previous event's.
        if (event.hash === null || (event.prevHash !== null && event.prevHash !== (previous?.hash ?? null))) {
          return fail(event.streamId, event.position, event.revision, 'inserted', 'this event does not link to the one before it in its stream');
        }
        if (streamHashFor(event.hash, previous?.hash ?? null, event) !== event.hash) {
          return fail(event.streamId, event.position, event.revision, 'changed', 'its content no longer matches its hash');
        }
        this.#last.set(event.streamId, { revision: event.revision, hash: event.hash, position: event.position });
        this.#events += 1;
        observe?.(event);
        // The log's chain: this event after the one before it in the log, whatever its stream.
        if (event.logHash === undefined) {
          // Computed (the store keeps no link): one per event.
          const linked = logHash(this.#link, event.position, event.hash);
          const broken = this.#passMarks(event, linked, this.#link?.position ?? 0);
          if (broken) return broken;
          this.#linked(event, linked);
        } else if (event.logHash === null) {
          // A row of a group commit before its last, which links them all; or one slipped in (no row links it).
          if (this.#batch.length >= MAX_UNLINKED_ROWS) {
            const first = this.#batch[0]!;
            return fail(first.streamId, first.position, first.revision, 'inserted', `no link of the log's chain covers the ${this.#batch.length} events from here on: the store links every ${MAX_UNLINKED_ROWS} at the most`);
          }
          this.#batch.push({ position: event.position, streamId: event.streamId, revision: event.revision, hash: event.hash });
        } else {
          const broken = this.#closeBatch(event, event.hash);
          if (broken) return broken;
        }
      }
    }
    return null;
  }

  /** Rows walked since the last link, waiting for the row that links them (a group commit's last). */
  #batch: UnlinkedRow[] = [];

  /**
   * Checks the stored log link of `event` (the last row of a group commit: its own, and the rows of
   * #batch before it), and the marks it passes.
   */
  #closeBatch(event: ChainedEvent, hash: string): ChainFailure | null {
    const members = this.#batch;
    const before = this.#link?.position ?? 0;
    const logPrev = event.logPrev ?? 0;
    if (logPrev > before) {
      // Its batch begins after a row that is missing, or after one of the rows walked as its own whose link was taken off.
      const stripped = members.find((m) => m.position === logPrev);
      return stripped
        ? fail(stripped.streamId, stripped.position, stripped.revision, 'inserted', "this event is not linked into the log's chain")
        : fail(event.streamId, event.position, event.revision, 'removed', `the event before it in the log, at position ${logPrev}, is missing`);
    }
    if (logPrev < before) {
      return fail(this.#lastStream, before, null, 'inserted', `the event at position ${before} is not in the log's chain: the next one links past it`);
    }
    let linked: string;
    if (members.length === 0) {
      linked = logHash(this.#link, event.position, hash);
    } else {
      // A group commit's rows take the positions after the link before it, one after another.
      const rows: Array<number | string> = [];
      let position = before;
      for (const row of [...members, { position: event.position, streamId: event.streamId, revision: event.revision, hash }]) {
        position += 1;
        if (row.position !== position) {
          return fail(row.streamId, row.position, row.revision, 'removed', `the event before it in the log, at position ${position}, is missing`);
        }
        rows.push(row.position, row.hash);
      }
      linked = batchLogHashOf(before, this.#link?.hash ?? '', rows);
    }
    if (event.logHash !== linked) {
      const detail =
        members.length === 0
          ? "it no longer matches the log's chain (its stream was rechained, or an event before it changed)"
          : `it links the events at positions ${before + 1} to ${event.position}, which no longer match its link (a stream among them was rechained, or an event changed)`;
      return fail(event.streamId, event.position, event.revision, 'changed', detail);
    }
    const broken = this.#passMarks(event, linked, before);
    if (broken) return broken;
    this.#batch = [];
    this.#linked(event, linked);
    return null;
  }

  /** The marks up to `event`, now linked as `linked` after the link at `before`: each must be that link. */
  #passMarks(event: ChainedEvent, linked: string, before: number): ChainFailure | null {
    while (this.#marks.length > 0 && this.#marks[0]!.position <= event.position) {
      const mark = this.#marks.shift()!;
      if (mark.position < event.position) {
        // A mark between two links: on a row of a group commit before its last, which no checkpoint names.
        return mark.position > before && this.#batch.some((row) => row.position === mark.position)
          ? fail(event.streamId, mark.position, null, 'changed', `the log up to here no longer matches ${mark.what}: that event is no longer where the log's chain is linked`)
          : fail(event.streamId, mark.position, null, 'removed', `the event at position ${mark.position}, named by ${mark.what}, is missing`);
      }
      if (mark.hash !== linked) {
        return fail(event.streamId, event.position, event.revision, 'changed', `the log up to here no longer matches ${mark.what}: an event at or before it was changed, removed or rechained`);
      }
    }
    return null;
  }

  #linked(event: ChainedEvent, linked: string): void {
    this.#link = { position: event.position, hash: linked };
    this.#lastStream = event.streamId;
  }
}

/** A row walked that its group commit's last row links: what the link covers, and how a failure names it. */
interface UnlinkedRow {
  position: number;
  streamId: string;
  revision: number;
  hash: string;
}

/**
 * The most rows a walk holds waiting for the row that links them: the embedded store links a batch
 * at least every 10,000 rows between its appends (sqlite-writer.ts), so only one append of that
 * many events comes near it; more is a log whose links were taken off.
 */
const MAX_UNLINKED_ROWS = 1_000_000;

function fail(streamId: string, position: number, revision: number | null, problem: ChainProblem, detail: string): ChainFailure {
  return { streamId, position, revision, problem, detail };
}

export interface VerifyOptions {
  /** LEDGER_SIGNING_KEY: checks the checkpoints' MACs (and a kept head's). Without it only their hashes are compared. */
  signingKey?: Uint8Array | null;
  /** A head the operator kept (ledger-head): the log must still run through it. */
  head?: KeptHead | null;
  /**
   * The witness's newest checkpoint (LEDGER_WITNESS), kept outside DATA_DIR: the log must still run
   * through it, whatever the store's own checkpoints table holds. undefined: no witness configured.
   */
  witnessed?: LedgerCheckpoint | null;
  /**
   * With the key: events recorded more than `graceMs` before `now` must be covered by a signed
   * checkpoint, and a log with events must have one at all (a server with the key signs its head
   * every interval, so an uncovered old event means checkpoints were removed or never made).
   */
  coverage?: { now: Date; graceMs: number };
  batchSize?: number;
}

/** Checks a signed checkpoint's MAC; the failure when it is not signed with the key. */
export function checkpointSignatureProblem(key: Uint8Array, checkpoint: LedgerCheckpoint, where: string): ChainFailure | null {
  return macMatches(key, checkpoint, checkpoint.mac)
    ? null
    : {
        streamId: LOG,
        position: checkpoint.position,
        revision: null,
        problem: 'inserted',
        detail: `the checkpoint of position ${checkpoint.position} recorded at ${checkpoint.recordedAt}${where} is not signed with LEDGER_SIGNING_KEY`,
      };
}

/** Walks the whole log, oldest first, and reports the first place its chain breaks. */
export async function verifyChain(store: EventStore, options: VerifyOptions = {}): Promise<ChainVerdict> {
  const key = options.signingKey ?? null;
  const source = chainOf(store);
  const walk = new ChainWalk(source, options.batchSize);
  const checkpoints = capability(store, 'checkpoints');
  const listed = checkpoints ? await checkpoints.listCheckpoints() : [];
  const witnessed = options.witnessed;
  const checkpointSummary: ChainVerdict['checkpoints'] = {
    count: listed.length,
    latestPosition: listed.at(-1)?.position ?? null,
    macsChecked: key !== null,
    ...(witnessed !== undefined && { witnessLatestPosition: witnessed?.position ?? null }),
  };
  const verdict = (failure: ChainFailure | null): ChainVerdict => ({
    ok: failure === null,
    events: walk.events,
    headHash: walk.head?.hash ?? null,
    headPosition: walk.head?.position ?? 0,
    failure,
    checkpoints: checkpointSummary,
  });

  // What the log must run through: every signed checkpoint, the witness's newest, and the head the operator kept.
  const signed: Array<{ checkpoint: LedgerCheckpoint; where: string; what: string }> = listed.map((checkpoint) => ({
    checkpoint,
    where: '',
    what: `the signed checkpoint of position ${checkpoint.position} (recorded at ${checkpoint.recordedAt})`,
  }));
  if (witnessed) {
    signed.push({
      checkpoint: witnessed,
      where: ' in the witness',
      what: `the witness's checkpoint of position ${witnessed.position} (recorded at ${witnessed.recordedAt})`,
    });
  }
  for (const { checkpoint, where, what } of signed) {
    const unsigned = key ? checkpointSignatureProblem(key, checkpoint, where) : null;
    if (unsigned) return verdict(unsigned);
    walk.expect({ position: checkpoint.position, hash: checkpoint.hash, what });
  }
  const kept = options.head ?? null;
  if (kept) {
    if (kept.mac && key && !macMatches(key, kept, kept.mac)) {
      return verdict({ streamId: LOG, position: kept.position, revision: null, problem: 'changed', detail: 'the head given was not signed with this LEDGER_SIGNING_KEY (mistyped, or signed with another key)' });
    }
    walk.expect({ position: kept.position, hash: kept.hash, what: `the head you kept (position ${kept.position})` });
  }

  // The oldest event no signed checkpoint covers.
  const coveredThrough = Math.max(0, ...signed.map((s) => s.checkpoint.position));
  let firstUncovered: ChainedEvent | null = null;
  const observe = (event: ChainedEvent) => {
    if (event.position > coveredThrough && firstUncovered === null) firstUncovered = event;
  };
  const broken = await walk.advance(observe);
  if (broken) return verdict(broken);
  const headPosition = walk.head?.position ?? 0;
  const beyond = walk.pendingMark;
  if (beyond) {
    return verdict(logEndsBefore(headPosition, beyond.what));
  }

  // The heads (or the log's end) were written with each append: a stream that ends short of its head
  // lost its newest events. A store in use appends while it is verified (another process or node, a
  // writer thread): heads or an end recorded after the walk stopped are walked on to, a few times
  // over, before they are judged.
  const readEnds = async () => {
    const heads = await source.chainHeads();
    return { heads, end: heads === null ? ((await source.recordedLogEnd?.()) ?? null) : null };
  };
  const walkedShort = ({ heads, end }: Awaited<ReturnType<typeof readEnds>>) =>
    heads === null
      ? end !== null && (walk.head?.position ?? 0) < end.position
      : heads.some((head) => (walk.streams.get(head.streamId)?.revision ?? -1) < head.revision);
  let ends = await readEnds();
  for (let tries = 0; tries < LIVE_END_TRIES && walkedShort(ends); tries++) {
    const further = await walk.advance(observe);
    if (further) return verdict(further);
    ends = await readEnds();
  }
  const recordedHeads = ends.heads;
  if (recordedHeads === null) {
    const problem = await logEndProblem(ends.end, walk.head, walk.streams, (after) => source.readChain(after, 1));
    if (problem) return verdict(problem);
  }
  for (const head of recordedHeads ?? []) {
    const seen = walk.streams.get(head.streamId);
    if (!seen || seen.revision < head.revision) {
      return verdict({ streamId: head.streamId, position: seen?.position ?? 0, revision: (seen?.revision ?? -1) + 1, problem: 'removed', detail: `the stream ends before its recorded head, revision ${head.revision}` });
    }
    if (seen.revision > head.revision || seen.hash !== head.hash) {
      return verdict({ streamId: head.streamId, position: seen.position, revision: seen.revision, problem: 'inserted', detail: 'the stream goes on past its recorded head' });
    }
  }
  const heads = new Set((recordedHeads ?? []).map((h) => h.streamId));
  for (const [streamId, seen] of recordedHeads ? walk.streams : []) {
    if (!heads.has(streamId)) return verdict({ streamId, position: seen.position, revision: null, problem: 'inserted', detail: 'the stream has no recorded head' });
  }

  // With the key, every event but the newest few must be under a signature: a log whose checkpoints
  // were deleted (and so could have been rewritten whole) is not passed on its chains alone.
  const uncovered = firstUncovered as ChainedEvent | null;
  if (key && options.coverage && uncovered) {
    const { now, graceMs } = options.coverage;
    const age = uncovered.recordedAt === undefined ? Number.POSITIVE_INFINITY : now.getTime() - Date.parse(uncovered.recordedAt);
    if (signed.length === 0) {
      return verdict({
        streamId: LOG,
        position: uncovered.position,
        revision: null,
        problem: 'unsigned',
        detail: `the log has ${walk.events} events and no signed checkpoint at all: with LEDGER_SIGNING_KEY set every server signs its head each minute, so the checkpoints were removed (or never made); the log may have been rewritten whole`,
      });
    }
    if (!(age <= graceMs)) {
      return verdict({
        streamId: uncovered.streamId,
        position: uncovered.position,
        revision: uncovered.revision,
        problem: 'unsigned',
        detail: `no signed checkpoint covers this event, recorded at ${uncovered.recordedAt ?? '(unknown)'}: the newest checkpoint is at position ${coveredThrough}; the checkpoints after it were removed, or no server with the key has run since (start one, or run ledger-head, once you trust the log)`,
      });
    }
  }
  return verdict(null);
}

/** How often verifyChain walks on to recorded heads or an end past its walk before it judges them (see there). */
const LIVE_END_TRIES = 3;

/**
 * Where the log walked ends against the end the store recorded with its last append (a store that
 * keeps a log link on every event: a removed or added row anywhere else already broke a link).
 */
async function logEndProblem(
  end: RecordedLogEnd | null,
  head: LogLink | null,
  streams: ReadonlyMap<string, { revision: number; position: number }>,
  eventAfter: (position: number) => Promise<ChainedEvent[]>,
): Promise<ChainFailure | null> {
  const walked = head?.position ?? 0;
  if (end === null) {
    if (!head) return null;
    const [first] = await eventAfter(0);
    return fail(first?.streamId ?? LOG, first?.position ?? walked, first?.revision ?? null, 'inserted', "the log has events but no recorded end: they were written behind the store's back");
  }
  if (walked < end.position) {
    const seen = streams.get(end.streamId);
    return fail(end.streamId, end.position, end.revision, 'removed', `the log ends at position ${walked}, before its recorded end at position ${end.position} (revision ${end.revision} of this stream${seen ? `, which ends at revision ${seen.revision}` : ''})`);
  }
  if (walked > end.position) {
    const [after] = await eventAfter(end.position);
    return fail(after?.streamId ?? LOG, after?.position ?? walked, after?.revision ?? null, 'inserted', `the log goes on past its recorded end at position ${end.position}`);
  }
  const last = streams.get(end.streamId);
  if (head?.hash !== end.hash || last?.position !== end.position || last.revision !== end.revision) {
    return fail(end.streamId, end.position, end.revision, 'changed', "the log's newest event no longer matches its recorded end");
  }
  return null;
}

/**
 * Where signed checkpoints are also kept, outside DATA_DIR (LEDGER_WITNESS): someone who rewrote the
 * event store's file and deleted its checkpoints table cannot reach it, so it is what a restarted
 * server, and verify-ledger, compare the log with. Append-only: each checkpoint once, never changed.
 */
export interface LedgerWitness {
  /** Where it is, for messages (a file path, an s3:// address). */
  readonly name: string;
  /** The newest checkpoint it holds (highest position), or null. */
  latest(): Promise<LedgerCheckpoint | null>;
  record(checkpoint: LedgerCheckpoint): Promise<void>;
}

/**
 * How a signer walks before its first signing: the whole log (ledger-head, the specs), or on from
 * the newest signed checkpoint while an audit walks the log up to it in the background (a server,
 * which must not spend its start re-hashing millions of events it signed before).
 */
export type SignerStart = 'whole log' | 'newest checkpoint';

/**
 * Signs checkpoints of the log's head, only of a log that extends every checkpoint it has seen: the
 * store's own (its checkpoints table) and the witness's newest, each checked against the key. What it
 * signs is the head it computed itself, never a hash read back from a file.
 *
 * From the whole log it walks every event before its first signing. From the newest checkpoint it
 * walks on from there (each later signing walks on from the last), and `audit()` walks the log up to
 * that checkpoint a batch at a time: a break there found by the audit refuses as one found before
 * signing would, only later. What it signed in between extends the checkpoint, which covers the
 * untouched log, so verify-ledger still fails on such a log against either.
 *
 * Once the log fails a walk it signs nothing more (refusal: why), so a log that was edited,
 * rechained whole and stripped of its checkpoints never gets a fresh signature.
 */
export class LedgerSigner {
  readonly #store: CheckpointStore;
  readonly #source: ChainSource;
  readonly #key: Uint8Array;
  readonly #witness: LedgerWitness | null;
  readonly #start: SignerStart;
  readonly #walk: ChainWalk;
  /** The walk from the log's start up to the checkpoint the signer began at; null when none is left to do. */
  #audit: { walk: ChainWalk; through: number } | null = null;
  #started = false;
  #refusal: ChainFailure | null = null;
  #signed: LedgerCheckpoint | null = null;
  /** The newest position the witness was seen to hold. */
  #witnessed = 0;

  constructor(store: EventStore, key: Uint8Array, witness: LedgerWitness | null, start: SignerStart = 'whole log') {
    this.#store = checkpointsOf(store);
    this.#source = chainOf(store);
    this.#key = key;
    this.#witness = witness;
    this.#start = start;
    this.#walk = new ChainWalk(this.#source);
  }

  /** Why it refuses to sign (the first break found), or null while the log checks out. */
  get refusal(): ChainFailure | null {
    return this.#refusal;
  }

  /** The newest checkpoint this signer made. */
  get latest(): LedgerCheckpoint | null {
    return this.#signed;
  }

  /** Events walked on the way to the head it signs (not the audit's). */
  get walked(): number {
    return this.#walk.events;
  }

  /** Whether the log before the checkpoint it began at is still to be walked (audit()). */
  get auditing(): boolean {
    return this.#audit !== null && this.#refusal === null;
  }

  /** Walks on to the log's head and signs it (kept in the store and the witness); null when refused or the log is empty. */
  async sign(now: Date): Promise<LedgerCheckpoint | null> {
    if (this.#refusal) return null;
    const problem = await this.#check();
    if (problem) {
      this.#refusal = problem;
      return null;
    }
    const head = this.#walk.head;
    if (!head) return null;
    // The store's newest checkpoint, or this signer's last, may already name this head.
    let checkpoint = this.#signed?.position === head.position && this.#signed.hash === head.hash ? this.#signed : null;
    if (!checkpoint) {
      checkpoint = { ...head, mac: checkpointMac(this.#key, head), recordedAt: now.toISOString() };
      await this.#store.recordCheckpoint(checkpoint);
    }
    // Another process may have witnessed this very head already.
    if (this.#witness && this.#witnessed < checkpoint.position) {
      await this.#witness.record(checkpoint);
      this.#witnessed = checkpoint.position;
    }
    this.#signed = checkpoint;
    return checkpoint;
  }

  /**
   * Walks about `maxEvents` more of the log before the checkpoint it began at; true while some is
   * left. A break refuses, as at a signing.
   */
  async audit(maxEvents = 2000): Promise<boolean> {
    const audit = this.#audit;
    if (!audit || this.#refusal) return false;
    const from = audit.walk.head?.position ?? 0;
    const broken = await audit.walk.advance(undefined, maxEvents);
    const reached = audit.walk.head?.position ?? 0;
    if (!broken && reached < audit.through && reached > from) return true;
    this.#audit = null;
    // Ending short of the checkpoint: its events went while the audit walked (the signing found the one at its position).
    this.#refusal = broken ?? (reached < audit.through ? logEndsBefore(reached, audit.walk.pendingMark?.what ?? `position ${audit.through}`) : null);
    return false;
  }

  async #check(): Promise<ChainFailure | null> {
    // Every time: other processes on this log witness checkpoints too; one ahead of this walk is checked when the walk gets there.
    const witnessed = this.#witness ? await this.#witness.latest() : null;
    const marks: Array<{ checkpoint: LedgerCheckpoint; where: string; what: string }> = [];
    if (witnessed) {
      this.#witnessed = Math.max(this.#witnessed, witnessed.position);
      marks.push({ checkpoint: witnessed, where: ' in the witness', what: `the witness's checkpoint of position ${witnessed.position} (recorded at ${witnessed.recordedAt})` });
    }
    const first = !this.#started;
    if (first) {
      this.#started = true;
      const listed = await this.#store.listCheckpoints();
      marks.unshift(...listed.map((checkpoint) => ({ checkpoint, where: '', what: `the signed checkpoint of position ${checkpoint.position} (recorded at ${checkpoint.recordedAt})` })));
      this.#signed = listed.at(-1) ?? null;
    }
    for (const { checkpoint, where } of marks) {
      const unsigned = checkpointSignatureProblem(this.#key, checkpoint, where);
      if (unsigned) return unsigned;
    }
    const newest = first && this.#start === 'newest checkpoint' ? marks.reduce<(typeof marks)[number] | null>((a, b) => (a && a.checkpoint.position >= b.checkpoint.position ? a : b), null) : null;
    // A start the log does not bear out (its event there gone or changed; startAt then leaves the walk
    // as it was) is walked from the log's start, which names the break.
    if (newest && !(await this.#walk.startAt({ ...newest.checkpoint, what: newest.what }))) {
      const audit = new ChainWalk(this.#source);
      for (const { checkpoint, what } of marks) audit.expect({ position: checkpoint.position, hash: checkpoint.hash, what });
      this.#audit = { walk: audit, through: newest.checkpoint.position };
      return this.#walkOn();
    }
    for (const { checkpoint, what } of marks) {
      const problem = this.#walk.expect({ position: checkpoint.position, hash: checkpoint.hash, what });
      if (problem) return problem;
    }
    return this.#walkOn();
  }

  async #walkOn(): Promise<ChainFailure | null> {
    const broken = await this.#walk.advance();
    if (broken) return broken;
    const beyond = this.#walk.pendingMark;
    return beyond ? logEndsBefore(this.#walk.head?.position ?? 0, beyond.what) : null;
  }
}

function logEndsBefore(end: number, what: string): ChainFailure {
  return { streamId: LOG, position: end, revision: null, problem: 'removed', detail: `the log ends at position ${end}, before ${what}: its newest events were removed` };
}

/** Signs the log's head once, after walking the whole log (ledger-head, and the specs): null for an empty log; throws when refused. */
export async function recordCheckpoint(
  store: EventStore,
  key: Uint8Array,
  now: Date,
  witness: LedgerWitness | null = null,
): Promise<LedgerCheckpoint | null> {
  const signer = new LedgerSigner(store, key, witness);
  const checkpoint = await signer.sign(now);
  const refusal = signer.refusal;
  if (refusal) throw new LedgerRefusedError(refusal);
  return checkpoint;
}

export class LedgerRefusedError extends Error {
  constructor(readonly failure: ChainFailure) {
    super(`refusing to sign the log's head: ${failure.problem} event in stream ${failure.streamId} at position ${failure.position}: ${failure.detail}`);
  }
}
