import { createHash } from 'node:crypto';

/**
 * Tamper evidence: every event carries a hash of its stream id, revision, type, data and
 * metadata (as stored) chained to the hash of the stream's previous event, and each store keeps
 * the head (last revision and hash) of every stream, written with the append. A changed, removed,
 * inserted or reordered event breaks a link; removing a stream's newest events leaves its head
 * pointing past the end. Both adapters chain the same way; `verifyChain` walks either.
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
  /** Hash of the newest event in the log (the log's head). */
  headHash: string | null;
  headPosition: number;
  failure: { streamId: string; position: number; revision: number | null; problem: ChainProblem; detail: string } | null;
}

/** Walks the whole log, oldest first, and reports the first place its chain breaks. */
export async function verifyChain(source: ChainSource, batchSize = 2000): Promise<ChainVerdict> {
  const last = new Map<string, { revision: number; hash: string; position: number }>();
  let events = 0;
  let headHash: string | null = null;
  let headPosition = 0;
  const fail = (streamId: string, position: number, revision: number | null, problem: ChainProblem, detail: string): ChainVerdict => ({
    ok: false,
    events,
    headHash,
    headPosition,
    failure: { streamId, position, revision, problem, detail },
  });

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
      last.set(event.streamId, { revision: event.revision, hash: event.hash, position: event.position });
      events += 1;
      headHash = event.hash;
      headPosition = event.position;
      after = event.position;
    }
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
  return { ok: true, events, headHash, headPosition, failure: null };
}
