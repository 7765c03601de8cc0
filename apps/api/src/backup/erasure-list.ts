/**
 * The erasure list: one JSON line per erasure carried out, holding ids and a time only (no personal
 * data), appended and synced. It lives outside the files a backup copies (beside the ledger witness,
 * or at ERASURE_LIST), so a backup taken before an erasure can be restored without bringing the
 * person back: `restore` re-applies every erasure the list names.
 */
import { mkdir, open, readFile } from 'node:fs/promises';
import { dirname } from 'node:path';
import type { Config } from '../config.ts';

export interface ErasureRecord {
  userId: string;
  requestId: string;
  erasedBy: string;
  erasedAt: string;
}

function parseRecord(text: string): ErasureRecord | null {
  try {
    const value = JSON.parse(text) as Partial<ErasureRecord>;
    return typeof value.userId === 'string' && typeof value.requestId === 'string' && typeof value.erasedBy === 'string' && typeof value.erasedAt === 'string'
      ? { userId: value.userId, requestId: value.requestId, erasedBy: value.erasedBy, erasedAt: value.erasedAt }
      : null;
  } catch {
    return null;
  }
}

/** Appends one erasure. A retried erasure appends it again; readers keep the first line per user. */
export async function recordErasure(config: Pick<Config, 'erasureList'>, record: ErasureRecord): Promise<void> {
  await mkdir(dirname(config.erasureList), { recursive: true });
  const file = await open(config.erasureList, 'a');
  try {
    // A leading newline ends a line a crash may have cut short, so this one parses on its own.
    const { userId, requestId, erasedBy, erasedAt } = record;
    await file.write(`\n${JSON.stringify({ userId, requestId, erasedBy, erasedAt })}\n`);
    await file.datasync();
  } finally {
    await file.close();
  }
}

/** Every erasure the list holds, first line per user, in the order recorded; none when there is no list. */
export async function readErasures(path: string): Promise<ErasureRecord[]> {
  let text: string;
  try {
    text = await readFile(path, 'utf8');
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code === 'ENOENT') return [];
    throw err;
  }
  const byUser = new Map<string, ErasureRecord>();
  for (const line of text.split('\n')) {
    const record = parseRecord(line);
    if (record && !byUser.has(record.userId)) byUser.set(record.userId, record);
  }
  return [...byUser.values()];
}
