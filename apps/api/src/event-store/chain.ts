import { createHash, createHmac, timingSafeEqual } from 'node:crypto';

/**
 * Tamper evidence: every event carries a hash of its stream id, revision, type, data and
 * metadata (as stored) chained to the hash of the stream's previous event, and each store keeps
 * the head (last revision and hash) of every stream, written with the append. A changed, removed,
 * inserted or reordered event breaks a link; removing a stream's newest events leaves its head
 * pointing past the end. Both adapters chain the same way; `verifyChain` walks either.
 *
 * Per-stream chains alone can be rewritten quietly (drop a whole stream with its head, truncate one
 * and fix its head, rechain an edited one), so a second chain runs through the whole log in log
 * order: each event's log hash covers the previous event's log hash and position and its own
 * position and stream hash. The embedded store keeps that link on every row; on KurrentDB it is
 * computed over the `$all` order. Neither has a secret, so the server also records checkpoints of
 * the log's head signed with LEDGER_SIGNING_KEY (kept outside DATA_DIR): a rewrite of anything a
 * checkpoint covers no longer matches it, and no one without the key can sign a new one.
 */

/** The bytes hashed: stored JSON texts, so what is verified is exactly what was written. */
export interface ChainContent {
  streamId: string;
  revision: number;
  type: string;
  data: string;
  metadata: string;
}

export function chainHash(previous: string | null, event: ChainContent): string {
  return createHash('sha256')
    .update(JSON.stringify([previous ?? '', event.streamId, event.revision, event.type, event.data, event.metadata]))
    .digest('hex');
}

/** An event as the verifier reads it: its stored content and chain fields. */
export interface ChainedEvent extends ChainContent {
  position: number;
  hash: string | null;
  prevHash: string | null;
  /**
   * The stored log link: the position of the event before it in the log (0: none) and its log hash.
   * Absent when the store keeps no per-event log link (KurrentDB: the log chain is computed).
   */
  logPrev?: number | null;
  logHash?: string | null;
}

/** A place in the log's chain: an event's position and its log hash. */
export interface LogLink {
  position: number;
  hash: string;
}

/** The log hash of the event at `position` whose stream hash is `streamHash`, after `previous`. */
export function logHash(previous: LogLink | null, position: number, streamHash: string): string {
  return createHash('sha256')
    .update(JSON.stringify(['log', previous?.position ?? 0, previous?.hash ?? '', position, streamHash]))
    .digest('hex');
}

/** A signed record of the log's head: whoever holds the key vouches the log ran to here with this hash. */
export interface LedgerCheckpoint extends LogLink {
  /** HMAC-SHA256 of the head with LEDGER_SIGNING_KEY (checkpointMac). */
  mac: string;
  recordedAt: string;
}

/** A store that keeps signed checkpoints and can say where its log chain ends. */
export interface CheckpointStore {
  /** The newest event's position and log hash; null for an empty log. */
  logHead(): Promise<LogLink | null>;
  listCheckpoints(): Promise<LedgerCheckpoint[]>;
  /** Keeps a checkpoint; one already kept for that position stays as it is. */
  recordCheckpoint(checkpoint: LedgerCheckpoint): Promise<void>;
}

