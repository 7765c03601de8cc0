import { queryOptions } from '@tanstack/react-query';
import type { LedgerBalanceBody, LedgerUserLookupBody } from '@kamai/contracts';
import { apiRequest, readJson } from '../../lib/api.ts';

/** The person a wallet belongs to, as a money confirmation names them. */
export interface LedgerPerson {
  name: string;
  mobile: string;
  /** Available balance now, a decimal string. */
  balance: string;
}

/**
 * Whose mobile number this is: the number goes in a POST body (a path is written to request logs and
 * browser histories); the ledger routes then take the user id. An unknown number answers the
 * server's 404, whose `fields.mobile` a form can show.
 */
export async function lookUpLedgerUser(mobile: string): Promise<LedgerUserLookupBody> {
  const found = await readJson<LedgerUserLookupBody>(await apiRequest('POST', '/api/admin/ledger/users/lookup', { mobile }));
  if (!found) throw new Error('Empty answer from /api/admin/ledger/users/lookup');
  return found;
}

/** Who a mobile number belongs to and their available balance now. */
export const ledgerPersonQuery = (mobile: string) =>
  queryOptions({
    queryKey: ['ledger-person', mobile],
    queryFn: async (): Promise<LedgerPerson> => {
      const user = await lookUpLedgerUser(mobile);
      const balance = await readJson<LedgerBalanceBody>(await apiRequest('GET', `/api/admin/ledger/users/${encodeURIComponent(user.id)}/balance`));
      if (!balance) throw new Error('Empty answer from the balance');
      return { name: user.name, mobile: user.mobile, balance: balance.available };
    },
    // A confirmation shows the balance of this moment, never a remembered one.
    staleTime: 0,
    gcTime: 0,
    retry: false,
  });
