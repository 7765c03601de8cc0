import * as v from 'valibot';
import { MessageParams } from './messages.ts';

/**
 * Every API error answers with this body; `fields` names each invalid input with its message. The
 * messages are English; `key` and `params` name the message in the catalogue (SERVER_MESSAGES) and
 * `fieldKeys` each field's, for a client that shows them in another language.
 */
export const ErrorBody = v.object({
  error: v.object({
    code: v.string(),
    message: v.string(),
    key: v.optional(v.string()),
    params: v.optional(MessageParams),
    fields: v.optional(v.record(v.string(), v.string())),
    fieldKeys: v.optional(v.record(v.string(), v.object({ key: v.string(), params: v.optional(MessageParams) }))),
  }),
});
export type ErrorBody = v.InferOutput<typeof ErrorBody>;

/** Machine-readable error codes the API uses. */
export type ErrorCode =
  | 'validation_failed'
  | 'unauthenticated'
  | 'forbidden'
  | 'not_found'
  | 'conflict'
  /** A debit (withdrawal, adjustment) the balance does not cover: 409, the state refuses it, not the input. */
  | 'insufficient_balance'
  /** A withdrawal named no destination and the user has none saved. */
  | 'destination_required'
  /** The stream kept changing under the command; trying again will do. */
  | 'busy'
  | 'invalid_credentials'
  /** Too many failed sign-ins for this mobile number or from this address: 429. */
  | 'too_many_attempts'
  | 'mobile_taken'
  /** KYC: the document is pending review or approved, so it cannot be uploaded again: 409. */
  | 'kyc_document_locked'
  /** KYC: the bonus is claimed before both documents are approved: 409. */
  | 'kyc_incomplete'
  /** KYC: the bonus was already claimed: 409. */
  | 'kyc_bonus_already_claimed'
  | 'payload_too_large'
  /** A state-changing request from another origin (or with no sign of its origin): 403, nothing changed. */
  | 'cross_site_request'
  /** The user's uploads today reached the daily count or size limit: 429. */
  | 'upload_quota'
  | 'unsupported_media_type'
  /** An Idempotency-Key used again with a different request body: 422. */
  | 'idempotency_key_reused'
  /** A bank transfer reference (UTR) that already paid another withdrawal: 409. */
  | 'duplicate_reference'
  /** `If-Match` names a revision the resource has moved past: 412. */
  | 'precondition_failed'
  /** A change that must name the revision it was made on (`If-Match`) did not: 428. */
  | 'precondition_required'
  /** GET /api/ifsc/:code: a well-formed IFSC that is not in the server's branch directory: 404. */
  | 'unknown_ifsc'
  /** GET /api/ifsc/:code: the server has no branch directory (IFSC_DATASET unset): 404, the form shows the bank only. */
  | 'no_branch_directory'
  /** Submit proof: every completion slot of the task is taken: 409. */
  | 'task_full'
  /** Submit proof: the task's end date has passed: 409. */
  | 'task_expired'
  /** A suspended account submitted proof, started a task or asked for a withdrawal: 403. */
  | 'account_suspended'
  /** A payout batch above the approval threshold whose file is asked for before a second finance member approved it: 409. */
  | 'batch_not_approved'
  /** Erasure asked for before the request's cooling-off ended: 409. */
  | 'deletion_cooling_off'
  /** Erasure asked for while the user has an available balance or a payout pending: 409. */
  | 'balance_not_settled'
  /** Anything asked of (or for) a user who was erased: 409. */
  | 'user_erased'
  /** POST /api/auth/password-reset/confirm: the code is wrong, used, expired or replaced: 400. */
  | 'invalid_code'
  /** A finance member who adjusted a user's wallet in the last 30 days handling that user's withdrawal: 403. */
  | 'conflict_of_duties'
  /** A payout batch over a withdrawal already in another open batch: 409. */
  | 'already_batched'
  /** Paying or rejecting by hand a withdrawal whose batch is with the bank: 409 (its result comes from the results file). */
  | 'with_bank'
  /** A batch's result for a withdrawal that is not in that batch: 409. */
  | 'not_in_batch'
  /**
   * The server's disk is full (or below its reserve, DISK_RESERVE_MB): nothing was saved; 503 with
   * Retry-After. Reads still work.
   */
  | 'storage_full'
  /** The server's data directory is read-only or gone: nothing was saved; 503 with Retry-After. */
  | 'storage_read_only'
  /** A person without a consent record (registered before consent was asked) tried to earn, send KYC or withdraw: 403. */
  | 'consent_required'
  /** A second appeal of one rejection: 409. */
  | 'appeal_exists'
  /** An appeal sent more than APPEAL_WINDOW_DAYS after the rejection: 409. */
  | 'appeal_window_closed'
  /** The reviewer who rejected a proof deciding its appeal: 403. */
  | 'own_rejection'
  /** A posting with an effective day inside a closed month (docs/month-end.md): 409. */
  | 'period_closed'
  /** Closing the current or a future month: 409. */
  | 'period_not_over'
  /** An invitation bonus past the programme's budget (a workflow step's outcome; docs/invitations.md): 409. */
  | 'budget_spent'
  /** An inviter's bonus past their monthly cap (a workflow step's outcome): 409. */
  | 'monthly_cap'
  /** A PAN approved while another live account holds it (one PAN, one payee; docs/tax.md): 409. */
  | 'pan_in_use'
  | 'internal';
