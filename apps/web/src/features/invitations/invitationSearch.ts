import { compact, word } from '../../lib/searchParams.ts';

/**
 * /admin/invitations' address: the status shown (every invitation when absent). A module of its own:
 * the route tree (in the first download) imports it, and importing it from the screen's module put
 * the whole screen, lib/api.ts and the error schemas into the entry chunk.
 */
export const invitationSearch = (search: Record<string, unknown>): { status?: string } => compact<{ status?: string }>({ status: word(search.status) });
