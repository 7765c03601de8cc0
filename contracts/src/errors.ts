import * as v from 'valibot';

/** Every API error answers with this body; `fields` names each invalid input with its message. */
export const ErrorBody = v.object({
  error: v.object({
    code: v.string(),
    message: v.string(),
    fields: v.optional(v.record(v.string(), v.string())),
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
  | 'payload_too_large'
  /** A state-changing request from another origin (or with no sign of its origin): 403, nothing changed. */
  | 'cross_site_request'
  /** The user's uploads today reached the daily count or size limit: 429. */
  | 'upload_quota'
  | 'unsupported_media_type'
  | 'internal';
