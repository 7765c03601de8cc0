/**
 * The near-duplicate pictures of each proof, found once when the proof is projected (both ways), so
 * the review queue and each decision read them by submission id. Only the closest few per proof are
 * kept (see KEPT_SIMILAR in similar.ts).
 */
export interface SimilarProofsTable {
  submission_id: string;
  /** The owner of `submission_id`: an erasure drops their pairs. */
  user_id: string;
  other_id: string;
  /** The other proof's owner: the queue shows their masked mobile; an erasure drops their pairs. */
  other_user_id: string;
  /** Differing bits of the 64. */
  distance: number;
}

/** The latest PROOF_SIMILARITY_WINDOW proofs with a hash, oldest first: what a new proof is compared with. */
export interface ProofWindowTable {
  /** Position of the ProofSubmitted event (also the rowid, so a read goes oldest first). */
  position: number;
  submission_id: string;
  user_id: string;
  /** As in proof_submissions: ERASED once erased (it then keeps its place and matches nothing). */
  proof_dhash: string;
}

/**
 * One row: the position of the last event that changed the window. A process whose in-memory copy of
 * the window was made at another position (another process projected meanwhile, or a transaction
 * rolled back) loads it again.
 */
export interface ProofWindowHeadTable {
  id: number;
  changed_at: number;
}
