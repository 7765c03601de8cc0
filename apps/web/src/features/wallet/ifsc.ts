/**
 * IFSC codes checked offline against the `ifsc` package's dataset (Razorpay's, kept up to date from
 * RBI lists): the bank part (4 letters) must be a bank, and the branch part a branch of it. The
 * package's own entry point fetches branch details over the network (Node only), so its two data
 * files are read directly, and only when a bank account form opens (they are about 1 MB).
 * Branch names are not in this data; the server's branch directory names them (ifscBranchQuery).
 */
import { queryOptions } from '@tanstack/react-query';
import type { IfscBranchBody } from '@kamai/contracts';
import { throwIfNotOk } from '../../lib/http.ts';

type Codes = Record<string, (string | number)[]>;
export interface IfscData {
  codes: Codes;
  names: Record<string, string>;
}

let loading: Promise<IfscData> | null = null;

export function loadIfscData(): Promise<IfscData> {
  loading ??= Promise.all([import('ifsc/src/IFSC.json'), import('ifsc/src/banknames.json')]).then(([codes, names]) => ({
    codes: codes.default as unknown as Codes,
    names: names.default as unknown as Record<string, string>,
  }));
  return loading;
}

export type IfscLookup = { valid: true; bankName: string } | { valid: false };

/** The same rule as the package's `validate`, plus the bank's name. */
export function lookupIfsc(input: string, data: IfscData): IfscLookup {
  const code = input.trim().toUpperCase();
  if (!/^[A-Z]{4}0[A-Z0-9]{6}$/.test(code)) return { valid: false };
  const bank = code.slice(0, 4);
  const branch = code.slice(5);
  const branches = Object.hasOwn(data.codes, bank) ? data.codes[bank] : undefined;
  if (!branches) return { valid: false };
  const known = /^\d+$/.test(branch) ? branches.includes(Number.parseInt(branch, 10)) : branches.includes(branch);
  if (!known) return { valid: false };
  return { valid: true, bankName: data.names[bank] ?? bank };
}

/**
 * The branch behind an IFSC, from the server's offline branch directory (GET /api/ifsc/:code).
 * null when the server has none (404 no_branch_directory) or does not list the code (404
 * unknown_ifsc, e.g. a directory older than the bank list here): the form then names the bank only.
 */
export const ifscBranchQuery = (code: string) =>
  queryOptions({
    queryKey: ['/api/ifsc', code],
    queryFn: async ({ signal }): Promise<IfscBranchBody | null> => {
      const response = await fetch(`/api/ifsc/${encodeURIComponent(code)}`, { credentials: 'include', signal });
      if (response.status === 404) return null;
      await throwIfNotOk(response);
      return (await response.json()) as IfscBranchBody;
    },
    // The directory changes with a new release file and a restart, not while a form is open.
    staleTime: Number.POSITIVE_INFINITY,
    retry: false,
  });
