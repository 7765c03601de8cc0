import { randomUUID } from 'node:crypto';
import { streams } from '@kamai/contracts';
import { type EventStore, type NewEvent, WrongExpectedRevisionError } from '@kamai/domain';

/** Whether the log's personal data is sealed: a new log (marked now) or a migrated one. */
export type LogPrivacy = 'sealed' | 'plain';

/**
 * Marks a new log as sealed (its first event), or tells a log written before sealing apart: such a
 * log never gets the marker, since it is written only while the log is empty (or first by
 * migrate-privacy). Two processes starting on an empty log race for it; one wins, both agree.
 */
export async function markOrCheckLog(store: EventStore, now: Date): Promise<LogPrivacy> {
  if ((await store.headPosition()) === 0) {
    const marker: NewEvent = { id: randomUUID(), type: 'PersonalDataSealed', data: { sealedAt: now.toISOString() }, metadata: { actor: 'system' } };
    try {
      await store.append(streams.privacy(), [marker], 'no_stream');
    } catch (err) {
      if (!(err instanceof WrongExpectedRevisionError)) throw err;
    }
  }
  return (await store.readStream(streams.privacy(), { maxCount: 1 })).length > 0 ? 'sealed' : 'plain';
}

export const PLAIN_LOG_WARNING =
  '[privacy] this event store was written before personal data was sealed: its older events hold names, mobile numbers, ' +
  'password hashes and payout details in plain text. Stop the app and run `npm run cli -- migrate-privacy` (see docs/privacy.md).';
