import * as v from 'valibot';

const IsoTime = v.pipe(v.string(), v.isoTimestamp());
const Count = v.pipe(v.number(), v.integer(), v.minValue(0));

/**
 * `privacy`: the first event of a log whose personal fields are sealed (see PERSONAL_FIELDS). A log
 * without it was written before sealing and holds plain personal data until `migrate-privacy` copies
 * it; a copy names the log it was made from by that log's head (the chain hash of its last event).
 */
export const privacyEvents = {
  PersonalDataSealed: v.object({
    sealedAt: IsoTime,
    migratedFrom: v.optional(
      v.object({
        /** Chain hash of the old log's last event (null when the old log had no chain). */
        headHash: v.nullable(v.string()),
        headPosition: Count,
        events: Count,
      }),
    ),
  }),
};
