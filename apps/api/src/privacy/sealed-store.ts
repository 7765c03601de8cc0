/**
 * The event store with personal data sealed: a decorator of the event-store port around either
 * adapter. Every append seals its events' personal fields before the adapter sees them, and every
 * read (streams, the whole log, subscriptions, the synchronous reads of followers) opens them again,
 * so deciders and projections see plain values and the stored bytes hold none. The hash chain is
 * computed by the adapter over the stored (sealed) bytes, so verify-ledger reads them raw.
 */
import {
  type AllSubscription,
  type AppendResult,
  type EventStore,
  type EventStoreCapabilities,
  type ExpectedRevision,
  type NewEvent,
  type RecordedEvent,
  type StreamSnapshot,
  capability,
} from '@kamai/domain';
import type { OpenPersonalData } from './personal-data.ts';
import { SnapshotSealer } from './snapshots.ts';

export class SealedEventStore implements EventStore {
  readonly inner: EventStore;
  readonly personal: OpenPersonalData;
  readonly #snapshots: SnapshotSealer | null;
  readonly #closesKeys: boolean;

  /**
   * The adapter's capabilities, as they are where nothing personal passes (change signal, wake-ups,
   * the chain and checkpoints, read raw by verify-ledger); snapshots and synchronous reads of whole
   * events seal and open on the way.
   */
  readonly capabilities: EventStoreCapabilities;

  constructor(inner: EventStore, personal: OpenPersonalData, options: { snapshots?: SnapshotSealer; closesKeys?: boolean } = {}) {
    this.inner = inner;
    this.personal = personal;
    this.#snapshots = options.snapshots ?? null;
    this.#closesKeys = options.closesKeys ?? false;
    const sealer = personal.sealer;
    const { snapshots: stored, syncReads: rawReads, ...asStored } = inner.capabilities;
    const capabilities: EventStoreCapabilities = { ...asStored };
    if (rawReads) {
      capabilities.syncReads = {
        headNow: () => rawReads.headNow(),
        // Headers hold nothing personal: as stored.
        readHeadersNow: (after, upTo, types) => rawReads.readHeadersNow(after, upTo, types),
        readTypesNow: (after, upTo, types, readOptions) => {
          const events = rawReads.readTypesNow(after, upTo, types);
          return readOptions?.sealed ? events : events.map((event) => sealer.open(event));
        },
      };
    }
    const sealing = this.#snapshots;
    if (stored) {
      capabilities.snapshots = sealing
        ? {
            readSnapshot: async (streamId) => sealing.open(streamId, await stored.readSnapshot(streamId)),
            writeSnapshot: async (streamId, snapshot) => stored.writeSnapshot(streamId, await sealing.seal(streamId, snapshot)),
            listSnapshots: () => stored.listSnapshots(),
          }
        : stored;
    }
    this.capabilities = capabilities;
  }

  /**
   * Snapshots that would be ignored (folded from their events instead): unsealed (kept before
   * sealing), or not opening (tampered, moved, erased subject, or a log changed under them).
   */
  async snapshotProblems(): Promise<Array<{ streamId: string; revision: number; problem: 'unsealed' | 'unopened' }>> {
    const snapshots = this.#snapshots;
    const stored = capability(this.inner, 'snapshots');
    if (!snapshots || !stored) return [];
    const problems: Array<{ streamId: string; revision: number; problem: 'unsealed' | 'unopened' }> = [];
    for (const snapshot of await stored.listSnapshots()) {
      const verdict = await snapshots.verdict(snapshot.streamId, snapshot);
      if (verdict !== 'ok') problems.push({ streamId: snapshot.streamId, revision: snapshot.revision, problem: verdict });
    }
    return problems;
  }

