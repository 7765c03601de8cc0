import { getRouteApi } from '@tanstack/react-router';
import { compact } from '../../lib/searchParams.ts';
import type { FinanceSearch } from './financeSearch.ts';

const route = getRouteApi('/_authed/admin/finance');

/**
 * The finance screen's address: its search params and a setter that changes some of them in place
 * (replace: Back leaves the screen rather than stepping through every tab and filter picked).
 */
export function useFinanceSearch(): [FinanceSearch, (change: SearchChange) => void] {
  const search = route.useSearch();
  const navigate = route.useNavigate();
  const set = (change: SearchChange) =>
    void navigate({ search: (previous) => compact<FinanceSearch>({ ...previous, ...change }), replace: true, resetScroll: false });
  return [search, set];
}

/** Some params to set; undefined (or '') takes one out of the address. */
type SearchChange = { [K in keyof FinanceSearch]?: FinanceSearch[K] | '' | undefined };
