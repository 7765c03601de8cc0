import { streams } from '@kamai/contracts';
import { userDecider } from '@kamai/domain';
import { findWithdrawal } from '@kamai/projections';
import { loadStream } from '../commands/handle.ts';
import type { AppDeps } from '../deps.ts';
import { caughtUp } from './ledger-routes.ts';

/** A withdrawal as finance decides on it: whose it is, where it stands, and the UTR that paid it. */
export interface FinanceWithdrawal {
  id: string;
  user_id: string;
  status: string;
  reference: string | null;
}

/**
 * The withdrawal as finance sees it now. With its user known, that user's stream says first (the
 * freshest word); a withdrawal settled and gone from the bounded decision state, or one whose user
 * is not known yet, is read from the read model once it has caught up with the store.
 */
export async function withdrawalAsFinanceSees(deps: AppDeps, withdrawalId: string, userId?: string): Promise<FinanceWithdrawal | undefined> {
  if (userId !== undefined) {
    const { state } = await loadStream(deps.store, streams.user(userId), userDecider);
    const record = state.withdrawals.byId.get(withdrawalId);
    if (record) return { id: withdrawalId, user_id: userId, status: record.status, reference: record.reference };
  }
  await caughtUp(deps);
  const row = await findWithdrawal(deps.db, withdrawalId);
  if (!row || (userId !== undefined && row.user_id !== userId)) return undefined;
  return { id: row.id, user_id: row.user_id, status: row.status, reference: row.reference };
}
