/**
 * The event store with personal data sealed: a decorator of the event-store port around either
 * adapter. Every append seals its events' personal fields before the adapter sees them, and every
 * read (streams, the whole log, subscriptions, the synchronous reads of followers) opens them again,
 * so deciders and projections see plain values and the stored bytes hold none. The hash chain is
 * computed by the adapter over the stored (sealed) bytes, so verify-ledger reads them raw.
 */
import type { AllSubscription, AppendResult, EventHeader, EventStore, ExpectedRevision, NewEvent, RecordedEvent, StreamSnapshot } from '@kamai/domain';
import type { ChainHead, ChainSource, ChainedEvent, CheckpointStore, LedgerCheckpoint, LogLink } from '../event-store/chain.ts';
import { isChainSource, isCheckpointStore } from '../event-store/chain.ts';
import type { OpenPersonalData } from './personal-data.ts';
import { SnapshotSealer } from './snapshots.ts';

export class SealedEventStore implements EventStore {
  readonly inner: EventStore;
  readonly personal: OpenPersonalData;
  readonly #snapshots: SnapshotSealer | null;
  readonly #closesKeys: boolean;

  // The port's optional extras, present exactly when the adapter has them.
  readonly externalVersion?: () => number;
  readonly localRevisionOf?: (streamId: string) => number | undefined;
  declare readonly localRevisionsEpoch?: number;
  declare readonly localHead?: number;
  readonly headNow?: () => number;
  readonly readTypesNow?: (after: number, upTo: number, types: readonly string[], options?: { sealed?: boolean }) => RecordedEvent[];
  readonly readHeadersNow?: (after: number, upTo: number, types: readonly string[]) => EventHeader[];
  readonly onAppended?: (listener: (position: number) => void) => () => void;
  readonly wakeSubscriptions?: () => void;
  readonly readSnapshot?: (streamId: string) => Promise<StreamSnapshot | null>;
  readonly writeSnapshot?: (streamId: string, snapshot: StreamSnapshot) => Promise<void>;
  // The chain, read raw for verify-ledger (chain.ts).
  readonly readChain?: (after: number, limit: number) => Promise<ChainedEvent[]>;
  readonly chainHeads?: () => Promise<ChainHead[]>;
  readonly positionOf?: (streamId: string, revision: number) => Promise<number | null>;
  // The log's head and its signed checkpoints (chain.ts), as the adapter keeps them.
  readonly logHead?: () => Promise<LogLink | null>;
  readonly listCheckpoints?: () => Promise<LedgerCheckpoint[]>;
  readonly recordCheckpoint?: (checkpoint: LedgerCheckpoint) => Promise<void>;

  constructor(inner: EventStore, personal: OpenPersonalData, options: { snapshots?: SnapshotSealer; closesKeys?: boolean } = {}) {
    this.inner = inner;
    this.personal = personal;
    this.#snapshots = options.snapshots ?? null;
    this.#closesKeys = options.closesKeys ?? false;
    const sealer = personal.sealer;
    if (inner.externalVersion) this.externalVersion = inner.externalVersion.bind(inner);
    if (inner.localRevisionOf) this.localRevisionOf = inner.localRevisionOf.bind(inner);
    if (inner.headNow) this.headNow = inner.headNow.bind(inner);
    // Headers hold nothing personal: as stored.
    if (inner.readHeadersNow) this.readHeadersNow = inner.readHeadersNow.bind(inner);
    if (inner.onAppended) this.onAppended = inner.onAppended.bind(inner);
    if (inner.wakeSubscriptions) this.wakeSubscriptions = inner.wakeSubscriptions.bind(inner);
    const readTypesNow = inner.readTypesNow?.bind(inner);
    if (readTypesNow) {
      this.readTypesNow = (after, upTo, types, options) => {
        const events = readTypesNow(after, upTo, types);
        return options?.sealed ? events : events.map((event) => sealer.open(event));
      };
    }
    for (const name of ['localRevisionsEpoch', 'localHead'] as const) {
      if (inner[name] !== undefined) Object.defineProperty(this, name, { get: () => inner[name], enumerable: true });
    }
    const readSnapshot = inner.readSnapshot?.bind(inner);
    const writeSnapshot = inner.writeSnapshot?.bind(inner);
    if (readSnapshot && writeSnapshot) {
      const snapshots = this.#snapshots;
      this.readSnapshot = snapshots ? async (streamId) => snapshots.open(streamId, await readSnapshot(streamId)) : readSnapshot;
      this.writeSnapshot = snapshots ? async (streamId, snapshot) => writeSnapshot(streamId, await snapshots.seal(streamId, snapshot)) : writeSnapshot;
    }
    if (isChainSource(inner)) {
      const chain: ChainSource = inner;
      this.readChain = chain.readChain.bind(inner);
      this.chainHeads = chain.chainHeads.bind(inner);
      this.positionOf = chain.positionOf.bind(inner);
    }
    if (isCheckpointStore(inner)) {
      const checkpoints: CheckpointStore = inner;
      this.logHead = checkpoints.logHead.bind(inner);
      this.listCheckpoints = checkpoints.listCheckpoints.bind(inner);
      this.recordCheckpoint = checkpoints.recordCheckpoint.bind(inner);
    }
  }

  /**
   * Snapshots that would be ignored (folded from their events instead): unsealed (kept before
   * sealing), or not opening (tampered, moved, erased subject, or a log changed under them).
   */
  async snapshotProblems(): Promise<Array<{ streamId: string; revision: number; problem: 'unsealed' | 'unopened' }>> {
    const snapshots = this.#snapshots;
    const inner = this.inner as EventStore & { listSnapshots?: () => Promise<Array<StreamSnapshot & { streamId: string }>> };
    if (!snapshots || !inner.listSnapshots) return [];
    const problems: Array<{ streamId: string; revision: number; problem: 'unsealed' | 'unopened' }> = [];
    for (const snapshot of await inner.listSnapshots()) {
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
    const inner = this.inner as EventStore & { listSnapshots?: () => Promise<Array<StreamSnapshot & { streamId: string }>> };
    if (!snapshots || !inner.listSnapshots) return [];
    const opened: Array<StreamSnapshot & { streamId: string }> = [];
    for (const stored of await inner.listSnapshots()) {
      const state = await snapshots.openForAudit(stored.streamId, stored);
      if (state !== undefined) opened.push({ ...stored, state });
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

  async readAll(options: { after: number; limit: number }): Promise<RecordedEvent[]> {
    const sealer = this.personal.sealer;
    return (await this.inner.readAll(options)).map((event) => sealer.open(event));
  }

  headPosition(): Promise<number> {
    return this.inner.headPosition();
  }

  subscribeToAll(options: { after: number }): AllSubscription {
    const sealer = this.personal.sealer;
    const subscription = this.inner.subscribeToAll(options);
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
  const snapshots = new SnapshotSealer(personal.keys, isChainSource(inner) ? inner : null, signingKey);
  return new SealedEventStore(inner, personal, { snapshots, ...rest });
}
