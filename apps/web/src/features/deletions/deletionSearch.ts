import { compact, word } from '../../lib/searchParams.ts';

/** /admin/deletions' address: the status shown (pending when absent). */
export interface DeletionSearch {
  status?: string;
}

export const deletionSearch = (search: Record<string, unknown>): DeletionSearch => compact<DeletionSearch>({ status: word(search.status) });
