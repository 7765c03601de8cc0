import { type LedgerVerifyBody, eventCodec, streams } from '@kamai/contracts';
import { type EventStore, type Evolver, type Json, type SnapshotCodec, type StreamSnapshot, capability, userDecider } from '@kamai/domain';
import {
  type ChainFailure,
  type KeptHead,
  type LedgerCheckpoint,
  LedgerSigner,
  type LedgerWitness,
  recordCheckpoint,
  verifyChain,
} from '../event-store/chain.ts';
import { canonical } from '../canonical-json.ts';

/** How often a server signs the log's head while it moves. */
export const CHECKPOINT_INTERVAL_MS = 60_000;
/**
 * The share of one core a server gives to walking the log it signed before (LedgerSigner.audit):
 * it pauses after each batch for the rest, so a start on a long log serves at full speed.
 */
export const AUDIT_CPU_SHARE = 0.05;
/**
 * With the key, an event older than this must be under a signed checkpoint: one interval for the
 * server's timer to come round, and one more for a busy machine.
 */
export const COVERAGE_GRACE_MS = 2 * CHECKPOINT_INTERVAL_MS;

/** The streams whose deciders keep snapshots, and the evolver and codec the command handler folds them with. */
const SNAPSHOTTED: ReadonlyArray<{ prefix: string; evolver: Evolver<unknown, unknown>; codec: SnapshotCodec<unknown> }> = [
  { prefix: streams.user(''), evolver: userDecider as unknown as Evolver<unknown, unknown>, codec: userDecider.snapshot as unknown as SnapshotCodec<unknown> },
];

/** A store that can hand over its snapshots opened (the sealed store). */
interface SnapshotSource {
  openSnapshots(): Promise<Array<StreamSnapshot & { streamId: string }>>;
}

function isSnapshotSource(store: unknown): store is SnapshotSource {
  return typeof store === 'object' && store !== null && typeof (store as Partial<SnapshotSource>).openSnapshots === 'function';
}

/**
 * Folds every stream that has a snapshot (of the codec's current version: the handler ignores any
 * other) up to the snapshot's revision and compares: a snapshot is a shortcut past its events, so
 * one whose state they do not fold to was forged (it could hold any balance), even when it opens.
 */
export async function forgedSnapshot(store: EventStore): Promise<ChainFailure | null> {
  if (!isSnapshotSource(store)) return null;
  for (const snapshot of await store.openSnapshots()) {
    const kind = SNAPSHOTTED.find((s) => snapshot.streamId.startsWith(s.prefix));
    if (!kind || snapshot.version !== kind.codec.version) continue;
    let state = kind.evolver.initialState();
    const events = await store.readStream(snapshot.streamId, { fromRevision: 0, maxCount: snapshot.revision + 1 });
    let decoded = true;
    for (const recorded of events) {
      const event = eventCodec.decode(recorded);
      if (!event) {
        decoded = false;
        break;
      }
      state = kind.evolver.evolve(state, event);
    }
    const folded: Json | null = decoded && events.length === snapshot.revision + 1 ? kind.codec.save(state) : null;
    // Keys sorted: a record changed after a snapshot was loaded can hold its fields in another order than a fresh fold's.
    if (folded === null || canonical(JSON.stringify(folded)) !== canonical(JSON.stringify(snapshot.state))) {
      const position = (await capability(store, 'chain')?.positionOf(snapshot.streamId, snapshot.revision)) ?? null;
      return {
        streamId: snapshot.streamId,
        position: position ?? 0,
        revision: snapshot.revision,
        problem: 'changed',
        detail: `its snapshot at revision ${snapshot.revision} holds a state its events do not fold to: the snapshot was forged (or written by other logic under the same version)`,
      };
    }
  }
  return null;
}

/** A store that can list the events whose sealed personal data does not open (the sealed store). */
interface UnreadableSource {
  unreadableEvents(): Promise<Array<{ streamId: string; position: number; revision: number; type: string }>>;
}

/**
 * The first event whose sealed personal data does not open although its subject's key is there: the
 * chain may hold (rewritten along with it, without the signing key), but the bytes were changed. An
 * erased person's events are not among them (no key is not tampering).
 */
async function unreadableEvent(store: EventStore): Promise<ChainFailure | null> {
  if (!('unreadableEvents' in store)) return null;
  const [first, ...rest] = await (store as EventStore & UnreadableSource).unreadableEvents();
  if (!first) return null;
  return {
    streamId: first.streamId,
    position: first.position,
    revision: first.revision,
    problem: 'unreadable',
    detail: `its ${first.type} event's sealed personal data does not open although the person's key exists: the stored bytes were changed${rest.length > 0 ? ` (and ${rest.length} more such events)` : ''}`,
  };
}

/**
 * The tamper check over the whole event store, as `verify-ledger` and GET /api/admin/ledger/verify
 * answer it: both chains, every checkpoint kept in the store, the witness's newest, a kept head;
 * with the key, that no event older than COVERAGE_GRACE_MS is left unsigned; and every snapshot
 * against the fold of its events.
 */
