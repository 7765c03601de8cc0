import type { LedgerVerifyBody } from '@kamai/contracts';
import type { EventStore } from '@kamai/domain';
import { type KeptHead, type LedgerCheckpoint, isChainSource, isCheckpointStore, recordCheckpoint, verifyChain } from '../event-store/chain.ts';

/** The tamper check over the whole event store, as `verify-ledger` and GET /api/admin/ledger/verify answer it. */
export async function verifyLedger(
  store: EventStore,
  options: { signingKey?: Uint8Array | null; head?: KeptHead | null } = {},
): Promise<LedgerVerifyBody> {
  if (!isChainSource(store)) throw new Error('this event store cannot be verified');
  const verdict = await verifyChain(store, options);
  return {
    ok: verdict.ok,
    events: verdict.events,
    headHash: verdict.headHash,
    headPosition: verdict.headPosition,
    failure: verdict.failure,
    checkpoints: verdict.checkpoints,
  };
}

/** Signs and keeps a checkpoint of the log's head now (null: an empty log, or a store that keeps none). */
export async function checkpointLedger(store: EventStore, signingKey: Uint8Array, now: Date): Promise<LedgerCheckpoint | null> {
  return isCheckpointStore(store) ? recordCheckpoint(store, signingKey, now) : null;
}

/** How often a server signs the log's head while it moves. */
export const CHECKPOINT_INTERVAL_MS = 60_000;

/**
 * Records a signed checkpoint every CHECKPOINT_INTERVAL_MS (when the head moved) and once more when
 * stopped, before the store closes. Without a key it records nothing and says so once.
 */
export function startLedgerCheckpoints(
  store: EventStore,
  signingKey: Uint8Array | null,
  log: (line: string) => void,
  now: () => Date = () => new Date(),
): { stop(): Promise<void> } {
  if (!signingKey) {
    log(
      '[ledger] LEDGER_SIGNING_KEY is not set: no signed checkpoints of the log head are recorded, so a rewritten copy of the ' +
        'log is caught only against a head you kept (npm run cli -- ledger-head). Set it from a secret store, outside DATA_DIR.',
    );
    return { stop: async () => {} };
  }
  let running: Promise<unknown> = Promise.resolve();
  const once = () => {
    running = running.then(() => checkpointLedger(store, signingKey, now())).catch((err: unknown) => log(`[ledger] checkpoint failed: ${String(err)}`));
    return running;
  };
  const timer = setInterval(() => void once(), CHECKPOINT_INTERVAL_MS);
  timer.unref();
  return {
    async stop() {
      clearInterval(timer);
      await once();
    },
  };
}
