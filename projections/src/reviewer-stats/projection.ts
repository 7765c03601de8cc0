import { SYSTEM_ACTOR, istDayOf } from '@kamai/contracts';
import type { Projection } from '../projection.ts';
import type { Rows } from '../rows.ts';
import { userIdOf } from '../users/projection.ts';

type Decision = 'approvals' | 'rejections' | 'needs_changes' | 'appeals_lost';

const NO_COUNTS = { approvals: 0, rejections: 0, needs_changes: 0, appeals_lost: 0 };
/** One `on` per counted column: the row writer prepares a statement per distinct `on`. */
const ADD_TO: Record<Decision, { conflict: ['reviewer_id', 'day']; add: [Decision] }> = {
  approvals: { conflict: ['reviewer_id', 'day'], add: ['approvals'] },
  rejections: { conflict: ['reviewer_id', 'day'], add: ['rejections'] },
  needs_changes: { conflict: ['reviewer_id', 'day'], add: ['needs_changes'] },
  appeals_lost: { conflict: ['reviewer_id', 'day'], add: ['appeals_lost'] },
};
const ADD_REJECTION = { conflict: ['user_id', 'day'], add: ['rejections'] } as const;

/**
 * Reviewing seen from above (docs/reviewer-stats.md): per reviewer and IST day, their approvals,
 * rejections, change requests and appeals lost, and each decision's time from the proof's
 * (re)submission, so the API adds days up and takes the median over any range. Not counted as a
 * reviewer's decision: auto-approvals (actor `system`), a change request lapsing into a rejection
 * (the request was the decision) and an appeal's overturn (counted as an appeal lost by the one who
 * rejected). Also each worker's rejections per IST day, for the cap on their approval rate.
 * Only ids, days and counts: nothing here is personal, so an erasure leaves it as it is.
 */
export const reviewerStatsProjection: Projection = {
  name: 'reviewer-stats',
  version: 1,
  tables: {
    review_proofs: { columns: 'submission_id TEXT PRIMARY KEY, user_id TEXT NOT NULL, since TEXT NOT NULL, status TEXT NOT NULL, reviewer_id TEXT' },
    reviewer_days: {
      columns: `reviewer_id TEXT NOT NULL, day TEXT NOT NULL, approvals INTEGER NOT NULL, rejections INTEGER NOT NULL,
        needs_changes INTEGER NOT NULL, appeals_lost INTEGER NOT NULL, PRIMARY KEY (reviewer_id, day)`,
      indexes: { day: 'day' },
    },
    reviewer_decisions: {
      columns: 'position INTEGER PRIMARY KEY, reviewer_id TEXT NOT NULL, day TEXT NOT NULL, seconds INTEGER NOT NULL',
      indexes: { day: 'day, reviewer_id' },
    },
    worker_rejection_days: { columns: 'user_id TEXT NOT NULL, day TEXT NOT NULL, rejections INTEGER NOT NULL, PRIMARY KEY (user_id, day)' },
  },
  handles: ['ProofSubmitted', 'ProofResubmitted', 'ProofApproved', 'ProofRejected', 'ProofChangesRequested', 'AppealDecided'],
  // Who decided and when: no proof's content, no reason.
  opens: [],
  apply(rows, event) {
    switch (event.type) {
      case 'ProofSubmitted': {
        const d = event.data;
        rows.insert('review_proofs', { submission_id: d.submissionId, user_id: userIdOf(event.streamId), since: d.submittedAt, status: 'review', reviewer_id: null });
        return;
      }
      case 'ProofResubmitted': {
        const d = event.data;
        rows.update('review_proofs', { submission_id: d.submissionId }, { set: { since: d.resubmittedAt, status: 'review', reviewer_id: null } });
        return;
      }
      case 'ProofApproved': {
        const d = event.data;
        const proof = rows.get('review_proofs', { submission_id: d.submissionId }, ['status']);
        // An approval of a rejected proof is an appeal's overturn (counted by AppealDecided).
        if (proof?.status === 'review' && d.reviewedBy !== SYSTEM_ACTOR) decide(rows, event.position, d.submissionId, d.reviewedBy, 'approvals', d.approvedAt);
        rows.update('review_proofs', { submission_id: d.submissionId }, { set: { status: 'approved', reviewer_id: d.reviewedBy } });
        return;
      }
      case 'ProofRejected': {
        const d = event.data;
        const proof = rows.get('review_proofs', { submission_id: d.submissionId }, ['status', 'user_id']);
        // A lapsed change request is rejected in the asker's name: their decision was the request.
        if (proof?.status !== 'needs_changes' && d.reviewedBy !== SYSTEM_ACTOR) decide(rows, event.position, d.submissionId, d.reviewedBy, 'rejections', d.rejectedAt);
        rows.update('review_proofs', { submission_id: d.submissionId }, { set: { status: 'rejected', reviewer_id: d.reviewedBy } });
        rows.upsert('worker_rejection_days', { user_id: userIdOf(event.streamId), day: istDayOf(d.rejectedAt), rejections: 1 }, ADD_REJECTION);
        return;
      }
      case 'ProofChangesRequested': {
        const d = event.data;
        decide(rows, event.position, d.submissionId, d.reviewedBy, 'needs_changes', d.requestedAt);
        rows.update('review_proofs', { submission_id: d.submissionId }, { set: { status: 'needs_changes', reviewer_id: d.reviewedBy } });
        return;
      }
      case 'AppealDecided': {
        const d = event.data;
        if (d.decision !== 'overturn') return;
        const rejectedBy = rows.get('review_proofs', { submission_id: d.submissionId }, ['reviewer_id'])?.reviewer_id;
        if (rejectedBy) rows.upsert('reviewer_days', { reviewer_id: rejectedBy, day: istDayOf(d.decidedAt), ...NO_COUNTS, appeals_lost: 1 }, ADD_TO.appeals_lost);
        return;
      }
      default:
        return;
    }
  },
};

/** A reviewer's decision: counted on its IST day, with the time the proof waited for it (when known). */
function decide(rows: Rows, position: number, submissionId: string, reviewerId: string, kind: Exclude<Decision, 'appeals_lost'>, at: string) {
  const day = istDayOf(at);
  rows.upsert('reviewer_days', { reviewer_id: reviewerId, day, ...NO_COUNTS, [kind]: 1 }, ADD_TO[kind]);
  const since = rows.get('review_proofs', { submission_id: submissionId }, ['since'])?.since;
  if (since === undefined) return;
  const seconds = Math.max(0, Math.round((Date.parse(at) - Date.parse(since)) / 1000));
  rows.insert('reviewer_decisions', { position, reviewer_id: reviewerId, day, seconds });
}
