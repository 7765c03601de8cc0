/**
 * Each proof's review state as this read model follows it: since when it has been waiting for a
 * decision (its submission, or its resubmission after a change request) and who decided it last.
 */
export interface ReviewProofsTable {
  submission_id: string;
  /** The worker whose proof it is (a plain id). */
  user_id: string;
  /** When it came in for review: ProofSubmitted.submittedAt or ProofResubmitted.resubmittedAt. */
  since: string;
  status: 'review' | 'needs_changes' | 'rejected' | 'approved';
  /** Who decided it last (for a rejection: who an overturned appeal counts against). */
  reviewer_id: string | null;
}

/** One reviewer's decisions and appeals lost on one IST day. */
export interface ReviewerDaysTable {
  reviewer_id: string;
  /** YYYY-MM-DD, India time. */
  day: string;
  approvals: number;
  rejections: number;
  needs_changes: number;
  appeals_lost: number;
}

/** One row per reviewer decision: how long the proof waited for it, for the median over a range. */
export interface ReviewerDecisionsTable {
  /** The position of the deciding event. */
  position: number;
  reviewer_id: string;
  day: string;
  seconds: number;
}

/** A worker's rejections on one IST day: their approval rate counts at most MAX_REJECTIONS_COUNTED_PER_DAY of them. */
export interface WorkerRejectionDaysTable {
  user_id: string;
  day: string;
  rejections: number;
}
