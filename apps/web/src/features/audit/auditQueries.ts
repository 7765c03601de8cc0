import { infiniteQueryOptions, queryOptions } from '@tanstack/react-query';
import type { AuditAction, AuditActorBody, AuditEntryBody } from '@kamai/contracts';
import { apiRequest, getJson, readJson } from '../../lib/api.ts';

/** The screen's filters as the API takes them; an empty value means "any". */
export interface AuditFilters {
  actor: string;
  action: AuditAction | '';
  from: string;
  to: string;
}

export const NO_FILTERS: AuditFilters = { actor: '', action: '', from: '', to: '' };

/** The audit list's page size on screen: small enough for a phone, "Load more" fetches the next. */
export const AUDIT_SCREEN_PAGE = 25;

function auditUrl(filters: AuditFilters, cursor: string | null): string {
  const params = new URLSearchParams({ limit: String(AUDIT_SCREEN_PAGE) });
  for (const name of ['actor', 'action', 'from', 'to'] as const) if (filters[name]) params.set(name, filters[name]);
  if (cursor) params.set('cursor', cursor);
  return `/api/admin/audit?${params.toString()}`;
}

/**
 * `GET /api/admin/audit`, newest first, a page at a time: each page names the next by its
 * `X-Next-Cursor` header, sent back with the same filters, so the list is never cut off silently.
 */
export const auditListQuery = (filters: AuditFilters) =>
  infiniteQueryOptions({
    queryKey: ['/api/admin/audit', filters],
    initialPageParam: null as string | null,
    queryFn: async ({ pageParam }): Promise<{ rows: AuditEntryBody[]; next: string | null }> => {
      const response = await apiRequest('GET', auditUrl(filters, pageParam));
      const next = response.headers.get('x-next-cursor');
      return { rows: (await readJson<AuditEntryBody[]>(response)) ?? [], next };
    },
    getNextPageParam: (last) => last.next,
  });

/** Everyone who appears as an actor in the audit list (staff, or the system), for the actor filter. */
export const auditActorsQuery = () => queryOptions({ queryKey: ['/api/admin/audit/actors'], queryFn: getJson<AuditActorBody[]>() });
