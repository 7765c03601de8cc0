import * as v from 'valibot';

const IsoTime = v.pipe(v.string(), v.isoTimestamp());
const Step = v.pipe(v.number(), v.integer(), v.minValue(0));
const Paise = v.pipe(v.number(), v.integer(), v.minValue(0));

/** What a workflow is for; each kind has one definition in apps/api/src/workflows. */
export const WORKFLOW_KINDS = ['payout_batch', 'payout_results', 'erasure', 'hand_payment', 'proof_submission', 'invitation_bonus', 'pan_claim'] as const;
export type WorkflowKind = (typeof WORKFLOW_KINDS)[number];

/**
 * What one step does to its target stream. `claim`: put a withdrawal in the batch (its user's
 * stream); `create_batch`: record the batch with the withdrawals claimed; `SUCCESS` / `FAILED` /
 * `REVERSED`: apply a bank result to a withdrawal; `record_results`: record the import on the batch.
 * Erasure (target: the deletion request for `erase_user`, else the user id): `erase_user` records
 * `UserErased` on the person's stream; `release_mobile` frees their number and deletes its
 * reservation's key; `end_sessions`; `delete_images` (proofs, KYC); `delete_key` (their data key);
 * `checkpoint_read_db` (the scrubbed rows' old pages leave the read database's WAL).
 * `reserve_reference` / `pay` / `release_reference`: a hand payment's UTR held for its withdrawal, the
 * withdrawal paid with it, and the UTR given back when the pay was refused. `take_slot` /
 * `submit_proof` / `release_slot`: a completion slot on the task's stream, the proof on the person's,
 * and the slot given back when no proof was recorded. `count_bonus` / `record_bonus` /
 * `credit_bonus`: an invitation bonus counted against the programme's budget and the inviter's
 * monthly cap, its outcome recorded on the invitation, and the money credited (docs/invitations.md).
 * `claim_payee` / `approve_document` / `release_payee`: a PAN's payee stream held for the account
 * (target: the PAN document), the document approved on the person's stream with the totals carried
 * under that PAN, and the payee given back when the approval was refused; an erasure's
 * `release_payee` gives it back with the year's totals (docs/tax.md).
 */
export const WORKFLOW_ACTIONS = [
  'claim',
  'create_batch',
  'SUCCESS',
  'FAILED',
  'REVERSED',
  'record_results',
  'erase_user',
  'release_mobile',
  'end_sessions',
  'delete_images',
  'delete_key',
  'checkpoint_read_db',
  'reserve_reference',
  'pay',
  'release_reference',
  'take_slot',
  'submit_proof',
  'release_slot',
  'count_bonus',
  'record_bonus',
  'credit_bonus',
  'claim_payee',
  'approve_document',
  'release_payee',
] as const;
export type WorkflowAction = (typeof WORKFLOW_ACTIONS)[number];

export const WorkflowStepPlan = v.object({
  action: v.picklist(WORKFLOW_ACTIONS),
  /** The withdrawal (or batch) the step acts on; ids only. */
  target: v.string(),
  /** Whose stream the step appends to; null for a batch step. */
  userId: v.nullable(v.string()),
  amountPaise: Paise,
  /** A bank result's transfer reference (not personal: the bank's id of a transfer). */
  utr: v.string(),
  /** The line of the results file the step came from (0: none). */
  line: Step,
  /** A row refused while the file was read: the step's outcome, fixed in the intent ('' for none). */
  refusal: v.string(),
  /** A payment's bank value date (IST day), when the bank or finance gave one. */
  valueDate: v.optional(v.string()),
});
export type WorkflowStepPlan = v.InferOutput<typeof WorkflowStepPlan>;

/**
 * `workflow-<id>`: an operation that changes several streams (docs/workflows.md). The intent comes
 * first, with every step it will take; then each step's outcome as it happens; then its end. A crash
 * between two appends leaves the record a retry or the recovery sweep resumes from, so an answer is
 * always built from steps that happened. Ids, amounts, codes and bank references only: free text (a
 * bank's failure reason) stays with the request and the withdrawal's own stream.
 */
export const workflowEvents = {
  WorkflowStarted: v.object({
    workflowId: v.string(),
    kind: v.picklist(WORKFLOW_KINDS),
    /** The payout batch it works on. */
    batchId: v.string(),
    by: v.string(),
    steps: v.array(WorkflowStepPlan),
    /** Batch creation: totals above this need a second finance member. */
    approvalThresholdPaise: Paise,
    startedAt: IsoTime,
  }),
  WorkflowStepRecorded: v.object({
    workflowId: v.string(),
    step: Step,
    /** `applied`, `skipped` (already so), or the refusal's code. */
    outcome: v.string(),
    recordedAt: IsoTime,
  }),
  WorkflowCompleted: v.object({ workflowId: v.string(), completedAt: IsoTime }),
};
