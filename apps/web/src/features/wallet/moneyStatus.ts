import { parseRupees } from '@kamai/contracts';
import type { TransactionBody, UserTaskBody, WithdrawalBody } from '@kamai/contracts';

/**
 * The withdrawal request a wallet entry paid out: the ledger debit of a request is recorded at the
 * moment of the request (same time, same amount), so they are matched on both; a refund credit of a
 * rejected request is not a withdrawal row. Null for every other entry.
 */
export function withdrawalFor<W extends Pick<WithdrawalBody, 'requestedAt' | 'amount'>>(
  transaction: Pick<TransactionBody, 'kind' | 'direction' | 'amount' | 'createdAt'>,
  withdrawals: readonly W[] | undefined,
): W | null {
  if (transaction.kind !== 'withdrawal' || transaction.direction !== 'debit' || !withdrawals) return null;
  const paise = parseRupees(transaction.amount);
  const at = Date.parse(transaction.createdAt);
  return withdrawals.find((w) => Date.parse(w.requestedAt) === at && parseRupees(w.amount) === paise) ?? null;
}

/** Money not in the balance yet or not out of it yet, in paise: rewards of proofs under review, and requested withdrawals not yet paid. */
export function moneyInFlight(
  userTasks: readonly Pick<UserTaskBody, 'status' | 'rupeeReward'>[] | undefined,
  withdrawals: readonly Pick<WithdrawalBody, 'status' | 'amount'>[] | undefined,
): { underReviewPaise: number; onItsWayPaise: number } {
  const sum = (amounts: string[]) => amounts.reduce((total, amount) => total + (parseRupees(amount) ?? 0), 0);
  return {
    underReviewPaise: sum((userTasks ?? []).filter((t) => t.status === 'submitted').map((t) => t.rupeeReward)),
    onItsWayPaise: sum((withdrawals ?? []).filter((w) => w.status === 'pending').map((w) => w.amount)),
  };
}
