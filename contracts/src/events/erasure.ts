import * as v from 'valibot';

const IsoTime = v.pipe(v.string(), v.isoTimestamp());

/**
 * Erasure on request, on the user's stream: the request (with the end of its cooling-off, so the
 * decision to erase never reads a setting that may have changed since), its cancellation, and the
 * erasure itself. Facts only: ids and times, nothing that identifies the person.
 */
export const deletionEvents = {
  DeletionRequested: v.object({ requestId: v.string(), requestedAt: IsoTime, coolingOffEndsAt: IsoTime }),
  DeletionCancelled: v.object({ requestId: v.string(), cancelledAt: IsoTime }),
  /** The person is forgotten: their data key goes, their sessions end; the amounts stay for finance. */
  UserErased: v.object({ requestId: v.string(), erasedBy: v.string(), erasedAt: IsoTime }),
};
