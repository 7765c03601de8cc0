import { parseRupees } from '@kamai/contracts';
import type { TransactionBody, UserTaskBody, WithdrawalBody } from '@kamai/contracts';

/**
 * The withdrawal request a wallet entry paid out, by the id the entry carries; a refund credit of a
 * rejected request opens no request. Null for every other entry.
 */
export function withdrawalFor<W extends Pick<WithdrawalBody, 'id'>>(
  transaction: Pick<TransactionBody, 'kind' | 'direction' | 'withdrawalId'>,
  withdrawals: readonly W[] | undefined,
): W | null {
  if (transaction.kind !== 'withdrawal' || transaction.direction !== 'debit' || !transaction.withdrawalId || !withdrawals) return null;
  return withdrawals.find((w) => w.id === transaction.withdrawalId) ?? null;
}

/**
 * Money not in the balance yet or not out of it yet, in paise: rewards of proofs under review, and
 * requested withdrawals not yet paid (the server's `pendingPayout` of the signed-in user).
 */
export function moneyInFlight(
  userTasks: readonly Pick<UserTaskBody, 'status' | 'rupeeReward'>[] | undefined,
  pendingPayout: string | undefined,
): { underReviewPaise: number; onItsWayPaise: number } {
  const sum = (amounts: string[]) => amounts.reduce((total, amount) => total + (parseRupees(amount) ?? 0), 0);
  return {
    underReviewPaise: sum((userTasks ?? []).filter((t) => t.status === 'submitted').map((t) => t.rupeeReward)),
    onItsWayPaise: pendingPayout === undefined ? 0 : (parseRupees(pendingPayout) ?? 0),
  };
}
