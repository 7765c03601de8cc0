import { queryOptions } from '@tanstack/react-query';
import type { StatementBody } from '@kamai/contracts';
import { getJson } from '../../lib/api.ts';

/** The person a wallet belongs to, as a money confirmation names them. */
export interface LedgerPerson {
  name: string;
  mobile: string;
  /** Available balance now, a decimal string. */
  balance: string;
}

/**
 * Who a mobile number belongs to and their balance now. Read from their ledger statement starting
 * this moment: the answer carries the name and the closing balance with (next to) no entries, so it
 * stays small however long the history is. An unknown number answers the server's 404, whose
 * `fields.mobile` a form can show.
 */
export const ledgerPersonQuery = (mobile: string) =>
  queryOptions({
    queryKey: ['ledger-person', mobile],
    queryFn: async (context): Promise<LedgerPerson> => {
      const from = encodeURIComponent(new Date().toISOString());
      const url = `/api/admin/ledger/users/${encodeURIComponent(mobile)}/statement?from=${from}`;
      const statement = await getJson<StatementBody>()({ ...context, queryKey: [url] });
      return { name: statement.user.name, mobile: statement.user.mobile, balance: statement.closing.available };
    },
    // A confirmation shows the balance of this moment, never a remembered one.
    staleTime: 0,
    gcTime: 0,
    retry: false,
  });
