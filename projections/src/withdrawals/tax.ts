import type { ReadDbHandle } from '../db.ts';

/** A withdrawal given back whole (its tax returned by a `tax_refund`): no deduction remains of it. */
const GIVEN_BACK = ['rejected', 'failed', 'reversed'] as const;

/** One deduction of tax at source: a withdrawal whose tax was withheld and not given back. */
export interface TaxDeduction {
  withdrawalId: string;
  userId: string;
  /** The withdrawal before tax (the amount paid or credited, for the return). */
  amountPaise: number;
  taxPaise: number;
  /** The rules' codes, joined by " + " when several charged it. */
  code: string;
  requestedAt: string;
}

/**
 * The deductions requested between two instants (inclusive), in log order. A rejected, failed or
 * reversed withdrawal's tax was given back whole, so it nets out by leaving the list. A scan of the
 * withdrawals (no index on the time): for the quarter's export, not a hot path.
 */
export async function taxDeductions(db: ReadDbHandle, from: string, to: string): Promise<TaxDeduction[]> {
  const rows = await db
    .selectFrom('withdrawal_requests')
    .select(['id', 'user_id', 'amount_paise', 'tax_paise', 'tax_code', 'requested_at'])
    .where('tax_paise', '>', 0)
    .where('requested_at', '>=', from)
    .where('requested_at', '<=', to)
    .where('status', 'not in', GIVEN_BACK)
    .orderBy('position')
    .execute();
  return rows.map((r) => ({ withdrawalId: r.id, userId: r.user_id, amountPaise: r.amount_paise, taxPaise: r.tax_paise, code: r.tax_code ?? '', requestedAt: r.requested_at }));
}

/** Per person, between two instants: withdrawn (before tax) and the tax withheld, given-back withdrawals left out. */
export async function withdrawalTaxTotals(db: ReadDbHandle, from: string, to: string): Promise<Map<string, { grossPaise: number; taxPaise: number }>> {
  const rows = await db
    .selectFrom('withdrawal_requests')
    .select((eb) => ['user_id', eb.fn.sum<number>('amount_paise').as('gross'), eb.fn.sum<number>('tax_paise').as('tax')])
    .where('requested_at', '>=', from)
    .where('requested_at', '<=', to)
    .where('status', 'not in', GIVEN_BACK)
    .groupBy('user_id')
    .execute();
  return new Map(rows.map((r) => [r.user_id, { grossPaise: Number(r.gross), taxPaise: Number(r.tax) }]));
}

/** One person's withdrawals not given back (time, before tax, tax), for their own yearly summary. */
export async function myTaxedWithdrawals(db: ReadDbHandle, userId: string): Promise<Array<{ requestedAt: string; amountPaise: number; taxPaise: number }>> {
  const rows = await db
    .selectFrom('withdrawal_requests')
    .select(['requested_at', 'amount_paise', 'tax_paise'])
    .where('user_id', '=', userId)
    .where('status', 'not in', GIVEN_BACK)
    .orderBy('position')
    .execute();
  return rows.map((r) => ({ requestedAt: r.requested_at, amountPaise: r.amount_paise, taxPaise: r.tax_paise }));
}

/** The approved PAN of each person who has one (what the lower rate was charged on). */
export async function approvedPansOf(db: ReadDbHandle, userIds: readonly string[]): Promise<Map<string, string>> {
  const pans = new Map<string, string>();
  for (let i = 0; i < userIds.length; i += 500) {
    const rows = await db
      .selectFrom('kyc_documents')
      .select(['user_id', 'pan_number'])
      .where('document_type', '=', 'pan')
      .where('status', '=', 'approved')
      .where('pan_number', 'is not', null)
      .where('user_id', 'in', userIds.slice(i, i + 500))
      .orderBy('position')
      .execute();
    for (const r of rows) if (r.pan_number !== null) pans.set(r.user_id, r.pan_number);
  }
  return pans;
}
