import type { LedgerVerifyBody } from '@kamai/contracts';
import type { EventStore } from '@kamai/domain';
import { isChainSource, verifyChain } from '../event-store/chain.ts';

/** The tamper check over the whole event store, as `verify-ledger` and GET /api/admin/ledger/verify answer it. */
export async function verifyLedger(store: EventStore): Promise<LedgerVerifyBody> {
  if (!isChainSource(store)) throw new Error('this event store cannot be verified');
  const verdict = await verifyChain(store);
  return {
    ok: verdict.ok,
    events: verdict.events,
    headHash: verdict.headHash,
    headPosition: verdict.headPosition,
    failure: verdict.failure,
  };
}
