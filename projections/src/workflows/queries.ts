import type { ReadDbHandle } from '../db.ts';

/** Workflows not finished that started at or before `startedBefore` (ISO), oldest first. */
export async function unfinishedWorkflows(db: ReadDbHandle, startedBefore: string) {
  return db
    .selectFrom('workflows')
    .select(['id', 'kind', 'steps', 'recorded', 'started_at'])
    .where('status', '=', 'running')
    .where('started_at', '<=', startedBefore)
    .orderBy('started_at')
    .execute();
}
