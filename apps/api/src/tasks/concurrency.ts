import { streams, msg } from '@kamai/contracts';
import { type EventStore, WrongExpectedRevisionError } from '@kamai/domain';
import type { Context } from 'hono';
import { ApiError } from '../http/errors.ts';

/**
 * Optimistic concurrency for admin edits: a task's ETag is its stream's revision, and PUT and
 * DELETE must send it back in If-Match. The command is decided on exactly that revision, so an edit
 * made on an older copy is refused (412) instead of silently overwriting the newer one.
 */

export const etagOf = (revision: number) => `"${revision}"`;

/** The task stream's revision and the position of its last event, or null when it has none. */
export async function taskRevision(store: EventStore, taskId: string): Promise<{ revision: number; position: number } | null> {
  const last = (await store.readStream(streams.task(taskId))).at(-1);
  return last ? { revision: last.revision, position: last.position } : null;
}

const preconditionFailed = () => new ApiError(412, 'precondition_failed', msg('task.changedBySomeoneElse'));

/** The revision If-Match names: 428 when the header is missing, 412 when it names no revision. */
export function ifMatchRevision(c: Context): number {
  const header = c.req.header('if-match')?.trim();
  if (!header) throw new ApiError(428, 'precondition_required', msg('task.ifMatchRequired'));
  // A strong ETag as we send it; a weak one cannot satisfy If-Match (RFC 9110, 13.1.1).
  const match = /^"(\d{1,15})"$/.exec(header);
  if (!match) throw preconditionFailed();
  return Number(match[1]);
}

/**
 * A command made with the If-Match revision (handleCommand's expectedRevision): a task that moved on
 * (before the decision or at its append) answers 412, also for an edit that would change nothing.
 */
export async function preconditioned<T>(command: Promise<T>): Promise<T> {
  try {
    return await command;
  } catch (err) {
    if (err instanceof WrongExpectedRevisionError) throw preconditionFailed();
    throw err;
  }
}