  /**
   * Every stored event whose sealed personal data does not open although its subject's key is there
   * (tampered bytes; an erased subject's events are not listed), in log order.
   */
  async unreadableEvents(): Promise<Array<Pick<RecordedEvent, 'streamId' | 'position' | 'revision' | 'id' | 'type'>>> {
    const sealer = this.personal.sealer;
    const found: Array<Pick<RecordedEvent, 'streamId' | 'position' | 'revision' | 'id' | 'type'>> = [];
    for (let after = 0; ; ) {
      const page = await this.inner.readAll({ after, limit: 1000 });
      for (const event of page) {
        if (sealer.verdict(event) === 'unreadable') found.push({ streamId: event.streamId, position: event.position, revision: event.revision, id: event.id, type: event.type });
      }
      if (page.length < 1000) return found;
      after = page[page.length - 1]!.position;
    }
  }

  /** Every stored snapshot that opens, vouched for or not, with its plain state (verify-ledger folds its stream to compare). */
  async openSnapshots(): Promise<Array<StreamSnapshot & { streamId: string }>> {
    const snapshots = this.#snapshots;
    const stored = capability(this.inner, 'snapshots');
    if (!snapshots || !stored) return [];
    const opened: Array<StreamSnapshot & { streamId: string }> = [];
    for (const kept of await stored.listSnapshots()) {
      const state = await snapshots.openForAudit(kept.streamId, kept);
      if (state !== undefined) opened.push({ ...kept, state });
    }
    return opened;
  }

  append(streamId: string, events: NewEvent[], expected: ExpectedRevision): Promise<AppendResult> {
    const sealer = this.personal.sealer;
    let sealed: NewEvent[];
    try {
      sealed = events.map((event) => sealer.seal(streamId, event));
    } catch (err) {
      return Promise.reject(err);
    }
    return this.inner.append(streamId, sealed, expected);
  }

  async readStream(streamId: string, options?: { fromRevision?: number; maxCount?: number }): Promise<RecordedEvent[]> {
    const sealer = this.personal.sealer;
    return (await this.inner.readStream(streamId, options)).map((event) => sealer.open(event));
  }

  async readAll(options: { after: number; limit: number; sealed?: boolean }): Promise<RecordedEvent[]> {
    const sealer = this.personal.sealer;
    const events = await this.inner.readAll({ after: options.after, limit: options.limit });
    return options.sealed ? events : events.map((event) => sealer.open(event));
  }

  headPosition(): Promise<number> {
    return this.inner.headPosition();
  }

  subscribeToAll(options: { after: number; sealed?: boolean }): AllSubscription {
    const sealer = this.personal.sealer;
    const subscription = this.inner.subscribeToAll({ after: options.after });
    // A follower of headers and plain fields (the session cache) costs no decryption.
    if (options.sealed) return subscription;
    return {
      close: () => subscription.close(),
      [Symbol.asyncIterator](): AsyncIterator<RecordedEvent> {
        const events = subscription[Symbol.asyncIterator]();
        return {
          async next() {
            const step = await events.next();
            return step.done ? step : { done: false, value: sealer.open(step.value) };
          },
          async return(value?: unknown) {
            await events.return?.(value);
            return { done: true, value: undefined };
          },
        };
      },
    };
  }

  async close(): Promise<void> {
    await this.inner.close();
    if (this.#closesKeys) this.personal.close();
  }
}

/** The adapter with personal data sealed, snapshots included (vouched for by `signingKey` when given); closing it closes the key store too when `closesKeys`. */
export function sealEventStore(
  inner: EventStore,
  personal: OpenPersonalData,
  options: { closesKeys?: boolean; signingKey?: Uint8Array | null } = {},
): SealedEventStore {
  const { signingKey = null, ...rest } = options;
  // LEDGER_SIGNING_KEY, when set, vouches for snapshots too (snapshots.ts).
  const snapshots = new SnapshotSealer(personal.keys, capability(inner, 'chain') ?? null, signingKey);
  return new SealedEventStore(inner, personal, { snapshots, ...rest });
}
