import { createReadStream } from 'node:fs';
import { parse } from 'csv-parse';

/** One branch of Razorpay's IFSC.csv, the fields the withdraw form shows. */
export interface IfscBranch {
  bank: string;
  branch: string;
  city: string;
  state: string;
}

interface Row {
  BANK?: string;
  IFSC?: string;
  BRANCH?: string;
  CITY?: string;
  CENTRE?: string;
  STATE?: string;
}

/**
 * Reads Razorpay's IFSC.csv (header BANK,IFSC,BRANCH,CENTRE,DISTRICT,STATE,ADDRESS,...) into a map by
 * code. Columns are found by header name, so a release that adds or reorders columns still loads.
 * Streamed, not parsed in one call: the full file (~45 MB, ~177,000 rows) takes seconds to parse,
 * and a single synchronous parse would hold every other request for that long.
 */
async function readIfscCsv(file: string): Promise<Map<string, IfscBranch>> {
  const rows = createReadStream(file).pipe(parse({ columns: true, skip_empty_lines: true, trim: true, bom: true, relax_column_count: true }));
  const directory = new Map<string, IfscBranch>();
  for await (const row of rows as AsyncIterable<Row>) {
    const code = row.IFSC?.toUpperCase();
    if (!code) continue;
    directory.set(code, { bank: row.BANK ?? '', branch: row.BRANCH ?? '', city: row.CITY || row.CENTRE || '', state: row.STATE ?? '' });
  }
  if (directory.size === 0) throw new Error('no rows with an IFSC column');
  return directory;
}

export type IfscAnswer = { kind: 'found'; branch: IfscBranch } | { kind: 'unknown' } | { kind: 'unavailable' };

/**
 * The branch directory, read once on first use (the full file is ~40 MB; a server that never looks
 * an IFSC up never pays for it). A file that cannot be read or parsed is logged and answers
 * `unavailable` (the form then shows the bank only); it is tried again after `retryAfterMs`, so a
 * fixed file is picked up without a restart, but a broken one is not re-parsed on every request.
 */
export function ifscDirectory(file: string, { retryAfterMs = 60_000, now = Date.now } = {}) {
  let loading: Promise<Map<string, IfscBranch> | null> | null = null;
  let failedAt: number | null = null;
  const load = () =>
    readIfscCsv(file).catch((err: unknown) => {
        failedAt = now();
        console.error(`[api] IFSC_DATASET ${file} could not be loaded:`, err instanceof Error ? err.message : err);
        return null;
      });
  return {
    async lookup(code: string): Promise<IfscAnswer> {
      if (!loading || (failedAt !== null && now() - failedAt >= retryAfterMs)) {
        failedAt = null;
        loading = load();
      }
      const map = await loading;
      if (!map) return { kind: 'unavailable' };
      const branch = map.get(code);
      return branch ? { kind: 'found', branch } : { kind: 'unknown' };
    },
  };
}
