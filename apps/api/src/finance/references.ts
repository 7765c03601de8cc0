import { streams, msg } from '@kamai/contracts';
import { normaliseReference, referenceDecider } from '@kamai/domain';
import { sql } from 'kysely';
import { handleCommand, loadStream } from '../commands/handle.ts';
import type { AppDeps } from '../deps.ts';
import { ApiError } from '../http/errors.ts';

/** A transfer reference that paid or is held for another withdrawal, as the API refuses it. */
export const duplicateReference = () => new ApiError(409, 'duplicate_reference', msg('api.duplicateReference'), { reference: msg('api.duplicateReference') });

/**
 * Runs `pay` holding the transfer reference for this withdrawal: a `utr-<reference>` stream is
 * reserved first (appended with `no_stream`, so of two processes paying two withdrawals with one
 * reference exactly one gets it). When the pay is refused, a reservation made by this call is
 * released so the reference can still pay the withdrawal it belongs to.
 */
export async function withReservedReference<T>(
  deps: AppDeps,
  command: { reference: string; withdrawalId: string; by: string },
  pay: () => Promise<T>,
): Promise<T> {
  const reference = normaliseReference(command.reference);
  await assertNotPaidBefore(deps, reference, command.withdrawalId);
  const streamId = streams.reference(reference);
  const now = deps.now().toISOString();
  const reserved = await handleCommand(
    deps.store,
    streamId,
    referenceDecider,
    { type: 'ReserveReference', data: { reference, withdrawalId: command.withdrawalId, by: command.by }, now },
    { actor: command.by },
  ).catch((err: unknown) => {
    if (err instanceof Error && 'code' in err && err.code === 'duplicate_reference') throw duplicateReference();
    throw err;
  });
  try {
    return await pay();
  } catch (err) {
    if (reserved.events.length > 0) {
      await handleCommand(
        deps.store,
        streamId,
        referenceDecider,
        { type: 'ReleaseReference', data: { reference, withdrawalId: command.withdrawalId }, now: deps.now().toISOString() },
        { actor: command.by },
      );
    }
    throw err;
  }
}

/** Withdrawals paid before references were reserved are only in the read model: such a reference is taken. */
async function assertNotPaidBefore(deps: AppDeps, reference: string, withdrawalId: string): Promise<void> {
  const earlier = await deps.db
    .selectFrom('withdrawal_requests')
    .select('id')
    .where('status', '=', 'paid')
    .where('id', '!=', withdrawalId)
    .where(sql<string>`upper(replace(reference, ' ', ''))`, '=', reference)
    .executeTakeFirst();
  if (earlier) throw duplicateReference();
}

/**
 * Refuses (409 `duplicate_reference`) a reference that paid or is held for another withdrawal,
 * appending nothing: a hand payment asks this before it records its intent.
 */
export async function assertReferenceFree(deps: AppDeps, reference: string, withdrawalId: string): Promise<void> {
  const normalised = normaliseReference(reference);
  await assertNotPaidBefore(deps, normalised, withdrawalId);
  const { state } = await loadStream(deps.store, streams.reference(normalised), referenceDecider);
  if (state.withdrawalId !== null && state.withdrawalId !== withdrawalId) throw duplicateReference();
}
