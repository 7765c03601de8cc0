import { compact, idParam, isoDay, word } from '../../lib/searchParams.ts';

/** /admin/audit's address: the filters (who, which action, from and to which day); unset ones left out. */
export interface AuditSearch {
  actor?: string;
  action?: string;
  from?: string;
  to?: string;
}

export const auditSearch = (search: Record<string, unknown>): AuditSearch =>
  compact<AuditSearch>({ actor: idParam(search.actor), action: word(search.action), from: isoDay(search.from), to: isoDay(search.to) });
