import * as v from 'valibot';
import { Json } from './json.ts';

const IsoTime = v.pipe(v.string(), v.isoTimestamp());

/**
 * `utr-<reference>`: which withdrawal a bank or UPI transfer reference paid. Reserved with
 * `no_stream` before the pay is appended, so one reference pays one withdrawal even when two
 * processes race; released when the pay it was reserved for is refused.
 */
export const referenceEvents = {
  ReferenceReserved: v.object({ reference: v.string(), withdrawalId: v.string(), by: v.string(), reservedAt: IsoTime }),
  ReferenceReleased: v.object({ reference: v.string(), withdrawalId: v.string(), releasedAt: IsoTime }),
};

/**
 * `idempotency-<sha256(caller, key)>`: a command sent with an `Idempotency-Key`. Reserved before the
 * command runs, with the request's hash and a random `token`; every event the command appends carries
 * the token and its step in its metadata (COMMAND_KEY_METADATA, COMMAND_STEP_METADATA), in the same
 * append as the command's effect, so a retry after a crash finds what the first attempt did instead
 * of doing it again. Completion records the status and, for a refusal, the error (fixed texts, no
 * personal data); a success is answered again by re-running the route over the recorded events, so no
 * response body is kept. A reservation older than IDEMPOTENCY_RETENTION_HOURS is forgotten.
 * `IdempotentResponseRecorded` and `IdempotencyKeyReleased` are older shapes, read but no longer written.
 */
export const idempotencyEvents = {
  IdempotencyKeyReserved: v.object({
    caller: v.string(),
    requestHash: v.string(),
    method: v.string(),
    path: v.string(),
    reservedAt: IsoTime,
    /** Empty for reservations written before tokens (version 1): no event carries it. */
    token: v.string(),
  }),
  IdempotentCommandCompleted: v.object({
    token: v.string(),
    status: v.pipe(v.number(), v.integer()),
    /** The error body's `error` of a refused command; null for a success. */
    error: v.nullable(Json),
    completedAt: IsoTime,
  }),
  IdempotentResponseRecorded: v.object({ status: v.pipe(v.number(), v.integer()), body: Json, recordedAt: IsoTime }),
  IdempotencyKeyReleased: v.object({ releasedAt: IsoTime }),
};

/** Event metadata: the idempotency token of the keyed command that appended the event. */
export const COMMAND_KEY_METADATA = 'commandKey';
/** Event metadata: which append of that command it was, counted per stream (1, 2, ...). */
export const COMMAND_STEP_METADATA = 'commandStep';
/** How long an Idempotency-Key is remembered; after that the same key is a new request. */
export const IDEMPOTENCY_RETENTION_HOURS = 24;

/**
 * `staff-limits-<memberId>`: what one finance member moved alone (without a second member) across
 * all users and fundings, for the per-member daily limit (`memberDailyAdjustmentLimit`). Counted
 * before the money moves, on this stream, so two adjustments of one member to two users cannot both
 * pass the limit. A count whose adjustment then never happened (a crash between the two appends)
 * stays counted: the limit errs on the side of counting.
 */
export const staffLimitEvents = {
  MemberMoneyCounted: v.object({
    /** What moved: an adjustment of a user's wallet, or a booked funding. */
    kind: v.picklist(['adjustment', 'funding']),
    /** The adjustment's ledger entry id, or the funding's id. */
    entryId: v.string(),
    amountPaise: v.pipe(v.number(), v.integer(), v.minValue(1)),
    countedAt: IsoTime,
  }),
};
