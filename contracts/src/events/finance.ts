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
 * `idempotency-<sha256(caller, key)>`: a command sent with an `Idempotency-Key`. Reserved with
 * `no_stream` before the command runs, with the request's hash; its response is recorded after, and
 * a retry answers it again. A reservation whose command failed unexpectedly (5xx) is released.
 */
export const idempotencyEvents = {
  IdempotencyKeyReserved: v.object({ caller: v.string(), requestHash: v.string(), method: v.string(), path: v.string(), reservedAt: IsoTime }),
  IdempotentResponseRecorded: v.object({ status: v.pipe(v.number(), v.integer()), body: Json, recordedAt: IsoTime }),
  IdempotencyKeyReleased: v.object({ releasedAt: IsoTime }),
};
