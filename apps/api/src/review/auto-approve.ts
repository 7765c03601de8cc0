import { CHANGES_RESUBMIT_HOURS, SYSTEM_ACTOR, streams } from '@kamai/contracts';
import { DomainError, type EventStore, taskDecider } from '@kamai/domain';
import type { ReadDbHandle } from '@kamai/projections';
import { loadStream } from '../commands/handle.ts';
import { loadLimits } from '../settings/limits.ts';
import { lapseChangeRequest, releaseSlot, reviewProof } from '../tasks/commands.ts';

/** A slot taken this long ago with no proof recorded for it was left by a process that stopped. */
const ORPHAN_SLOT_MS = 10 * 60_000;
/** Submissions approved per sweep at most; the next sweep (a minute later) takes the rest. */
const BATCH = 500;

export interface SweepResult {
  approved: string[];
  /** Decided meanwhile by a reviewer or another process's sweep: left as they are. */
  alreadyDecided: number;
  releasedSlots: number;
  /** Change requests unanswered for CHANGES_RESUBMIT_HOURS, now rejections. */
  lapsed: string[];
}

/**
 * The auto-approval sweep, as of `now`: every proof still under review `autoApproveAfterHours`
 * after it came in is approved by the system (actor `system`), credited like any approval. The read
 * model only names candidates; each approval is decided on the owner's stream, so with several
 * processes sweeping at once (or a reviewer deciding meanwhile) the stream's revision lets exactly
 * one decision through and the others are refused and skipped: a reward is credited once.
 *
 * It also gives back completion slots a rejection or a stopped process left held (the rejection
 * path normally does it at once).
 */
export async function runAutoApprovals(deps: { store: EventStore; db: ReadDbHandle; now: Date }): Promise<SweepResult> {
  const { store, db, now } = deps;
  const result: SweepResult = { approved: [], alreadyDecided: 0, releasedSlots: 0, lapsed: [] };
  const { autoApproveAfterHours } = await loadLimits(store);
  if (autoApproveAfterHours > 0) {
    const cutoff = new Date(now.getTime() - autoApproveAfterHours * 60 * 60 * 1000).toISOString();
    const due = await dueSubmissions(db, 'submitted', cutoff);
    for (const submission of due) {
      try {
        await reviewProof(store, submission.user_id, { decision: 'approve', submissionId: submission.id, reviewerId: SYSTEM_ACTOR }, now);
        result.approved.push(submission.id);
      } catch (err) {
        if (!(err instanceof DomainError && err.kind === 'conflict')) throw err;
        result.alreadyDecided += 1;
      }
    }
  }
  result.lapsed = await lapseChangeRequests(store, db, now);
  result.releasedSlots = await releaseLeftSlots(store, db, now);
  return result;
}

/** Up to BATCH submissions in `status` since `cutoff` or before: under review since they came in, sent back since asked. */
function dueSubmissions(db: ReadDbHandle, status: 'submitted' | 'needs_changes', cutoff: string) {
  return db
    .selectFrom('proof_submissions')
    .select(['id', 'user_id'])
    .where('status', '=', status)
    .where(status === 'submitted' ? 'submitted_at' : 'reviewed_at', '<=', cutoff)
    .orderBy('position')
    .limit(BATCH)
    .execute();
}

/**
 * Change requests the person has not answered within CHANGES_RESUBMIT_HOURS become rejections, each
 * decided on the owner's stream (a resubmission or another sweep meanwhile: refused, skipped).
 */
async function lapseChangeRequests(store: EventStore, db: ReadDbHandle, now: Date): Promise<string[]> {
  const cutoff = new Date(now.getTime() - CHANGES_RESUBMIT_HOURS * 60 * 60 * 1000).toISOString();
  const due = await dueSubmissions(db, 'needs_changes', cutoff);
  const lapsed: string[] = [];
  for (const submission of due) {
    try {
      await lapseChangeRequest(store, submission.user_id, submission.id, now);
      lapsed.push(submission.id);
    } catch (err) {
      if (!(err instanceof DomainError && err.kind === 'conflict')) throw err;
    }
  }
  return lapsed;
}

/** Slots held by a rejected proof, or by no proof long after they were taken: given back. */
async function releaseLeftSlots(store: EventStore, db: ReadDbHandle, now: Date): Promise<number> {
  // Only tasks whose slot count is above their live submissions can hold such a slot.
  const suspects = await db
    .selectFrom('tasks as t')
    .select('t.id')
    .where('t.slots_used', '>', (eb) =>
      eb.selectFrom('proof_submissions as s').select(eb.fn.countAll<number>().as('n')).whereRef('s.task_id', '=', 't.id').where('s.status', 'in', ['submitted', 'approved']),
    )
    .execute();
  let released = 0;
  for (const { id: taskId } of suspects) {
    const { state } = await loadStream(store, streams.task(taskId), taskDecider);
    if (state.status === 'absent') continue;
    const held = [...state.held];
    for (const [submissionId, takenAt] of held) {
      const row = await db.selectFrom('proof_submissions').select('status').where('id', '=', submissionId).executeTakeFirst();
      const why = row?.status === 'rejected' ? 'rejected' : !row && now.getTime() - Date.parse(takenAt) > ORPHAN_SLOT_MS ? 'not_submitted' : null;
      if (!why) continue;
      const { events } = await releaseSlot(store, taskId, submissionId, why, SYSTEM_ACTOR, now);
      released += events.length;
    }
  }
  return released;
}