export function isCheckpointStore(store: unknown): store is CheckpointStore {
  // By type, not presence: a decorator declares the methods whether or not its adapter has them.
  const candidate = store as Partial<Record<keyof CheckpointStore, unknown>> | null;
  return (
    typeof candidate === 'object' &&
    candidate !== null &&
    typeof candidate.logHead === 'function' &&
    typeof candidate.listCheckpoints === 'function' &&
    typeof candidate.recordCheckpoint === 'function'
  );
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
 * Records a signed checkpoint of the log's head, unless the newest one already names it. Returns
 * the head as signed (null for an empty log).
 */
export async function recordCheckpoint(store: CheckpointStore, key: Uint8Array, now: Date): Promise<LedgerCheckpoint | null> {
  const head = await store.logHead();
  if (!head) return null;
  const latest = (await store.listCheckpoints()).at(-1);
  if (latest && latest.position === head.position && latest.hash === head.hash) return latest;
  const checkpoint = { ...head, mac: checkpointMac(key, head), recordedAt: now.toISOString() };
  await store.recordCheckpoint(checkpoint);
  return checkpoint;
}

export interface ChainHead {
  streamId: string;
  revision: number;
  hash: string;
}

/** A store the verifier can walk. */
export interface ChainSource {
  readChain(after: number, limit: number): Promise<ChainedEvent[]>;
  chainHeads(): Promise<ChainHead[]>;
  /** Where a stream's event with this revision is in the log, if anywhere. */
  positionOf(streamId: string, revision: number): Promise<number | null>;
}

export function isChainSource(store: unknown): store is ChainSource {
  return typeof store === 'object' && store !== null && 'readChain' in store && 'chainHeads' in store && 'positionOf' in store;
}

export type ChainProblem = 'changed' | 'removed' | 'inserted' | 'reordered';

export interface ChainVerdict {
  ok: boolean;
  events: number;
  /** Log hash of the newest event in the log (the log's head). */
  headHash: string | null;
  headPosition: number;
  failure: { streamId: string; position: number; revision: number | null; problem: ChainProblem; detail: string } | null;
  /** The signed checkpoints met: how many, the newest one's position, and whether their MACs were checked. */
  checkpoints: { count: number; latestPosition: number | null; macsChecked: boolean };
}

export interface VerifyOptions {
  /** LEDGER_SIGNING_KEY: checks the checkpoints' MACs (and a kept head's). Without it only their hashes are compared. */
  signingKey?: Uint8Array | null;
  /** A head the operator kept (ledger-head): the log must still run through it. */
  head?: KeptHead | null;
  batchSize?: number;
}

/** Stands for the log as a whole where a break belongs to no stream (its end). */
const LOG = '(log)';

/** Walks the whole log, oldest first, and reports the first place its chain breaks. */
export async function verifyChain(source: ChainSource, options: VerifyOptions = {}): Promise<ChainVerdict> {
  const batchSize = options.batchSize ?? 2000;
  const key = options.signingKey ?? null;
  const last = new Map<string, { revision: number; hash: string; position: number }>();
  let events = 0;
  let headHash: string | null = null;
  let headPosition = 0;
  const listed = isCheckpointStore(source) ? await source.listCheckpoints() : [];
  const checkpointSummary = { count: listed.length, latestPosition: listed.at(-1)?.position ?? null, macsChecked: key !== null };
  const fail = (streamId: string, position: number, revision: number | null, problem: ChainProblem, detail: string): ChainVerdict => ({
    ok: false,
    events,
    headHash,
    headPosition,
    failure: { streamId, position, revision, problem, detail },
    checkpoints: checkpointSummary,
  });

  // What the log must run through: every signed checkpoint, and the head the operator kept.
  const marks: Array<{ position: number; hash: string; what: string }> = [];
  for (const checkpoint of listed) {
    if (key && !macMatches(key, checkpoint, checkpoint.mac)) {
      return fail(LOG, checkpoint.position, null, 'inserted', `the checkpoint of position ${checkpoint.position} recorded at ${checkpoint.recordedAt} is not signed with LEDGER_SIGNING_KEY`);
    }
    marks.push({ position: checkpoint.position, hash: checkpoint.hash, what: `the signed checkpoint of position ${checkpoint.position} (recorded at ${checkpoint.recordedAt})` });
  }
  const kept = options.head ?? null;
  if (kept) {
    if (kept.mac && key && !macMatches(key, kept, kept.mac)) {
      return fail(LOG, kept.position, null, 'changed', 'the head given was not signed with this LEDGER_SIGNING_KEY (mistyped, or signed with another key)');
    }
    marks.push({ position: kept.position, hash: kept.hash, what: `the head you kept (position ${kept.position})` });
  }
  marks.sort((a, b) => a.position - b.position);
  let nextMark = 0;
  let logLink: LogLink | null = null;
  let lastStream = LOG;

  for (let after = 0; ; ) {
    const batch = await source.readChain(after, batchSize);
    if (batch.length === 0) break;
    for (const event of batch) {
      const previous = last.get(event.streamId);
      const expected = previous ? previous.revision + 1 : 0;
      if (event.revision > expected) {
        const later = await source.positionOf(event.streamId, expected);
        return later !== null && later > event.position
          ? fail(event.streamId, event.position, event.revision, 'reordered', `revision ${event.revision} comes before revision ${expected}`)
          : fail(event.streamId, event.position, expected, 'removed', `revision ${expected} is missing before position ${event.position}`);
      }
      if (event.revision < expected) {
        return fail(event.streamId, event.position, event.revision, 'reordered', `revision ${event.revision} comes after revision ${expected - 1}`);
      }
      if (event.hash === null || event.prevHash !== (previous?.hash ?? null)) {
        return fail(event.streamId, event.position, event.revision, 'inserted', 'this event does not link to the one before it in its stream');
      }
      if (chainHash(previous?.hash ?? null, event) !== event.hash) {
        return fail(event.streamId, event.position, event.revision, 'changed', 'its content no longer matches its hash');
      }
      // The log's chain: this event after the one before it in the log, whatever its stream.
      const linked = logHash(logLink, event.position, event.hash);
      if (event.logHash !== undefined) {
        const before = logLink?.position ?? 0;
        if (event.logHash === null) return fail(event.streamId, event.position, event.revision, 'inserted', "this event is not linked into the log's chain");
        if ((event.logPrev ?? 0) > before) {
          return fail(event.streamId, event.position, event.revision, 'removed', `the event before it in the log, at position ${event.logPrev}, is missing`);
        }
        if ((event.logPrev ?? 0) < before) {
          return fail(lastStream, before, null, 'inserted', `the event at position ${before} is not in the log's chain: the next one links past it`);
        }
        if (event.logHash !== linked) {
          return fail(event.streamId, event.position, event.revision, 'changed', "it no longer matches the log's chain (its stream was rechained, or an event before it changed)");
        }
      }
      for (; nextMark < marks.length && marks[nextMark]!.position <= event.position; nextMark++) {
        const mark = marks[nextMark]!;
        if (mark.position < event.position) {
          return fail(event.streamId, mark.position, null, 'removed', `the event at position ${mark.position}, named by ${mark.what}, is missing`);
        }
        if (mark.hash !== linked) {
          return fail(event.streamId, event.position, event.revision, 'changed', `the log up to here no longer matches ${mark.what}: an event at or before it was changed, removed or rechained`);
        }
      }
      last.set(event.streamId, { revision: event.revision, hash: event.hash, position: event.position });
      logLink = { position: event.position, hash: linked };
      lastStream = event.streamId;
      events += 1;
      headHash = linked;
      headPosition = event.position;
      after = event.position;
    }
  }
  const beyond = marks[nextMark];
  if (beyond) {
    return fail(LOG, headPosition, null, 'removed', `the log ends at position ${headPosition}, before ${beyond.what}: its newest events were removed`);
  }

  // The heads were written with each append: a stream that ends short of its head lost its newest events.
  const recordedHeads = await source.chainHeads();
  for (const head of recordedHeads) {
    const seen = last.get(head.streamId);
    if (!seen || seen.revision < head.revision) {
      return fail(head.streamId, seen?.position ?? 0, (seen?.revision ?? -1) + 1, 'removed', `the stream ends before its recorded head, revision ${head.revision}`);
    }
    if (seen.revision > head.revision || seen.hash !== head.hash) {
      return fail(head.streamId, seen.position, seen.revision, 'inserted', 'the stream goes on past its recorded head');
    }
  }
  const heads = new Set(recordedHeads.map((h) => h.streamId));
  for (const streamId of last.keys()) {
    if (!heads.has(streamId)) return fail(streamId, last.get(streamId)?.position ?? 0, null, 'inserted', 'the stream has no recorded head');
  }
  return { ok: true, events, headHash, headPosition, failure: null, checkpoints: checkpointSummary };
}