export async function verifyLedger(
  store: EventStore,
  options: { signingKey?: Uint8Array | null; head?: KeptHead | null; witness?: LedgerWitness | null; now?: Date } = {},
): Promise<LedgerVerifyBody> {
  const witnessed = options.witness ? await options.witness.latest() : undefined;
  const verdict = await verifyChain(store, {
    signingKey: options.signingKey ?? null,
    head: options.head ?? null,
    ...(witnessed !== undefined && { witnessed }),
    coverage: { now: options.now ?? new Date(), graceMs: COVERAGE_GRACE_MS },
  });
  const failure = verdict.failure ?? (await forgedSnapshot(store)) ?? (await unreadableEvent(store));
  return {
    ok: failure === null,
    events: verdict.events,
    headHash: verdict.headHash,
    headPosition: verdict.headPosition,
    failure,
    checkpoints: verdict.checkpoints,
  };
}

/** Signs and keeps a checkpoint of the log's head now, after walking the log (null: an empty log, or a store that keeps none); throws when the log does not extend the checkpoints seen. */
export async function checkpointLedger(store: EventStore, signingKey: Uint8Array, now: Date, witness: LedgerWitness | null = null): Promise<LedgerCheckpoint | null> {
  return capability(store, 'checkpoints') && capability(store, 'chain') ? recordCheckpoint(store, signingKey, now, witness) : null;
}

/** What /api/health says of the ledger's checkpoints. */
export interface LedgerHealth {
  /** off: no key; signing: the log extends every checkpoint seen; refused: it does not, nothing more is signed. */
  state: 'off' | 'signing' | 'refused';
  witness: boolean;
  latestPosition: number | null;
  reason?: string;
}

export interface LedgerCheckpoints {
  stop(): Promise<void>;
  status(): LedgerHealth;
  /** The witness checkpoints are written to (LEDGER_WITNESS), which verification compares with. */
  witness: LedgerWitness | null;
}

/**
 * Signs the log's head at start, every CHECKPOINT_INTERVAL_MS (when it moved) and once more when
 * stopped, before the store closes, each time only after walking the log on from the last signing,
 * the first time from the newest checkpoint, while the log before it is walked at AUDIT_CPU_SHARE
 * (LedgerSigner). Without a key it records nothing and says so once; when the log does not extend
 * the checkpoints seen it stops signing, says why, and status() reports it for /api/health.
 */
export function startLedgerCheckpoints(
  store: EventStore,
  signingKey: Uint8Array | null,
  log: (line: string) => void,
  options: { witness?: LedgerWitness | null; now?: () => Date } = {},
): LedgerCheckpoints {
  const witness = options.witness ?? null;
  const now = options.now ?? (() => new Date());
  if (!signingKey || !capability(store, 'checkpoints') || !capability(store, 'chain')) {
    if (!signingKey) {
      log(
        '[ledger] LEDGER_SIGNING_KEY is not set: no signed checkpoints of the log head are recorded, so a rewritten copy of the ' +
          'log is caught only against a head you kept (npm run cli -- ledger-head). Set it from a secret store, outside DATA_DIR.',
      );
    }
    return { stop: async () => {}, status: () => ({ state: 'off', witness: witness !== null, latestPosition: null }), witness };
  }
  if (!witness) {
    log(
      '[ledger] LEDGER_WITNESS is not set: signed checkpoints are kept only in the event store, so someone who rewrites the log and ' +
        'deletes them gets a fresh signature at the next start. Set it to a file or s3:// place outside DATA_DIR.',
    );
  }
  const signer = new LedgerSigner(store, signingKey, witness, 'newest checkpoint');
  let said = false;
  let stopped = false;
  let running: Promise<unknown> = Promise.resolve();
  let auditTimer: NodeJS.Timeout | undefined;
  // One at a time: a signing and an audit batch never overlap, and stop() waits for the last.
  const then = (step: () => Promise<unknown>) => {
    running = running
      .then(step)
      .then(() => {
        const refusal = signer.refusal;
        if (refusal && !said) {
          said = true;
          log(
            `[ledger] REFUSING to sign the log's head: ${refusal.problem} event in stream ${refusal.streamId} at position ${refusal.position}: ${refusal.detail}. ` +
              'The log does not extend the checkpoints signed before; run verify-ledger and restore the event store from a backup.',
          );
        }
      })
      .catch((err: unknown) => log(`[ledger] checkpoint failed: ${String(err)}`));
    return running;
  };
  const once = () => then(() => signer.sign(now()));
  const auditSome = () =>
    then(async () => {
      const began = performance.now();
      if (!(await signer.audit()) || stopped) return;
      auditTimer = setTimeout(auditSome, (performance.now() - began) * (1 / AUDIT_CPU_SHARE - 1));
      auditTimer.unref();
    });
  void once().then(auditSome);
  const timer = setInterval(() => void once(), CHECKPOINT_INTERVAL_MS);
  timer.unref();
  return {
    witness,
    async stop() {
      stopped = true;
      clearInterval(timer);
      clearTimeout(auditTimer);
      await once();
    },
    status() {
      const refusal = signer.refusal;
      return {
        state: refusal ? 'refused' : 'signing',
        witness: witness !== null,
        latestPosition: signer.latest?.position ?? null,
        ...(refusal && { reason: `${refusal.problem} event in stream ${refusal.streamId} at position ${refusal.position}: ${refusal.detail}` }),
      };
    },
  };
}
