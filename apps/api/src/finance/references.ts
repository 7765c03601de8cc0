import { streams, msg } from '@kamai/contracts';
import { normaliseReference, referenceDecider } from '@kamai/domain';
import { sql } from 'kysely';
import { handleCommand } from '../commands/handle.ts';
import type { AppDeps } from '../deps.ts';
import { ApiError } from '../http/errors.ts';

const duplicate = () => new ApiError(409, 'duplicate_reference', msg('api.duplicateReference'), { reference: msg('api.duplicateReference') });

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
  // Withdrawals paid before references were reserved are only in the read model.
  const earlier = await deps.db
    .selectFrom('withdrawal_requests')
    .select('id')
    .where('status', '=', 'paid')
    .where('id', '!=', command.withdrawalId)
    .where(sql<string>`upper(replace(reference, ' ', ''))`, '=', reference)
    .executeTakeFirst();
  if (earlier) throw duplicate();

  const streamId = streams.reference(reference);
  const now = deps.now().toISOString();
  const reserved = await handleCommand(
    deps.store,
    streamId,
    referenceDecider,
    { type: 'ReserveReference', data: { reference, withdrawalId: command.withdrawalId, by: command.by }, now },
    { actor: command.by },
  ).catch((err: unknown) => {
    if (err instanceof Error && 'code' in err && err.code === 'duplicate_reference') throw duplicate();
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
